import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground, type Background } from '#local/background';
import { EVENT_KINDS, QUEUES } from '#shared/kernel/names';
import { type Seeded, seedTenant, until } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * The accounting export end to end through the local runtime: HTTP -> DynamoDB Local -> stream
 * -> relay -> the external queue -> worker -> the sandbox's Tallybook and Ledgerly. Queue time
 * runs 100x faster, so backoff and Retry-After are exercised quickly.
 */

let rt: TestRuntime;
let bg: Background;
let tally: Seeded;
let ledger: Seeded;
let none: Seeded;

const connect = async (s: Seeded, adapter_key: string, config: object, secret: object) => {
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/integration-connections`, {
    token: s.members.owner.token,
    body: { adapter_key, name: `${adapter_key} books`, config, secret },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
};

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUEUE_MS_PER_SECOND: '10', OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000' });
  bg = activeBackground()!;
  [tally, ledger, none] = await Promise.all([seedTenant(rt), seedTenant(rt), seedTenant(rt)]);
  await connect(
    tally,
    'tallybook',
    { company_id: '104522', ledger: 'sales', currency: 'EUR' },
    { api_key: 'tb-key-0123456789' },
  );
  await connect(
    ledger,
    'ledgerly',
    {
      organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
      region: 'eu',
      base_currency: 'EUR',
      sales_account_code: '200',
      payment_account_code: '090',
    },
    { client_id: 'client-id-0123456789', client_secret: 'client-secret-0123456789' },
  );
}, 90_000);

afterAll(async () => {
  await rt?.stop();
});

const numbers = (n: number) => Array.from({ length: n }, () => `INV-${randomUUID().slice(0, 12)}`);
const docs = (nums: string[]) =>
  nums.map((number) => ({ number, amount: '42.00', currency: 'EUR', counterparty: 'Acme' }));
const post = (s: Seeded, body: object, role: keyof Seeded['members'] = 'accountant') =>
  s.api.call('POST', `/tenants/${s.tenantId}/accounting-exports`, { token: s.members[role].token, body });
const statusOf = (s: Seeded, id: string, status: string) =>
  until(
    async () => {
      const r = await s.api.call('GET', `/tenants/${s.tenantId}/accounting-exports/${id}`, {
        token: s.members.support.token,
      });
      return r.body.status === status ? r.body : undefined;
    },
    `export ${id} to become ${status}`,
    15_000,
  );

describe('accounting export', () => {
  it('exports a batch (202), a repeat of the batch id answers the same export (200), another body is 409', async () => {
    const nums = numbers(3);
    const body = { export_batch_id: `B-${randomUUID()}`, documents: docs(nums) };
    const r = await post(tally, body);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      status: 'queued',
      document_count: 3,
      export_batch_id: body.export_batch_id,
    });
    const done = await statusOf(tally, r.body.id, 'exported');
    expect(done.items.every((i: { external_id: string | null }) => i.external_id)).toBe(true);
    for (const n of nums) expect(bg.sandbox.accounting.bookingCount('tallybook', n)).toBe(1);

    const again = await post(tally, body, 'manager');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(r.body.id);
    const other = await post(tally, { ...body, documents: docs(numbers(1)) });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('conflict');
    const list = await tally.api.call(
      'GET',
      `/tenants/${tally.tenantId}/accounting-exports?status=exported`,
      {
        token: tally.members.operator.token,
      },
    );
    expect(list.body.items.map((e: { id: string }) => e.id)).toContain(r.body.id);
  });

  it('role matrix: operator and support may not export (403); bad bodies are 422 with paths', async () => {
    const body = { export_batch_id: `B-${randomUUID()}`, documents: docs(numbers(1)) };
    expect((await post(tally, body, 'operator')).status).toBe(403);
    expect((await post(tally, body, 'support')).status).toBe(403);
    const bad = await post(tally, { export_batch_id: 'x', documents: [] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'documents',
      'export_batch_id',
    ]);
    const missing = await post(tally, {
      export_batch_id: `B-${randomUUID()}`,
      documents: [{ document_id: 'nope' }],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].path).toBe('documents.0.document_id');
  });

  it('retryable then success: both attempts recorded', async () => {
    const r = await post(ledger, {
      export_batch_id: `B-${randomUUID()}`,
      documents: docs(numbers(2)),
      simulate_failure: 'retryable',
    });
    const done = await statusOf(ledger, r.body.id, 'exported');
    expect(done.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'retryable_failure',
      'exported',
    ]);
  });

  it('permanent: failed with a review item, no retry; discard closes it', async () => {
    const r = await post(ledger, {
      export_batch_id: `B-${randomUUID()}`,
      documents: docs(numbers(1)),
      simulate_failure: 'permanent',
    });
    const failed = await statusOf(ledger, r.body.id, 'failed');
    expect(failed.attempts).toHaveLength(1);
    const items = await ledger.api.call(
      'GET',
      `/tenants/${ledger.tenantId}/review-items?kind=accounting_export&status=open`,
      {
        token: ledger.members.manager.token,
      },
    );
    const review = items.body.items.find((i: { subject_id: string }) => i.subject_id === r.body.id);
    expect(review).toMatchObject({ id: failed.review_item_id, reason: 'permanent_failure' });
    const decided = await ledger.api.call(
      'POST',
      `/tenants/${ledger.tenantId}/review-items/${review.id}/decision`,
      {
        token: ledger.members.manager.token,
        body: { action: 'discard', note: 'booked by hand' },
      },
    );
    expect(decided.status).toBe(200);
    await statusOf(ledger, r.body.id, 'discarded');
  });

  it('a partial failure, then a review retry sends only the remaining document', async () => {
    const nums = numbers(3);
    bg.sandbox.accounting.script('tallybook', [{ ok: true }, { status: 422 }]);
    const r = await post(tally, { export_batch_id: `B-${randomUUID()}`, documents: docs(nums) });
    const partial = await statusOf(tally, r.body.id, 'partially_exported');
    expect(partial.items.map((i: { status: string }) => i.status)).toEqual([
      'exported',
      'failed',
      'exported',
    ]);
    const decided = await tally.api.call(
      'POST',
      `/tenants/${tally.tenantId}/review-items/${partial.review_item_id}/decision`,
      {
        token: tally.members.owner.token,
        body: { action: 'retry' },
      },
    );
    expect(decided.status).toBe(200);
    await statusOf(tally, r.body.id, 'exported');
    for (const n of nums) expect(bg.sandbox.accounting.bookingCount('tallybook', n)).toBe(1);
  });

  it('a redelivered queue message books nothing twice', async () => {
    const nums = numbers(2);
    const r = await post(tally, { export_batch_id: `B-${randomUUID()}`, documents: docs(nums) });
    await statusOf(tally, r.body.id, 'exported');
    const calls = bg.sandbox.accounting.calls.length;
    bg.queues.queues.get(QUEUES.external)!.send(
      JSON.stringify({
        event_id: randomUUID(),
        kind: EVENT_KINDS.accountingExportRequested,
        tenant_id: tally.tenantId,
        idempotency_key: `accounting-export:${tally.tenantId}:${r.body.id}`,
        occurred_at: new Date().toISOString(),
        payload: { export_id: r.body.id },
      }),
    );
    await until(
      async () => (bg.queues.queues.get(QUEUES.external)!.size === 0 ? true : undefined),
      'the queue to drain',
      15_000,
    );
    expect(bg.sandbox.accounting.calls.length).toBe(calls);
    for (const n of nums) expect(bg.sandbox.accounting.bookingCount('tallybook', n)).toBe(1);
  });

  it('429 from the target is honoured: the retry comes after Retry-After and books once', async () => {
    const [n] = numbers(1);
    bg.sandbox.accounting.script('ledgerly', [{ status: 429, retryAfter: 30 }]);
    const r = await post(ledger, { export_batch_id: `B-${randomUUID()}`, documents: docs([n!]) });
    const done = await statusOf(ledger, r.body.id, 'exported');
    expect(done.attempts.map((a: { error_code: string | null }) => a.error_code)).toEqual([
      'rate_limited',
      null,
    ]);
    const creates = bg.sandbox.accounting.calls.filter(
      (c) => c.target === 'ledgerly' && c.path.startsWith('/api/'),
    );
    const [limited, booked] = creates.slice(-2);
    expect(limited!.status).toBe(429);
    // 30 queue seconds at 10 ms each.
    expect(booked!.at - limited!.at).toBeGreaterThanOrEqual(300);
    expect(bg.sandbox.accounting.bookingCount('ledgerly', n!)).toBe(1);
  });

  it('no accounting connection: gated, with a review item', async () => {
    const r = await post(none, { export_batch_id: `B-${randomUUID()}`, documents: docs(numbers(1)) });
    const gated = await statusOf(none, r.body.id, 'gated');
    expect(gated.review_item_id).toBeTruthy();
  });
});
