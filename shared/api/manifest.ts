import { ACCOUNTING_OPERATIONS } from './operations/accounting';
import { AUDIT_OPERATIONS } from './operations/audit';
import { AUTH_OPERATIONS } from './operations/auth';
import { DOCUMENTS_OPERATIONS } from './operations/documents';
import { ESCALATION_POLICIES_OPERATIONS } from './operations/escalation-policies';
import { EXCEPTIONS_OPERATIONS } from './operations/exceptions';
import { INBOX_OPERATIONS } from './operations/inbox';
import { INTEGRATIONS_OPERATIONS } from './operations/integrations';
import { METRICS_OPERATIONS } from './operations/metrics';
import { NOTIFICATIONS_OPERATIONS } from './operations/notifications';
import { OAUTH_OPERATIONS } from './operations/oauth';
import type { Operation } from './operations/operation';
import { REVIEW_OPERATIONS } from './operations/review';
import { PREVIEWS_OPERATIONS } from './operations/previews';
import { PUBLIC_OPERATIONS } from './operations/public';
import { ALTERNATIVE_RESPONSES, RESPONSES } from './operations/responses';
import { TASKS_OPERATIONS } from './operations/tasks';
import { TIMERS_OPERATIONS } from './operations/timers';
import { WEBHOOKS_OPERATIONS } from './operations/webhooks';
import { WORKFLOWS_OPERATIONS } from './operations/workflows';
import { TENANTS_OPERATIONS } from './operations/tenants';

export type { Method, Operation, Operations } from './operations/operation';

/**
 * Every HTTP operation of the service, as data, one module per route group under
 * `shared/api/operations/`. A group's Lambda dispatches from its own module only (so it bundles only
 * its own schemas; 404 and 405 come from that table); the OpenAPI document, the local runtime and
 * the CDK routes read this union. A new feature is a new group module and a line here.
 */
/** Adds each operation's response records (shared/api/operations/responses.ts). */
const withResponses = <T extends Record<string, Operation>>(operations: T): T =>
  Object.fromEntries(
    Object.entries(operations).map(([id, op]) => {
      const response = (RESPONSES as Record<string, Operation['response']>)[id];
      const alternative = (ALTERNATIVE_RESPONSES as Record<string, Operation['response']>)[id];
      if (!response) return [id, op];
      return [
        id,
        {
          ...op,
          response,
          ...(op.alternative && { alternative: { ...op.alternative, response: alternative } }),
        },
      ];
    }),
  ) as T;

export const OPERATIONS = withResponses({
  ...AUTH_OPERATIONS,
  ...TENANTS_OPERATIONS,
  ...EXCEPTIONS_OPERATIONS,
  ...ESCALATION_POLICIES_OPERATIONS,
  ...AUDIT_OPERATIONS,
  ...TIMERS_OPERATIONS,
  ...NOTIFICATIONS_OPERATIONS,
  ...INBOX_OPERATIONS,
  ...REVIEW_OPERATIONS,
  ...DOCUMENTS_OPERATIONS,
  ...TASKS_OPERATIONS,
  ...WORKFLOWS_OPERATIONS,
  ...INTEGRATIONS_OPERATIONS,
  ...OAUTH_OPERATIONS,
  ...PREVIEWS_OPERATIONS,
  ...METRICS_OPERATIONS,
  ...ACCOUNTING_OPERATIONS,
  ...WEBHOOKS_OPERATIONS,
  ...PUBLIC_OPERATIONS,
} as const satisfies Record<string, Operation>);

export type OperationId = keyof typeof OPERATIONS;
export type GroupName = (typeof OPERATIONS)[OperationId]['group'];

/** The route groups: one Lambda function each. `public` also answers every unknown path (404). */
export const GROUPS = [
  'auth',
  'tenants',
  'exceptions',
  'escalation',
  'audit',
  'notifications',
  'inbox',
  'review',
  'documents',
  'tasks',
  'workflows',
  'integrations',
  'oauth',
  'previews',
  'metrics',
  'accounting',
  'webhooks',
  'public',
] as const;

export const operationsOfGroup = (group: string): [OperationId, Operation][] =>
  (Object.entries(OPERATIONS) as [OperationId, Operation][]).filter(([, o]) => o.group === group);
