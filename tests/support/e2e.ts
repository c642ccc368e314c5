import { randomUUID } from 'node:crypto';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { ROLES, type Role } from '#shared/kernel/policy';
import { client } from './http';
import type { TestRuntime } from './runtime';

export const PASSWORD = 'correct horse battery staple';

export interface Seeded {
  api: ReturnType<typeof client>;
  adminToken: string;
  tenantId: string;
  /** role -> { token, user_id, email } */
  members: Record<Role, { token: string; user_id: string; email: string }>;
}

/** A tenant with one member per role, each logged in. */
export async function seedTenant(
  rt: TestRuntime,
  tenantId = `t-${randomUUID().slice(0, 8)}`,
): Promise<Seeded> {
  const api = client(rt.baseUrl);
  const adminToken = await api.login(rt.admin.email, rt.admin.password);
  const created = await api.call('POST', '/tenants', {
    token: adminToken,
    body: { id: tenantId, name: `Tenant ${tenantId}` },
  });
  if (created.status !== 201) throw new Error(`tenant: ${created.status} ${JSON.stringify(created.body)}`);
  const members = {} as Seeded['members'];
  await Promise.all(
    ROLES.map(async (role) => {
      const email = `${role}-${tenantId}@example.test`;
      const r = await api.call('POST', `/tenants/${tenantId}/members`, {
        token: adminToken,
        body: { email, display_name: `${role} of ${tenantId}`, role, password: PASSWORD },
      });
      if (r.status !== 201) throw new Error(`member: ${r.status} ${JSON.stringify(r.body)}`);
      members[role] = { token: await api.login(email, PASSWORD), user_id: r.body.user_id, email };
    }),
  );
  return { api, adminToken, tenantId, members };
}

/** Creates the sample exception in the seeded tenant (as the admin); answers its id. */
export async function createSampleException(seeded: Seeded): Promise<string> {
  const r = await seeded.api.call('POST', `/tenants/${seeded.tenantId}/exceptions`, {
    token: seeded.adminToken,
    body: SAMPLE_BODIES['exceptions.create'],
  });
  if (r.status !== 201) throw new Error(`exception: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id;
}

/** Every operation needing a token, with its path params filled in. */
export const tenantScoped = (op: Operation) => op.auth === 'bearer' && op.path.includes('{tenant_id}');

export const bearerOperations = (params: Record<string, string>) =>
  (Object.entries(OPERATIONS) as [string, Operation][])
    .filter(([, op]) => op.auth === 'bearer')
    .map(([id, op]) => ({
      id,
      op,
      path: op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
        // Params of routes added later get a syntactically valid placeholder.
        return encodeURIComponent(params[name] ?? `placeholder-${name}`);
      }),
    }));

/** A valid body for each operation that takes one. */
export const SAMPLE_BODIES: Record<string, unknown> = {
  'tenants.create': { id: 'never-created', name: 'Never' },
  'members.add': { email: 'never@example.test', display_name: 'Never', role: 'operator', password: PASSWORD },
  'members.update': { role: 'support' },
  'inbox.readAll': { category: 'general' },
  'exceptions.create': {
    exception_type: 'invoice.overdue',
    subject_type: 'invoice',
    subject_id: 'INV-1',
    title: 'Overdue',
    summary: 'Invoice is overdue',
  },
  'exceptions.changeStatus': { status: 'resolved' },
  'documents.create': {
    document_type: 'invoice',
    number: 'INV-SAMPLE',
    counterparty: 'Globex Ltd',
    currency: 'EUR',
    amount: '100.00',
    issued_on: '2026-01-31',
    lines: [{ description: 'Hours', quantity: '2', unit_amount: '50.00' }],
  },
  'documents.changeStatus': { status: 'open' },
  'tasks.create': { title: 'Call the bank', subject_type: 'invoice', subject_id: 'INV-1' },
  'tasks.update': { title: 'Call the bank again' },
  'tasks.changeStatus': { status: 'in_progress' },
  'workflowRules.create': {
    name: 'Critical exceptions need a manager',
    trigger: { event_type: 'exception.created' },
    conditions: [{ field: 'severity', op: 'eq', value: 'critical' }],
    actions: [{ type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager', due_in_hours: 4 }],
  },
  'workflowRules.update': { version: 1, enabled: false },
  'escalationPolicies.create': {
    name: 'Critical exceptions',
    match: { severities: ['critical'] },
    levels: [{ after_minutes: 15, notify: [{ channel: 'email', recipient: 'oncall@example.test' }] }],
  },
  'escalationPolicies.update': { version: 1, repeat: 1 },
  // Disabled: no message of the tests' changes is ever sent, so no retry changes a record later.
  'webhookEndpoints.create': {
    url: 'https://hooks.example.com/ops',
    event_types: ['exception.created'],
    enabled: false,
  },
  'webhookEndpoints.update': { description: 'Orders system' },
  'webhookEndpoints.recover': { since: new Date(Date.now() - 3600_000).toISOString() },
  'workflowRules.replay': { since: new Date(Date.now() - 3600_000).toISOString(), status: 'failed' },
  'workflowRules.test': { event: { event_type: 'exception.created', entity: { severity: 'critical' } } },
  'auth.login': { email: 'x@example.test', password: 'x' },
  'integrationConnections.create': {
    adapter_key: 'email',
    name: 'Billing mail',
    config: { from_address: 'billing@acme.example' },
  },
  'integrationConnections.update': { name: 'Billing mail (renamed)' },
  'previews.briefing': { role: 'accountant', limit: 5 },
  'previews.detection': { limit: 10 },
  'previews.escalation': { include_resolved: true },
  'previews.actionPlan': { role: 'manager' },
  'previews.actionExecution': {
    execution_mode: 'approval_request',
    action_steps: [{ action: 'acknowledge_exception', exception_id: 'e1' }],
  },
  'previews.approvalGateway': {
    requester_role: 'manager',
    execution_plan: [{ action: 'void_document', document_id: 'd1' }],
  },
  'previews.intakePipeline': {
    events: [
      {
        source: 'bank_feed',
        event_type: 'payment.received',
        external_id: 'ch_1',
        payload: { counterparty: 'Globex Ltd', currency: 'EUR', amount: '10.00', issued_on: '2026-02-01' },
      },
    ],
  },
  'accountingExports.create': {
    export_batch_id: 'B-sample',
    documents: [{ number: 'INV-1', amount: '10.00', currency: 'EUR' }],
  },
};

export const isProblem = (r: {
  headers: Headers;
  body: { status?: number; code?: string; request_id?: string };
}) => r.headers.get('content-type') === 'application/problem+json' && typeof r.body?.request_id === 'string';

/**
 * Everything a refused request could have written in a tenant: how many records one list holds
 * and how many audit events the tenant has (compare before and after).
 */
export async function footprint(seeded: Seeded, listPath: string) {
  const records = await seeded.api.call('GET', `${listPath}?limit=100`, { token: seeded.adminToken });
  const audit = await seeded.api.call('GET', `/tenants/${seeded.tenantId}/audit-events?limit=100`, {
    token: seeded.adminToken,
  });
  return { records: records.body.items.length as number, audit: audit.body.items.length as number };
}

/**
 * The e2e tests wait for the relay and the workers with `until` (tests/support/wait.ts), never for
 * a clock: 25 s by default, not less, since DynamoDB Local's stream, which the relay reads, lagged
 * past 10 s on a loaded machine running two test files at once; a passing wait returns as soon as
 * its answer is there.
 */
export { until } from './wait';
