import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
} from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentClient } from '#functions/adapters/dynamo';
import { PREVIEW_KINDS } from '#shared/api/schemas/previews';
import { ROLES } from '#shared/kernel/policy';
import { LOCAL_AWS_ENV, localClient } from '#local/dynamodb-local';
import { activeBackground } from '#local/background';
import { isProblem, type Seeded, seedTenant } from '#tests/support/e2e';
import { idle } from '#tests/support/idle';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * The previews over HTTP (docs/api.md section 9.5): everyone in the tenant runs them, bad input is
 * 422 with its path, and none of the seven persists anything, also when it fails: the table's item
 * count, the audit log, the table's stream and the queues are the same before and after.
 */

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
/** Every message sent to any queue or DLQ of the runtime. */
let sends: { mock: { calls: unknown[] } }[] = [];

beforeAll(async () => {
  // The seed's open invoice is past its due date, so it arms a document_due timer that is due at
  // once. Fired by the 1 s interval, its overdue record could land after the baseline below and
  // look like a preview's write (a loaded full run did: 2 items, 1 audit event, 2 queue sends).
  // Without the interval it fires only when idle() sweeps, before the baseline.
  rt = await startRuntime({ OPS_LOCAL_TIMER_INTERVAL_MS: '3600000' });
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
  const as = (role: (typeof ROLES)[number]) => ({ token: a.members[role].token });
  const post = async (path: string, body: unknown, role: (typeof ROLES)[number] = 'manager') => {
    const r = await a.api.call('POST', `/tenants/${a.tenantId}${path}`, { ...as(role), body });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  await post('/exceptions', {
    exception_type: 'bank_feed.down',
    subject_type: 'connection',
    subject_id: 'bank-1',
    title: 'Bank feed down',
    summary: 'No statements since Monday',
    severity: 'critical',
  });
  const invoice = await post('/documents', {
    document_type: 'invoice',
    number: 'INV-1',
    counterparty: 'Globex Ltd',
    currency: 'EUR',
    amount: '100.00',
    issued_on: '2026-01-01',
    due_on: '2026-01-31',
  });
  await post(`/documents/${invoice.id}/status`, { status: 'open' });
  for (const n of ['PAY-1', 'PAY-2'])
    await post('/documents', {
      document_type: 'payment',
      number: n,
      counterparty: 'Globex Ltd',
      currency: 'EUR',
      amount: '60.00',
      issued_on: '2026-02-01',
      applies_to: invoice.id,
    });
  await post('/tasks', { title: 'Call Globex about INV-1', assignee_role: 'accountant' });
  // Every token's first use refreshes its session's last_used_at (the token check, not a
  // preview): use each once now, so the footprint below sees only what the previews do.
  for (const s of [a, b])
    await Promise.all(
      [...ROLES.map((r) => s.members[r].token), s.adminToken].map((token) =>
        s.api.call('GET', `/tenants/${s.tenantId}`, { token }),
      ),
    );
}, 90_000);
afterAll(() => rt?.stop());

const path = (s: Seeded, kind: string) => `/tenants/${s.tenantId}/previews/${kind}`;

/** A valid body per preview. */
const BODIES: Record<(typeof PREVIEW_KINDS)[number], Record<string, unknown>> = {
  briefing: { role: 'accountant' },
  detection: {},
  escalation: { include_resolved: true },
  'action-plan': { role: 'manager' },
  'action-execution': { execution_mode: 'dry_run' },
  'approval-gateway': { requester_role: 'manager', approver_role: 'manager' },
  'intake-pipeline': {
    events: [
      {
        source: 'bank_feed',
        event_type: 'payment.received',
        external_id: 'ch_1',
        payload: { counterparty: 'Globex Ltd', currency: 'EUR', amount: '40.00', invoice_number: 'INV-1' },
        occurred_at: '2026-02-02T10:00:00Z',
      },
    ],
  },
};

/** Bodies each preview refuses, or computes a failing answer for. */
const FAILING: [string, unknown, number][] = [
  ['briefing', { limit: 51 }, 422],
  ['briefing', { role: 'owner', tenant_id: 'other' }, 422],
  ['detection', { limit: 0 }, 422],
  ['escalation', { policy: 'other' }, 422],
  ['action-plan', { plan_kind: 'other' }, 422],
  ['action-execution', { action_steps: Array.from({ length: 11 }, () => ({})) }, 422],
  [
    'action-execution',
    { action_steps: [{ action: 'void_document', document_id: 'missing' }, { action: 'drop_table' }] },
    200,
  ],
  ['approval-gateway', { execution_plan: [{ action: 'resolve_exception', exception_id: 'missing' }] }, 200],
  ['approval-gateway', { include_dual_control: 'yes' }, 422],
  ['intake-pipeline', { events: [] }, 422],
  [
    'intake-pipeline',
    { events: [{ source: 'bank_feed', event_type: 'x', external_id: 'y', payload: {}, raw: 1 }] },
    422,
  ],
  [
    'intake-pipeline',
    { events: [{ source: 'bank_feed', event_type: 'contact.created', external_id: 'y', payload: {} }] },
    200,
  ],
];

async function streamRecords(): Promise<number> {
  const streams = new DynamoDBStreamsClient({
    endpoint: rt.endpoint,
    region: LOCAL_AWS_ENV.AWS_REGION,
    credentials: {
      accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
      secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
    },
  });
  const table = await localClient(rt.endpoint).send(new DescribeTableCommand({ TableName: rt.tableName }));
  const described = await streams.send(
    new DescribeStreamCommand({ StreamArn: table.Table!.LatestStreamArn! }),
  );
  let count = 0;
  for (const shard of described.StreamDescription?.Shards ?? []) {
    let iterator = (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: table.Table!.LatestStreamArn!,
          ShardId: shard.ShardId!,
          ShardIteratorType: 'TRIM_HORIZON',
        }),
      )
    ).ShardIterator;
    while (iterator) {
      const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      count += out.Records?.length ?? 0;
      if (!out.Records?.length) break;
      iterator = out.NextShardIterator;
    }
  }
  return count;
}

