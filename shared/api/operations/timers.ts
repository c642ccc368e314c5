import { TenantPath } from '#shared/api/schemas/common';
import { TimerListQuery } from '#shared/api/schemas/timers';
import { op } from './operation';

/**
 * Pending timers (docs/api.md, "Time"). Served by the audit group's function: both are read-only
 * views of the tenant's history and future, and neither writes.
 */
export const TIMERS_OPERATIONS = {
  'timers.list': op({
    group: 'audit',
    method: 'GET',
    path: '/tenants/{tenant_id}/timers',
    summary: "List the tenant's pending timers, soonest first",
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: TimerListQuery,
    status: 200,
  }),
} as const;
