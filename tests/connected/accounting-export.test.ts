import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { auditStore } from '#functions/adapters/audit-store';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { hubStore } from '#functions/adapters/hub-store';
import { EXPECTED_SYNC_MINUTES } from '#shared/domain/integrations/catalog';
import { computeHealth } from '#shared/domain/integrations/health';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { loadConfig } from '#functions/config';
import { type ExportRunDeps, runExport } from '#shared/domain/accounting/export-run';
import type { StoredExport } from '#shared/domain/accounting/ports';
import { decideExportReview } from '#shared/domain/accounting/review';
import { type AccountingDeps, createExport } from '#shared/domain/accounting/use-cases';
import { auditEvent } from '#shared/domain/audit';
import { createDocument } from '#shared/domain/documents/use-cases';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { Connection } from '#shared/domain/integrations/ports';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { ConflictError, ValidationError } from '#shared/kernel/errors';
import { newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { type AccountingTargetName, ProviderSandbox } from '#local/provider-sandbox';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';

/**
 * The accounting export's guarantees over DynamoDB Local and the loopback sandbox's Ledgerly
 * (idempotency keys, batches of 50) and Tallybook (no idempotency, one document per call, lookup
 * by number): the API's use case, and the worker's run with the real adapter clients.
 */

let db: Db;
let sandbox: ProviderSandbox;
let deps: AccountingDeps;
let worker: ExportRunDeps;
const secrets = connectionSecretsFor({ store: 'memory', kmsKeyId: undefined });
const actor = principal('acct-1');

beforeAll(async () => {
  ({ db } = await freshDb());
  sandbox = new ProviderSandbox();
  const url = await sandbox.listen();
  deps = {
    exports: accountingStore(db),
    documents: documentStore(db),
    connections: connectionStore(db),
    clock: systemClock,
  };
  const providers = loadConfig({
    OPS_LEDGERLY_API_URL: `${url}/ledgerly`,
    OPS_TALLYBOOK_API_URL: `${url}/tallybook`,
    OPS_PROVIDER_TIMEOUT_MS: '400',
  }).providers;
  worker = {
    exports: deps.exports,
    connections: activeConnectionReader(connectionStore(db), secrets),
    results: connectionResults(db),
    targets: accountingTargets(providers),
    clock: systemClock,
    maxAttempts: 3,
    backoff: DELIVERY_BACKOFF,
    leaseSeconds: 60,
  };
});

afterAll(async () => {
  await sandbox.stop();
});

const CONFIGS: Record<
  AccountingTargetName,
  { config: Record<string, unknown>; secret: Record<string, string> }
> = {
  ledgerly: {
    config: {
      organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
      region: 'eu',
      base_currency: 'EUR',
      sales_account_code: '200',
      payment_account_code: '090',
    },
    secret: { client_id: 'client-id-0123456789', client_secret: 'client-secret-0123456789' },
  },
  tallybook: {
    config: { company_id: '104522', ledger: 'sales', currency: 'EUR' },
    secret: { api_key: 'tb-key-0123456789' },
  },
};

/** A tenant with an active connection of the target's adapter (and its secret). */
async function tenantWith(target: AccountingTargetName | null) {
  const tenantId = `t-${newId().slice(-10)}`;
  if (target) await connect(tenantId, target);
  return tenantId;
}

async function connect(tenantId: string, target: AccountingTargetName) {
  const now = new Date().toISOString();
  const connection: Connection = {
    id: newId(),
    tenant_id: tenantId,
    adapter_key: target,
    category: 'accounting',
    name: `${target} (test)`,
    status: 'active',
    scopes: [],
    config: CONFIGS[target].config,
    mapping: {},
    secret_configured: true,
    created_at: now,
    updated_at: now,
  };
  const audit = auditEvent(systemClock, {
    tenant_id: tenantId,
    event_type: 'integration_connection.created',
    actor_id: null,
    entity_type: 'integration_connection',
    entity_id: connection.id,
    summary: 'test setup',
  });
  expect(await connectionStore(db).create(connection, audit)).toBe('written');
  await secrets.put(tenantId, connection.id, CONFIGS[target].secret);
}

const numbers = (n: number) => Array.from({ length: n }, () => `INV-${newId().slice(-12)}`);
const docs = (nums: string[]) =>
  nums.map((number) => ({ number, amount: '120.00', currency: 'EUR', counterparty: 'Acme' }));

/** Creates an export and returns it with the outbox event the worker receives. */
async function exported(
  tenantId: string,
  body: Partial<Parameters<typeof createExport>[3]> & { documents: unknown[] },
) {
  const input = { export_batch_id: `B-${newId()}`, ...body } as Parameters<typeof createExport>[3];
  const { export: e, created } = await createExport(deps, actor, tenantId, input);
  expect(created).toBe(true);
  return e;
}

const run = (tenantId: string, id: string, receiveCount = 1) => runExport(worker, id, tenantId, receiveCount);
const stored = async (tenantId: string, id: string) => (await deps.exports.get(tenantId, id)) as StoredExport;
const creates = (target: AccountingTargetName) =>
  sandbox.accounting.calls.filter(
    (c) => c.target === target && c.method === 'POST' && c.path !== '/oauth/token',
  );
const auditTypes = async (tenantId: string, id: string) =>
  (
    await auditStore(db).list(tenantId, { entity_type: 'accounting_export', entity_id: id }, { limit: 100 })
  ).items
    .map((a) => a.event_type)
    .sort();

describe('create: the export_batch_id claim', () => {
  it('a repeat with the same body is the same export (not created); another body is 409', async () => {
    const tenantId = await tenantWith('ledgerly');
    const body = { export_batch_id: `B-${newId()}`, documents: docs(numbers(2)) };
    const first = await createExport(deps, actor, tenantId, body);
    const again = await createExport(deps, actor, tenantId, structuredClone(body));
    expect(first.created).toBe(true);
    expect(again).toEqual({ created: false, export: first.export });
    await expect(
      createExport(deps, actor, tenantId, { ...body, documents: docs(numbers(1)) }),
    ).rejects.toBeInstanceOf(ConflictError);
    const all = await deps.exports.list(tenantId, {}, { limit: 10 });
    expect(all.items.map((e) => e.id)).toEqual([first.export.id]);
    expect(await auditTypes(tenantId, first.export.id)).toEqual(['accounting_export.queued']);
  });

  it('a document named by id must be a document of the tenant (422 with its path)', async () => {
    const tenantId = await tenantWith('ledgerly');
    const err = await createExport(deps, actor, tenantId, {
      export_batch_id: `B-${newId()}`,
      documents: [{ number: 'X-1', amount: '1.00', currency: 'EUR' }, { document_id: newId() }],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      expect.objectContaining({ path: 'documents.1.document_id', code: 'not_found' }),
    ]);
  });
});

describe('the worker', () => {
  it('exports a batch: a document of the tenant and free-form ones, one Ledgerly call, each booked once', async () => {
    const tenantId = await tenantWith('ledgerly');
    const doc = await createDocument({ documents: documentStore(db), clock: systemClock }, actor, tenantId, {
      document_type: 'invoice',
      number: `INV-${newId().slice(-12)}`,
      counterparty: 'Acme',
      currency: 'EUR',
      amount: '99.50',
      issued_on: '2026-11-01',
    });
    const nums = numbers(2);
    const before = creates('ledgerly').length;
    const e = await exported(tenantId, { documents: [{ document_id: doc.id }, ...docs(nums)] });
    const outcome = await run(tenantId, e.id);
    expect(outcome).toMatchObject({ action: 'ack', result: 'exported' });
    const after = await stored(tenantId, e.id);
    expect(after.status).toBe('exported');
    expect(after.completed_at).not.toBeNull();
    expect(after.items.map((i) => [i.status, i.external_id?.startsWith('ledgerly-')])).toEqual([
      ['exported', true],
      ['exported', true],
      ['exported', true],
    ]);
    expect(after.items[0]!.document_ref).toBe(doc.id);
    expect(creates('ledgerly').length - before).toBe(1);
    for (const n of [doc.number, ...nums]) expect(sandbox.accounting.bookingCount('ledgerly', n)).toBe(1);
    expect(await auditTypes(tenantId, e.id)).toEqual([
      'accounting_export.exported',
      'accounting_export.queued',
    ]);
  });

  it('a redelivered message books nothing twice', async () => {
    const tenantId = await tenantWith('tallybook');
    const nums = numbers(2);
    const e = await exported(tenantId, { documents: docs(nums) });
    expect(await run(tenantId, e.id)).toMatchObject({ result: 'exported' });
    const calls = creates('tallybook').length;
    expect(await run(tenantId, e.id, 2)).toMatchObject({ action: 'ack', result: 'duplicate' });
    expect(creates('tallybook').length).toBe(calls);
    for (const n of nums) expect(sandbox.accounting.bookingCount('tallybook', n)).toBe(1);
  });

  it('simulate_failure retryable: the first attempt fails retryable, the retry exports; both attempts recorded', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(1)), simulate_failure: 'retryable' });
    const first = await run(tenantId, e.id, 1);
    expect(first).toMatchObject({ action: 'retry', result: 'retrying' });
    expect((await stored(tenantId, e.id)).status).toBe('retrying');
    expect(await run(tenantId, e.id, 2)).toMatchObject({ action: 'ack', result: 'exported' });
    const after = await stored(tenantId, e.id);
    expect(after.attempts.map((a) => [a.attempt, a.outcome, a.error_code])).toEqual([
      [1, 'retryable_failure', 'target_unavailable'],
      [2, 'exported', null],
    ]);
    expect(await auditTypes(tenantId, e.id)).toEqual([
      'accounting_export.exported',
      'accounting_export.queued',
      'accounting_export.retrying',
    ]);
  });

  it('simulate_failure permanent: failed at once with a review item and the workflow event, no retry', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(2)), simulate_failure: 'permanent' });
    const outcome = await run(tenantId, e.id, 1);
    expect(outcome).toMatchObject({ action: 'ack', result: 'failed' });
    const after = await stored(tenantId, e.id);
    expect(after.status).toBe('failed');
    expect(
      after.items.every(
        (i) => i.status === 'failed' && i.error_code === 'validation_rejected' && i.retryable === false,
      ),
    ).toBe(true);
    const review = await notificationStore(db).getReviewItem(tenantId, after.review_item_id!);
    expect(review).toMatchObject({
      kind: 'accounting_export',
      subject_id: e.id,
      status: 'open',
      reason: 'permanent_failure',
    });
    expect(await run(tenantId, e.id, 2)).toMatchObject({ action: 'ack', result: 'skipped' });
    expect((await stored(tenantId, e.id)).attempts).toHaveLength(1);
    expect(await auditTypes(tenantId, e.id)).toEqual([
      'accounting_export.failed',
      'accounting_export.queued',
    ]);
  });

  it('the last attempt of retryable failures marks the export failed with a review item, then lets the message dead-letter', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(1)) });
    sandbox.accounting.script('ledgerly', [{ status: 503 }, { status: 503 }, { status: 503 }]);
    expect(await run(tenantId, e.id, 1)).toMatchObject({ action: 'retry' });
    expect(await run(tenantId, e.id, 2)).toMatchObject({ action: 'retry' });
    const last = await run(tenantId, e.id, 3);
    expect(last).toMatchObject({ action: 'dead_letter', result: 'failed' });
    const after = await stored(tenantId, e.id);
    expect(after.status).toBe('failed');
    const review = await notificationStore(db).getReviewItem(tenantId, after.review_item_id!);
    expect(review).toMatchObject({ kind: 'accounting_export', reason: 'dead_lettered', status: 'open' });
  });

  it('429 is honoured: the run stops, the retry waits at least Retry-After, nothing is booked twice', async () => {
    const tenantId = await tenantWith('tallybook');
    const nums = numbers(3);
    const e = await exported(tenantId, { documents: docs(nums) });
    // The first document books; the second meets 429 with Retry-After 7; the third is not sent.
    sandbox.accounting.script('tallybook', [{ ok: true }, { status: 429, retryAfter: 7 }]);
    const before = creates('tallybook').length;
    const outcome = await run(tenantId, e.id, 1);
    expect(outcome).toMatchObject({ action: 'retry', result: 'retrying' });
    expect((outcome as { delaySeconds: number }).delaySeconds).toBeGreaterThanOrEqual(7);
    expect(creates('tallybook').length - before).toBe(2);
    const mid = await stored(tenantId, e.id);
    expect(mid.items.map((i) => [i.status, i.error_code])).toEqual([
      ['exported', null],
      ['pending', 'rate_limited'],
      ['pending', 'rate_limited'],
    ]);
    expect(await run(tenantId, e.id, 2)).toMatchObject({ result: 'exported' });
    for (const n of nums) expect(sandbox.accounting.bookingCount('tallybook', n)).toBe(1);
  });

  it('a retry after a partial failure sends only the documents not booked (review decision retry)', async () => {
    const tenantId = await tenantWith('tallybook');
    const nums = numbers(3);
    const e = await exported(tenantId, { documents: docs(nums) });
    sandbox.accounting.script('tallybook', [{ ok: true }, { status: 422 }]);
    const before = creates('tallybook').length;
    expect(await run(tenantId, e.id, 1)).toMatchObject({ action: 'ack', result: 'partially_exported' });
    const partial = await stored(tenantId, e.id);
    expect(partial.items.map((i) => [i.status, i.error_code])).toEqual([
      ['exported', null],
      ['failed', 'validation_rejected'],
      ['exported', null],
    ]);
    expect(creates('tallybook').length - before).toBe(3);
    const review = await notificationStore(db).getReviewItem(tenantId, partial.review_item_id!);
    await decideExportReview(deps, principal('mgr-1'), review!, {
      action: 'retry',
      note: 'account code fixed',
    });
    expect((await stored(tenantId, e.id)).status).toBe('queued');
    expect(await run(tenantId, e.id, 1)).toMatchObject({ result: 'exported' });
    expect(creates('tallybook').length - before).toBe(4);
    for (const n of nums) expect(sandbox.accounting.bookingCount('tallybook', n)).toBe(1);
    expect((await notificationStore(db).getReviewItem(tenantId, review!.id))?.status).toBe('retried');
  });

  it('discard closes a failed export; a decision on a closed item is refused', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(1)), simulate_failure: 'permanent' });
    await run(tenantId, e.id, 1);
    const review = await notificationStore(db).getReviewItem(
      tenantId,
      (await stored(tenantId, e.id)).review_item_id!,
    );
    await decideExportReview(deps, principal('mgr-1'), review!, { action: 'discard' });
    expect((await stored(tenantId, e.id)).status).toBe('discarded');
    await expect(
      decideExportReview(deps, principal('mgr-1'), review!, { action: 'retry' }),
    ).rejects.toThrow();
    expect(await run(tenantId, e.id, 1)).toMatchObject({ action: 'ack', result: 'skipped' });
  });

  it('no accounting connection: gated with a review item; after a connection, a review retry exports', async () => {
    const tenantId = await tenantWith(null);
    const e = await exported(tenantId, { documents: docs(numbers(1)) });
    expect(await run(tenantId, e.id)).toMatchObject({ action: 'ack', result: 'gated' });
    const gated = await stored(tenantId, e.id);
    expect(gated.status).toBe('gated');
    const review = await notificationStore(db).getReviewItem(tenantId, gated.review_item_id!);
    expect(review).toMatchObject({ kind: 'accounting_export', reason: 'gated' });
    await connect(tenantId, 'ledgerly');
    await decideExportReview(deps, principal('mgr-1'), review!, { action: 'retry' });
    expect(await run(tenantId, e.id, 1)).toMatchObject({ result: 'exported' });
    expect((await stored(tenantId, e.id)).integration_connection_id).not.toBeNull();
  });

  it('a run that dies after booking, before writing its result, is resumed without sending again', async () => {
    const tenantId = await tenantWith('tallybook');
    const nums = numbers(2);
    const e = await exported(tenantId, { documents: docs(nums) });
    let crash = true;
    const dying: ExportRunDeps = {
      ...worker,
      leaseSeconds: 1,
      exports: {
        ...worker.exports,
        async finish(...args) {
          if (crash) throw new Error('the function timed out');
          return worker.exports.finish(...args);
        },
      },
    };
    await expect(runExport(dying, e.id, tenantId, 1)).rejects.toThrow('timed out');
    const calls = creates('tallybook').length;
    crash = false;
    await new Promise((r) => setTimeout(r, 1100)); // the dead run's lease expires
    expect(await runExport(dying, e.id, tenantId, 2)).toMatchObject({ result: 'exported' });
    expect(creates('tallybook').length).toBe(calls);
    for (const n of nums) expect(sandbox.accounting.bookingCount('tallybook', n)).toBe(1);
  });

  describe('a call whose answer never came (the target booked, the worker did not record it)', () => {
    it('Tallybook (no idempotency): the next run looks the document up by number and records it, sends nothing', async () => {
      const tenantId = await tenantWith('tallybook');
      const [n] = numbers(1);
      const e = await exported(tenantId, { documents: docs([n!]) });
      sandbox.accounting.script('tallybook', [{ hang: true, book: true }]);
      const first = await run(tenantId, e.id, 1);
      expect(first).toMatchObject({ action: 'retry', reason: 'timeout' });
      expect(sandbox.accounting.bookingCount('tallybook', n!)).toBe(1);
      const before = creates('tallybook').length;
      expect(await run(tenantId, e.id, 2)).toMatchObject({ result: 'exported' });
      expect(creates('tallybook').length).toBe(before);
      expect(sandbox.accounting.bookingCount('tallybook', n!)).toBe(1);
      const after = await stored(tenantId, e.id);
      expect(after.items[0]!.external_id).toBe(sandbox.accounting.booked.find((b) => b.number === n)!.id);
    });

    it('Ledgerly (24 h idempotency keys): the next run sends again with the same key; the target books nothing new', async () => {
      const tenantId = await tenantWith('ledgerly');
      const [n] = numbers(1);
      const e = await exported(tenantId, { documents: docs([n!]) });
      sandbox.accounting.script('ledgerly', [{ hang: true, book: true }]);
      expect(await run(tenantId, e.id, 1)).toMatchObject({ action: 'retry', reason: 'timeout' });
      expect(await run(tenantId, e.id, 2)).toMatchObject({ result: 'exported' });
      expect(sandbox.accounting.bookingCount('ledgerly', n!)).toBe(1);
    });
  });
});