/** Everything a preview could have changed: items, the tenant's audit log, stream records, queue sends. */
async function footprint() {
  const doc = documentClient(localClient(rt.endpoint));
  const items = (await doc.send(new ScanCommand({ TableName: rt.tableName, Select: 'COUNT' }))).Count;
  const audit = await a.api.call('GET', `/tenants/${a.tenantId}/audit-events?limit=100`, {
    token: a.adminToken,
  });
  return {
    items,
    audit: audit.body.items.map((e: { id: string }) => e.id),
    stream: await streamRecords(),
    queueSends: sends.reduce((n, spy) => n + spy.mock.calls.length, 0),
    queued: [...activeBackground()!.queues.queues.values()].map((q) => q.size),
  };
}

/** The footprint once the relay and workers are idle (the seed's outbox events have passed). */
async function settledFootprint() {
  await idle();
  return footprint();
}

describe('previews over HTTP', () => {
  it('all seven persist nothing, also for input they refuse or steps that would fail', async () => {
    sends = [...activeBackground()!.queues.queues.values()].map((q) => vi.spyOn(q, 'send'));
    const before = await settledFootprint();
    const log = await a.api.call('GET', `/tenants/${a.tenantId}/audit-events?limit=100`, {
      token: a.adminToken,
    });
    expect(
      log.body.items.map((e: { event_type: string }) => e.event_type),
      'the seed’s due timer fired before the baseline',
    ).toContain('document.overdue');
    for (const kind of PREVIEW_KINDS) {
      for (const role of ROLES) {
        const r = await a.api.call('POST', path(a, kind), {
          token: a.members[role].token,
          body: BODIES[kind],
        });
        expect(r.status, `${kind} as ${role}: ${JSON.stringify(r.body)}`).toBe(200);
        expect(r.body.side_effects).toBe('none');
      }
    }
    for (const [kind, body, status] of FAILING) {
      const r = await a.api.call('POST', path(a, kind), { token: a.members.operator.token, body });
      expect(r.status, `${kind} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toBe(status);
    }
    await idle();
    expect(await footprint()).toEqual(before);

    // The footprint sees a write: one exception moves every measure.
    const created = await a.api.call('POST', `/tenants/${a.tenantId}/exceptions`, {
      token: a.members.operator.token,
      body: {
        exception_type: 'x.y',
        subject_type: 'invoice',
        subject_id: 'INV-8',
        title: 'New',
        summary: 'New one',
      },
    });
    expect(created.status).toBe(201);
    const after = await settledFootprint();
    expect(after.items).toBeGreaterThan(before.items!);
    expect(after.audit.length).toBe(before.audit.length + 1);
    expect(after.stream).toBeGreaterThan(before.stream);
    expect(after.queueSends).toBeGreaterThan(before.queueSends);
  }, 120_000);

  it('computes from the tenant’s records: the duplicate payment overpays the invoice', async () => {
    const r = await a.api.call('POST', path(a, 'detection'), { token: a.members.support.token, body: {} });
    expect(r.body).toMatchObject({
      tenant_id: a.tenantId,
      rule_set: 'payment_reconciliation',
      side_effects: 'none',
    });
    expect(r.body.observations.map((o: { code: string }) => o.code).sort()).toEqual([
      'duplicate_payment',
      'payment_amount_mismatch',
    ]);
    // Overpaid, so not an overdue open invoice, though its due date has passed.
    expect(r.body.observations[1].details).toMatchObject({
      invoice_amount: '100.00',
      applied_amount: '120.00',
    });
    expect(r.body.preview_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const again = await a.api.call('POST', path(a, 'detection'), {
      token: a.members.operator.token,
      body: {},
    });
    expect(again.body.preview_digest).toBe(r.body.preview_digest);
    const gateway = await a.api.call('POST', path(a, 'approval-gateway'), {
      token: a.members.operator.token,
      body: BODIES['approval-gateway'],
    });
    expect(gateway.body.approval_requests[0]).toMatchObject({
      requested_by_role: 'manager',
      routed_to: 'owner',
    });
  });

  it('a change to the data read changes the digest', async () => {
    const before = await a.api.call('POST', path(a, 'escalation'), {
      token: a.members.operator.token,
      body: {},
    });
    const created = await a.api.call('POST', `/tenants/${a.tenantId}/exceptions`, {
      token: a.members.operator.token,
      body: {
        exception_type: 'x.y',
        subject_type: 'invoice',
        subject_id: 'INV-9',
        title: 'New',
        summary: 'New one',
      },
    });
    expect(created.status).toBe(201);
    const after = await a.api.call('POST', path(a, 'escalation'), {
      token: a.members.operator.token,
      body: {},
    });
    expect(after.body.preview_digest).not.toBe(before.body.preview_digest);
  });

  it('another tenant, or a tenant that does not exist, is 404; no token is 401; errors carry their path', async () => {
    const other = await a.api.call('POST', path(b, 'briefing'), { token: a.members.owner.token, body: {} });
    expect(other.status).toBe(404);
    const missing = await a.api.call('POST', '/tenants/no-such-tenant/previews/briefing', {
      token: a.adminToken,
      body: {},
    });
    expect(missing.status).toBe(404);
    const anonymous = await a.api.call('POST', path(a, 'briefing'), { body: {} });
    expect(anonymous.status).toBe(401);
    const bad = await a.api.call('POST', path(a, 'detection'), {
      token: a.members.operator.token,
      body: { limit: 101 },
    });
    expect(bad.status).toBe(422);
    expect(isProblem(bad)).toBe(true);
    expect(bad.body.errors).toContainEqual(expect.objectContaining({ path: 'limit', code: 'too_big' }));
    const unknownKind = await a.api.call('POST', `/tenants/${a.tenantId}/previews/horoscope`, {
      token: a.members.operator.token,
      body: {},
    });
    expect(unknownKind.status).toBe(404);
  });
});
