import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { ROLES } from '#shared/kernel/policy';
import { PASSWORD, SAMPLE_BODIES, type Seeded, seedTenant, tenantScoped, until } from '#tests/support/e2e';
import type { Reply } from '#tests/support/http';
import { idle } from '#tests/support/idle';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Isolation between tenants, proven on every tenant-scoped route of the operations manifest with
 * a REAL record of tenant A behind every path id, so that a 404 comes from the tenant guard and
 * not from a missing record (docs/api.md section 3). The sweep is generated from the manifest: a
 * route added later is swept without a change here, and a route whose path ids this file cannot
 * create fails the first test, by name, until a creator is added to RECORDS.
 *
 * - A member of tenant B (every role) calling tenant A's paths gets 404 `not_found`.
 * - The platform admin calling tenant B's paths with tenant A's record ids gets 404 `not_found`
 *   (the stores read by tenant, never by id alone).
 * - Every record and list of tenant A, and its audit log, reads the same afterwards.
 * - Ids in request bodies (a connection, a document, an assignee, a recipient) naming tenant A's
 *   records are refused from tenant B, one test per field, and write nothing in either tenant.
 */

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;

/** Path parameter name -> the id of a real record of tenant A (filled in beforeAll). */
const ids: Record<string, string> = {};

const must = (r: Reply, status: number, what: string) => {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

const LEDGERLY = {
  organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
  region: 'eu',
  base_currency: 'EUR',
  sales_account_code: '200',
  payment_account_code: '090',
};

/**
 * How each path id gets a real record of tenant `s`: one creator per parameter name. A route whose
 * path names another parameter fails the first test below until one is added here.
 */
const RECORDS: Record<string, (s: Seeded) => Promise<Record<string, string>>> = {
  user_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/members`, {
      token: s.adminToken,
      body: {
        email: `m-${s.tenantId}@example.test`,
        display_name: 'Member',
        role: 'operator',
        password: PASSWORD,
      },
    });
    return { user_id: must(r, 201, 'member').user_id };
  },
  invitation_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/members`, {
      token: s.members.owner.token,
      body: { email: `i-${s.tenantId}@example.test`, display_name: 'Invitee', role: 'support' },
    });
    return { invitation_id: must(r, 202, 'invitation').id };
  },
  exception_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/exceptions`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['exceptions.create'],
    });
    return { exception_id: must(r, 201, 'exception').id };
  },
  // A telegram notification while no telegram connection exists is gated: it opens a review item.
  notification_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/notifications`, {
      token: s.adminToken,
      body: { channel: 'telegram', recipient: '777', body: 'Stock is low' },
    });
    const notification_id = must(r, 202, 'notification').id as string;
    const review_item_id = await until(
      async () => {
        const n = await s.api.call('GET', `/tenants/${s.tenantId}/notifications/${notification_id}`, {
          token: s.adminToken,
        });
        return n.body.status === 'gated' ? (n.body.review_item_id as string) : undefined;
      },
      'the notification to be gated',
      15_000,
    );
    return { notification_id, review_item_id };
  },
  review_item_id: (s) => RECORDS.notification_id!(s),
  document_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/documents`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['documents.create'],
    });
    return { document_id: must(r, 201, 'document').id };
  },
  task_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/tasks`, {
      token: s.adminToken,
      body: { ...(SAMPLE_BODIES['tasks.create'] as object), assignee_id: s.members.operator.user_id },
    });
    return { task_id: must(r, 201, 'task').id };
  },
  rule_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/workflow-rules`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['workflowRules.create'],
    });
    return { rule_id: must(r, 201, 'rule').id };
  },
  // A run of the sample rule: its exception is critical, so the worker fires it.
  workflow_run_id: async (s) => {
    const rule_id = ids.rule_id ?? (await RECORDS.rule_id!(s)).rule_id!;
    must(
      await s.api.call('POST', `/tenants/${s.tenantId}/exceptions`, {
        token: s.adminToken,
        body: { ...(SAMPLE_BODIES['exceptions.create'] as object), severity: 'critical' },
      }),
      201,
      'exception for a run',
    );
    const id = await until(
      async () => {
        const r = await s.api.call('GET', `/tenants/${s.tenantId}/workflow-runs?rule_id=${rule_id}`, {
          token: s.adminToken,
        });
        return (r.body?.items?.[0]?.id as string | undefined) ?? undefined;
      },
      'a workflow run',
      20_000,
    );
    return { rule_id, workflow_run_id: id };
  },
  replay_id: async (s) => {
    const rule_id = ids.rule_id ?? (await RECORDS.rule_id!(s)).rule_id!;
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/workflow-rules/${rule_id}/replay`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['workflowRules.replay'],
    });
    return { rule_id, replay_id: must(r, 202, 'rule replay').id };
  },
  policy_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/escalation-policies`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['escalationPolicies.create'],
    });
    return { policy_id: must(r, 201, 'escalation policy').id };
  },
  endpoint_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/webhook-endpoints`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['webhookEndpoints.create'],
    });
    return { endpoint_id: must(r, 201, 'webhook endpoint').id };
  },
  // The test send of the disabled endpoint: its one message fails at once, without an attempt.
  message_id: async (s) => {
    const endpoint_id = ids.endpoint_id ?? (await RECORDS.endpoint_id!(s)).endpoint_id!;
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/webhook-endpoints/${endpoint_id}/test`, {
      token: s.adminToken,
    });
    return { endpoint_id, message_id: must(r, 202, 'webhook test message').message_id };
  },
  connection_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/integration-connections`, {
      token: s.adminToken,
      body: {
        adapter_key: 'ledgerly',
        name: 'Books',
        config: LEDGERLY,
        secret: { client_id: 'ledgerly-client-0001', client_secret: 'ledgerly-secret-0001' },
      },
    });
    return { connection_id: must(r, 201, 'connection').id };
  },
  run_id: async (s) => {
    const connection_id = ids.connection_id ?? (await RECORDS.connection_id!(s)).connection_id!;
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/reconciliation-runs`, {
      token: s.adminToken,
      body: { connection_id, rule_set: 'payment_reconciliation' },
    });
    return { run_id: must(r, 202, 'reconciliation run').id };
  },
  export_id: async (s) => {
    const r = await s.api.call('POST', `/tenants/${s.tenantId}/accounting-exports`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['accountingExports.create'],
    });
    return { export_id: must(r, 202, 'accounting export').id };
  },
};

/** Valid bodies of the routes that name a record, beyond SAMPLE_BODIES: validation must not answer first. */
const RECORD_BODIES: Record<string, unknown> = {
  'reviewItems.decide': { action: 'discard', note: 'from another tenant' },
  'integrationConnections.previewMapping': { sample: { InvoiceNumber: 'INV-1' } },
};
const bodyOf = (id: string) => RECORD_BODIES[id] ?? SAMPLE_BODIES[id];

const scoped = (Object.entries(OPERATIONS) as [string, Operation][])
  .filter(([, op]) => tenantScoped(op))
  .map(([id, op]) => ({ id, op, names: [...op.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!) }));

const recordNames = (names: string[]) => names.filter((n) => n !== 'tenant_id');

/** The route's path with tenant `tenantId` and tenant A's record ids. */
const pathOf = (op: Operation, tenantId: string) =>
  op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) => {
    const value = name === 'tenant_id' ? tenantId : ids[name];
    if (value === undefined) throw new Error(`no record of tenant A for {${name}} in ${op.path}`);
    return encodeURIComponent(value);
  });

/**
 * Everything tenant A holds, as its platform admin reads it: every tenant-scoped GET route of the
 * manifest (lists at their largest page), the records behind the ids above included.
 */
const snapshot = async () => {
  const out: Record<string, unknown> = {};
  for (const { id, op } of scoped) {
    if (op.method !== 'GET') continue;
    const path = pathOf(op, a.tenantId);
    const r = await a.api.call('GET', op.path.endsWith('}') ? path : `${path}?limit=100`, {
      token: a.adminToken,
    });
    out[id] = [r.status, r.body];
  }
  return JSON.stringify(out);
};

/** The background (relay, workers) finishes what the records above started, then A's records are read. */
const settled = async () => {
  await idle(30_000);
  return snapshot();
};

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUIET: '1' });
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
  // The connection first: the run names it.
  Object.assign(ids, await RECORDS.connection_id!(a));
  for (const name of new Set(scoped.flatMap(({ names }) => recordNames(names)))) {
    if (!ids[name] && RECORDS[name]) Object.assign(ids, await RECORDS[name](a));
  }
}, 90_000);
afterAll(() => rt?.stop());

describe('every tenant-scoped route, with real records of tenant A', () => {
  it('every path id of every tenant-scoped route has a real record of tenant A', () => {
    const unknown = scoped
      .filter(({ names }) => recordNames(names).some((n) => ids[n] === undefined))
      .map(({ id, op }) => `${id} (${op.path})`);
    // A new route names a record this file cannot create yet: add its creator to RECORDS.
    expect(unknown).toEqual([]);
    expect(scoped.length).toBeGreaterThanOrEqual(53);
  });

  it('every member of tenant B, whatever the role, gets 404 on every route of tenant A, and A is unchanged', async () => {
    const before = await settled();
    for (const role of ROLES) {
      for (const { id, op } of scoped) {
        const r = await b.api.call(op.method, pathOf(op, a.tenantId), {
          token: b.members[role].token,
          body: bodyOf(id),
        });
        expect([role, id, r.status, r.body?.code]).toEqual([role, id, 404, 'not_found']);
      }
    }
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it("tenant A's record ids under tenant B's paths are 404 even to the platform admin, and A is unchanged", async () => {
    const before = await settled();
    const named = scoped.filter(({ names }) => recordNames(names).length > 0);
    const bodiless = named.filter(({ id, op }) => op.body && bodyOf(id) === undefined).map(({ id }) => id);
    // A route that names a record and takes a body needs a valid one here (SAMPLE_BODIES or RECORD_BODIES).
    expect(bodiless).toEqual([]);
    for (const { id, op } of named) {
      const r = await b.api.call(op.method, pathOf(op, b.tenantId), {
        token: b.adminToken,
        body: bodyOf(id),
      });
      expect([id, r.status, r.body?.code]).toEqual([id, 404, 'not_found']);
    }
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});

describe("ids of tenant A's records in request bodies, sent to tenant B", () => {
  const call = (method: string, path: string, body: unknown) =>
    b.api.call(method, `/tenants/${b.tenantId}${path}`, { token: b.adminToken, body });
  const count = async (list: string) =>
    (await call('GET', `${list}?limit=100`, undefined)).body.items.length as number;

  /** [field, method, path under tenant B, body naming A's record, list of B that must not grow, the refusal]. */
  const cases = (): [string, string, string, () => Promise<unknown>, string, object][] => [
    [
      'tasks.create assignee_id',
      'POST',
      '/tasks',
      async () => ({ ...(SAMPLE_BODIES['tasks.create'] as object), assignee_id: a.members.operator.user_id }),
      '/tasks',
      { path: 'assignee_id', code: 'not_member' },
    ],
    [
      'tasks.update assignee_id',
      'PATCH',
      '/tasks/{own task}',
      async () => ({ assignee_id: a.members.operator.user_id }),
      '/tasks',
      { path: 'assignee_id', code: 'not_member' },
    ],
    [
      'documents.create applies_to',
      'POST',
      '/documents',
      async () => ({
        document_type: 'payment',
        number: 'P-1',
        counterparty: 'Globex Ltd',
        currency: 'EUR',
        amount: '100.00',
        issued_on: '2026-02-01',
        applies_to: ids.document_id,
        lines: [{ description: 'Payment', quantity: '1', unit_amount: '100.00' }],
      }),
      '/documents',
      { path: 'applies_to', code: 'not_found' },
    ],
    [
      'reconciliationRuns.create connection_id',
      'POST',
      '/reconciliation-runs',
      async () => ({ connection_id: ids.connection_id, rule_set: 'payment_reconciliation' }),
      '/reconciliation-runs',
      { path: 'connection_id', code: 'unknown_connection' },
    ],
    [
      'integrationRepairs.preview connection_id',
      'POST',
      '/integration-repairs/preview',
      async () => ({ connection_id: ids.connection_id }),
      '/review-items',
      { path: 'connection_id', code: 'unknown_connection' },
    ],
    [
      'accountingExports.create integration_connection_id',
      'POST',
      '/accounting-exports',
      async () => ({
        export_batch_id: 'B-foreign-connection',
        documents: [{ number: 'INV-1', amount: '10.00', currency: 'EUR' }],
        integration_connection_id: ids.connection_id,
      }),
      '/accounting-exports',
      { path: 'integration_connection_id', code: 'not_found' },
    ],
    [
      'accountingExports.create documents[].document_id',
      'POST',
      '/accounting-exports',
      async () => ({ export_batch_id: 'B-foreign-document', documents: [{ document_id: ids.document_id }] }),
      '/accounting-exports',
      { path: 'documents.0.document_id', code: 'not_found' },
    ],
    [
      'notifications.create recipient (in_app)',
      'POST',
      '/notifications',
      async () => ({ channel: 'in_app', recipient: a.members.operator.user_id, body: 'Hello' }),
      // Refused notifications are kept as `blocked` (docs/api.md section 7): what must not grow is the review queue.
      '/review-items',
      { path: 'recipient', code: 'invalid_recipient' },
    ],
  ];

  let ownTask = '';
  let before = '';
  beforeAll(async () => {
    const r = await call('POST', '/tasks', SAMPLE_BODIES['tasks.create']);
    ownTask = must(r, 201, "B's task").id;
    before = await settled();
  }, 60_000);

  // One test per field, each read back: tenant B holds no record naming tenant A's.
  for (const [field, method, path, body, list, refusal] of cases()) {
    it(`${field} is refused with 422 and writes nothing`, async () => {
      const listed = await count(list);
      const r = await call(method, path.replace('{own task}', ownTask), await body());
      expect([r.status, r.body?.errors]).toEqual([422, [expect.objectContaining(refusal)]]);
      expect(await count(list)).toBe(listed);
      if (field.startsWith('tasks.update')) {
        const task = await call('GET', `/tasks/${ownTask}`, undefined);
        expect(task.body.assignee_id).not.toBe(a.members.operator.user_id);
      }
    });
  }

  // Previews answer 200 for any step; a record of tenant A is as unknown as no record at all.
  it.each([
    ['previews.actionExecution action_steps[].exception_id', '/previews/action-execution', 'exception_id'],
    ['previews.approvalGateway execution_plan[].document_id', '/previews/approval-gateway', 'document_id'],
  ])('%s: a record of tenant A reads as a missing one', async (_, path, field) => {
    const body = (id: string) =>
      field === 'exception_id'
        ? {
            execution_mode: 'approval_request',
            action_steps: [{ action: 'acknowledge_exception', exception_id: id }],
          }
        : { requester_role: 'manager', execution_plan: [{ action: 'void_document', document_id: id }] };
    const shown = async (id: string) => {
      const r = await call('POST', path, body(id));
      expect(r.status).toBe(200);
      return (
        JSON.stringify(r.body)
          .replaceAll(id, '<id>')

          .replace(/"generated_at":"[^"]+"/, '')
          // The digest hashes the request, the id included.
          .replace(/"preview_digest":"[^"]+"/, '')
      );
    };
    expect(await shown(ids[field]!)).toEqual(await shown('01a00000-0000-7000-8000-000000000000'));
  });

  afterAll(async () => {
    // Whatever tenant B was sent, tenant A reads the same.
    expect(await snapshot()).toEqual(before);
  });
});