it('the export event goes to the external queue', async () => {
  const { queueForEvent, QUEUES } = await import('#shared/kernel/names');
  expect(queueForEvent(EVENT_KINDS.accountingExportRequested, {})).toBe(QUEUES.external);
});

describe('the run records its outcome on the connection it used (docs/api.md section 9.3)', () => {
  const healthOf = async (tenantId: string, connectionId: string) =>
    computeHealth(
      await hubStore(db).health(tenantId, connectionId),
      EXPECTED_SYNC_MINUTES.accounting,
      new Date(),
    );

  it('booked: healthy; a refused document leaves it healthy; a 503 degrades it with the error code', async () => {
    const tenantId = await tenantWith('ledgerly');
    const first = await exported(tenantId, { documents: docs(numbers(1)) });
    expect(await run(tenantId, first.id)).toMatchObject({ result: 'exported' });
    const connectionId = (await stored(tenantId, first.id)).integration_connection_id!;
    expect((await healthOf(tenantId, connectionId)).state).toBe('healthy');

    // The target answered: the document was wrong, not the connection.
    const refused = await exported(tenantId, { documents: docs(numbers(1)) });
    sandbox.accounting.script('ledgerly', [{ status: 400 }]);
    expect(await run(tenantId, refused.id)).toMatchObject({ result: 'failed' });
    expect((await healthOf(tenantId, connectionId)).state).toBe('healthy');

    const unavailable = await exported(tenantId, { documents: docs(numbers(1)) });
    sandbox.accounting.script('ledgerly', [{ status: 503 }]);
    expect(await run(tenantId, unavailable.id)).toMatchObject({ action: 'retry' });
    expect(await healthOf(tenantId, connectionId)).toMatchObject({
      state: 'degraded',
      reason: 'last call failed: target_unavailable',
    });
  });
});
