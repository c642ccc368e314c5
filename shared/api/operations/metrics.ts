import { op } from './operation';

/** The operator's view of the delivery machinery (docs/api.md section 9.6). */
export const METRICS_OPERATIONS = {
  'ops.metrics': op({
    group: 'metrics',
    method: 'GET',
    path: '/ops/metrics',
    summary: 'Queue depths, outbox backlog and open review items (platform_admin)',
    auth: 'bearer',
    permission: 'platform.admin',
    status: 200,
  }),
} as const;
