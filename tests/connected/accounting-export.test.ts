import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
import { tenantZones } from '#functions/adapters/tenant-zone';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { loadConfig } from '#functions/config';
import { type ExportRunDeps, runExport } from '#shared/domain/accounting/export-run';
import type { StoredExport } from '#shared/domain/accounting/ports';
import { decideExportReview } from '#shared/domain/accounting/review';
import { type AccountingDeps, createExport, getExport } from '#shared/domain/accounting/use-cases';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { ConflictError, InvalidTransitionError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { type Clock, newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { AccountingTargetName } from '#local/accounting-sandbox';
import { ProviderSandbox } from '#local/provider-sandbox';
import { connectAccounting } from '#tests/support/connections';
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
/**
 * The worker's clock: the system's, moved forward by `run` to an export's retry time, where the
 * queue gives the message back (not waited for); the system's again for each test.
 */
let ahead = 0;
const workerClock: Clock = { now: () => new Date(Date.now() + ahead) };
afterEach(() => {
  ahead = 0;
});
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
    // Long enough for a first call's token and booking on a loaded machine; the hanging calls wait it out.
    OPS_PROVIDER_TIMEOUT_MS: '1000',
  }).providers;
  worker = {
    exports: deps.exports,
    connections: activeConnectionReader(connectionStore(db), secrets),
    results: connectionResults(db),
    targets: accountingTargets(providers),
    clock: workerClock,
    // Paced calls move the worker's clock instead of sleeping.
    wait: async (ms) => {
      ahead += ms;
    },
    maxAttempts: 3,
    backoff: DELIVERY_BACKOFF,
    leaseSeconds: 60,
    queueSecondMs: 1000,
  };
});

afterAll(async () => {
  await sandbox.stop();
});

/** A tenant with an active connection of the target's adapter (and its secret). */
async function tenantWith(target: AccountingTargetName | null) {
  const tenantId = `t-${newId().slice(-10)}`;
  if (target) await connect(tenantId, target);
  return tenantId;
}

const connect = (
  tenantId: string,
  target: AccountingTargetName,
  options?: Parameters<typeof connectAccounting>[4],
) => connectAccounting(db, secrets, tenantId, target, options);

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

const stored = async (tenantId: string, id: string) => (await deps.exports.get(tenantId, id)) as StoredExport;
/** The message as the queue delivers it: for a retrying export, at its retry time. */
const run = async (tenantId: string, id: string, receiveCount = 1) => {
  const found = await deps.exports.get(tenantId, id);
  if (found?.status === 'retrying') ahead = Math.max(ahead, Date.parse(found.lease_until!) - Date.now() + 1);
  return runExport(worker, id, tenantId, receiveCount);
};
const creates = (target: AccountingTargetName) =>
  sandbox.accounting.calls.filter(
    (c) => c.target === target && c.method === 'POST' && c.path !== '/oauth/token',
  );
const audits = async (tenantId: string, id: string) =>
  (await auditStore(db).list(tenantId, { entity_type: 'accounting_export', entity_id: id }, { limit: 100 }))
    .items;
/** The export's audit event of a type, its metadata read back from JSON. */
const auditOf = async (tenantId: string, id: string, eventType: string) => {
  const { metadata_json, ...event } = (await audits(tenantId, id)).find((a) => a.event_type === eventType)!;
  return { ...event, metadata: metadata_json === null ? null : (JSON.parse(metadata_json) as unknown) };
};
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
    expect(last).toMatchObject({ action: 'dead_letter', result: 'failed', reason: 'target_unavailable' });
    const after = await stored(tenantId, e.id);
    expect(after.status).toBe('failed');
    expect(after.items.map((i) => [i.status, i.error_code, i.retryable])).toEqual([
      ['failed', 'target_unavailable', true],
    ]);
    expect(after.attempts.map((a) => a.outcome)).toEqual([
      'retryable_failure',
      'retryable_failure',
      'retryable_failure',
    ]);
    const review = await notificationStore(db).getReviewItem(tenantId, after.review_item_id!);
    expect(review).toMatchObject({
      kind: 'accounting_export',
      reason: 'dead_lettered',
      status: 'open',
      detail: '3 attempts failed, last: target_unavailable',
    });
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
    // The backoff after a first attempt is 1 to 2 s: the target's 7 s is longer, and wins.
    expect((outcome as { delaySeconds: number }).delaySeconds).toBe(7);
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

describe('the run: what it answers, records and audits on each path', () => {
  const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

  it('an export that does not exist, or has ended, is acknowledged without a call', async () => {
    const tenantId = await tenantWith('ledgerly');
    expect(await run(tenantId, newId())).toEqual({ action: 'ack', result: 'skipped', reason: 'not_found' });
    const e = await exported(tenantId, { documents: docs(numbers(1)), simulate_failure: 'permanent' });
    await run(tenantId, e.id);
    expect(await run(tenantId, e.id, 2)).toMatchObject({
      action: 'ack',
      result: 'skipped',
      reason: 'failed',
    });
  });

  it('another run holds the export: retry after the lease, nothing sent', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(1)) });
    expect(
      await deps.exports.lease(await stored(tenantId, e.id), inSeconds(60), new Date().toISOString()),
    ).toBe(true);
    const before = creates('ledgerly').length;
    expect(await run(tenantId, e.id)).toEqual({
      action: 'retry',
      result: 'busy',
      delaySeconds: 60,
      reason: 'leased',
    });
    expect(creates('ledgerly').length).toBe(before);
  });

  it('exported: one attempt with what was sent and booked, and its audit event', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(2)) });
    expect(await run(tenantId, e.id)).toMatchObject({ action: 'ack', result: 'exported' });
    const after = await stored(tenantId, e.id);
    expect(after.attempts).toEqual([
      {
        attempt: 1,
        at: after.completed_at,
        outcome: 'exported',
        error_code: null,
        error_message: null,
        sent: 2,
        booked: 2,
      },
    ]);
    expect(await auditOf(tenantId, e.id, 'accounting_export.exported')).toMatchObject({
      actor_id: null,
      entity_id: e.id,
      summary: '2 documents exported',
      metadata: { attempt: 1 },
    });
    const bookings = await deps.exports.bookings(tenantId, e.id);
    expect(bookings.map((b) => [b.index, b.state]).sort()).toEqual([
      [0, 'booked'],
      [1, 'booked'],
    ]);
  });

  it('a named connection that is disabled: gated, and the reason, review item and audit say which', async () => {
    const tenantId = await tenantWith(null);
    const connection = await connect(tenantId, 'ledgerly', { status: 'disabled' });
    const e = await exported(tenantId, {
      documents: docs(numbers(1)),
      integration_connection_id: connection.id,
    });
    const detail = `connection ${connection.id} is not active`;
    expect(await run(tenantId, e.id)).toMatchObject({ action: 'ack', result: 'gated', reason: detail });
    const after = await stored(tenantId, e.id);
    expect(after.attempts).toEqual([
      {
        attempt: 1,
        at: after.updated_at,
        outcome: 'gated',
        error_code: null,
        error_message: null,
        sent: 0,
        booked: 0,
      },
    ]);
    expect(await notificationStore(db).getReviewItem(tenantId, after.review_item_id!)).toMatchObject({
      reason: 'gated',
      detail,
    });
    expect(await auditOf(tenantId, e.id, 'accounting_export.gated')).toMatchObject({
      summary: `export gated: ${detail}`,
      metadata: { review_item_id: after.review_item_id },
    });
    const none = await tenantWith(null);
    const other = await exported(none, { documents: docs(numbers(1)) });
    expect(await run(none, other.id)).toMatchObject({
      result: 'gated',
      reason: 'the tenant has no active accounting connection',
    });
  });

  it('an auth failure ends the run: the documents not sent share it, and the export fails at once', async () => {
    const tenantId = await tenantWith('tallybook');
    const e = await exported(tenantId, { documents: docs(numbers(3)) });
    sandbox.accounting.script('tallybook', [{ status: 401 }]);
    const before = creates('tallybook').length;
    // Not retried even with attempts left: nothing pending is retryable.
    expect(await run(tenantId, e.id, 1)).toMatchObject({
      action: 'ack',
      result: 'failed',
      reason: 'auth_failed',
    });
    expect(creates('tallybook').length - before).toBe(1);
    const after = await stored(tenantId, e.id);
    expect(after.items.map((i) => [i.status, i.error_code, i.retryable])).toEqual([
      ['failed', 'auth_failed', false],
      ['failed', 'auth_failed', false],
      ['failed', 'auth_failed', false],
    ]);
    expect(after.attempts.map((a) => [a.outcome, a.error_code, a.sent, a.booked])).toEqual([
      ['permanent_failure', 'auth_failed', 1, 0],
    ]);
    // The target answered: the claim is dropped, nothing was booked.
    expect(await deps.exports.bookings(tenantId, e.id)).toEqual([]);
    expect(await notificationStore(db).getReviewItem(tenantId, after.review_item_id!)).toMatchObject({
      reason: 'permanent_failure',
      detail: 'the target refused: auth_failed',
    });
    expect(await auditOf(tenantId, e.id, 'accounting_export.failed')).toMatchObject({
      summary: 'export failed: the target refused: auth_failed',
      metadata: {
        status: 'failed',
        error_code: 'auth_failed',
        exported: 0,
        review_item_id: after.review_item_id,
      },
    });
  });

  it('a 503 keeps its claim for the next run, waits the backoff, and audits the attempt', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(1)) });
    sandbox.accounting.script('ledgerly', [{ status: 503 }]);
    const outcome = await run(tenantId, e.id, 1);
    expect(outcome).toMatchObject({ action: 'retry', result: 'retrying', reason: 'target_unavailable' });
    expect([1, 2]).toContain((outcome as { delaySeconds: number }).delaySeconds);
    const [booking] = await deps.exports.bookings(tenantId, e.id);
    expect(booking).toMatchObject({ index: 0, state: 'sending' });
    expect((booking as { lease_until: string }).lease_until).toBe(
      (booking as { claimed_at: string }).claimed_at,
    );
    expect(await auditOf(tenantId, e.id, 'accounting_export.retrying')).toMatchObject({
      summary: 'attempt 1 failed: target_unavailable',
      metadata: { error_code: 'target_unavailable', receive_count: 1, booked: 0 },
    });
  });

  it('a document another run is sending is busy: retried after the lease even on the last attempt, nothing sent', async () => {
    const tenantId = await tenantWith('ledgerly');
    const e = await exported(tenantId, { documents: docs(numbers(1)) });
    const now = new Date().toISOString();
    expect(
      await deps.exports.claimBooking(
        tenantId,
        e.id,
        {
          index: 0,
          state: 'sending',
          idempotency_key: 'other-run',
          claimed_at: now,
          lease_until: inSeconds(60),
        },
        now,
      ),
    ).toBe('claimed');
    const before = creates('ledgerly').length;
    expect(await run(tenantId, e.id, 3)).toMatchObject({
      action: 'retry',
      result: 'retrying',
      delaySeconds: 60,
      reason: 'busy',
    });
    expect(creates('ledgerly').length).toBe(before);
    expect((await stored(tenantId, e.id)).items[0]).toMatchObject({ status: 'pending', error_code: null });
    expect(await auditOf(tenantId, e.id, 'accounting_export.retrying')).toMatchObject({
      summary: 'attempt 1 failed: busy',
    });
  });

  it("past the target's key retention, an unanswered call is outcome_unknown: failed for a person, never sent again", async () => {
    const tenantId = await tenantWith('ledgerly');
    const [n] = numbers(1);
    const e = await exported(tenantId, { documents: docs([n!]) });
    sandbox.accounting.script('ledgerly', [{ hang: true, book: true }]);
    expect(await run(tenantId, e.id, 1)).toMatchObject({ action: 'retry', reason: 'timeout' });
    const before = creates('ledgerly').length;
    const later = new Date(Date.now() + 25 * 3600_000);
    const outcome = await runExport({ ...worker, clock: { now: () => later } }, e.id, tenantId, 2);
    expect(outcome).toMatchObject({ action: 'ack', result: 'failed', reason: 'outcome_unknown' });
    expect(creates('ledgerly').length).toBe(before);
    expect(sandbox.accounting.bookingCount('ledgerly', n!)).toBe(1);
    expect((await stored(tenantId, e.id)).items[0]).toMatchObject({
      status: 'failed',
      error_code: 'outcome_unknown',
      retryable: false,
    });
  });

  it('a connection whose secret is missing: not_configured, failed without a call', async () => {
    const tenantId = await tenantWith(null);
    await connect(tenantId, 'ledgerly', { secret: false });
    const e = await exported(tenantId, { documents: docs(numbers(1)) });
    const before = creates('ledgerly').length;
    expect(await run(tenantId, e.id)).toMatchObject({
      action: 'ack',
      result: 'failed',
      reason: 'not_configured',
    });
    expect(creates('ledgerly').length).toBe(before);
  });
});

describe('review decisions on an export', () => {
  async function failedExport(n = 1) {
    const tenantId = await tenantWith('tallybook');
    const e = await exported(tenantId, { documents: docs(numbers(n)) });
    sandbox.accounting.script('tallybook', n > 1 ? [{ ok: true }, { status: 422 }] : [{ status: 422 }]);
    await run(tenantId, e.id, 1);
    const after = await stored(tenantId, e.id);
    const review = (await notificationStore(db).getReviewItem(tenantId, after.review_item_id!))!;
    return { tenantId, e, review };
  }

  it('retry sends back only the failed documents, cleared of their error', async () => {
    const { tenantId, e, review } = await failedExport(2);
    const decided = await decideExportReview(deps, principal('mgr-1'), review, { action: 'retry' });
    expect(decided).toMatchObject({ status: 'retried', decision: 'retry', decided_by: 'mgr-1' });
    const after = await stored(tenantId, e.id);
    expect(after).toMatchObject({ status: 'queued', completed_at: null });
    expect(after.items.map((i) => [i.status, i.error_code, i.retryable])).toEqual([
      ['exported', null, null],
      ['pending', null, null],
    ]);
    const audit = await auditStore(db).list(
      tenantId,
      { entity_type: 'review_item', entity_id: review.id },
      { limit: 10 },
    );
    expect(audit.items.map((a) => a.summary)).toEqual([`retry accounting export ${e.export_batch_id}`]);
  });

  it('a decision on an export that is no longer reviewable says so; a missing export is 404', async () => {
    const { review } = await failedExport();
    await decideExportReview(deps, principal('mgr-1'), review, { action: 'discard' });
    await expect(decideExportReview(deps, principal('mgr-1'), review, { action: 'retry' })).rejects.toThrow(
      new InvalidTransitionError('An export that is discarded cannot be retried.'),
    );
    await expect(
      decideExportReview(deps, principal('mgr-1'), { ...review, subject_id: newId() }, { action: 'discard' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('of two decisions at once, one wins and the other is refused', async () => {
    const { review } = await failedExport();
    const results = await Promise.allSettled([
      decideExportReview(deps, principal('mgr-1'), review, { action: 'retry' }),
      decideExportReview(deps, principal('mgr-2'), review, { action: 'discard' }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const [lost] = results.filter((r) => r.status === 'rejected');
    expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(InvalidTransitionError);
  });
});

describe('create: documents by id, the connection, the record kept', () => {
  it('a document by id is sent as the tenant has it (set fields only); the queued audit event counts them', async () => {
    const tenantId = await tenantWith('ledgerly');
    const d = await createDocument({ documents: documentStore(db), clock: systemClock }, actor, tenantId, {
      document_type: 'invoice',
      number: 'INV-BY-ID',
      counterparty: 'Acme',
      currency: 'EUR',
      amount: '10.00',
      issued_on: '2026-11-01',
    });
    const e = await exported(tenantId, { documents: [{ document_id: d.id }, ...docs(['INV-FREE'])] });
    const kept = await stored(tenantId, e.id);
    expect(kept.documents[0]).toEqual({
      document_type: 'invoice',
      number: 'INV-BY-ID',
      counterparty: 'Acme',
      currency: 'EUR',
      amount: '10.00',
      issued_on: '2026-11-01',
      lines: [],
      document_id: d.id,
    });
    expect(kept.items.map((i) => i.document_ref)).toEqual([d.id, 'INV-FREE']);
    expect(e).not.toHaveProperty('documents');
    expect(e).not.toHaveProperty('fingerprint');
    expect(await getExport(deps, tenantId, e.id)).toEqual(e);
    await expect(getExport(deps, tenantId, newId())).rejects.toBeInstanceOf(NotFoundError);
    expect(await auditOf(tenantId, e.id, 'accounting_export.queued')).toMatchObject({
      actor_id: actor.user_id,
      summary: `accounting export ${e.export_batch_id} of 2 documents queued`,
      metadata: { export_batch_id: e.export_batch_id, document_count: 2 },
    });
  });

  it('a void document, or a connection that is not an accounting one of the tenant, is 422 with its path', async () => {
    const tenantId = await tenantWith('ledgerly');
    const documentDeps = { documents: documentStore(db), zones: tenantZones(db), clock: systemClock };
    const d = await createDocument(documentDeps, actor, tenantId, {
      document_type: 'invoice',
      number: `INV-${newId().slice(-12)}`,
      counterparty: 'Acme',
      currency: 'EUR',
      amount: '10.00',
      issued_on: '2026-11-01',
    });
    const body = { export_batch_id: `B-${newId()}`, documents: [{ document_id: d.id }] };
    const first = await createExport(deps, actor, tenantId, body);
    await changeDocumentStatus(documentDeps, actor, tenantId, d.id, { status: 'void' });
    // The same request again is the export it made, though the document is void now.
    expect(await createExport(deps, actor, tenantId, body)).toEqual({ created: false, export: first.export });
    const err = await createExport(deps, actor, tenantId, {
      export_batch_id: `B-${newId()}`,
      integration_connection_id: newId(),
      documents: [{ document_id: d.id }],
    }).catch((x: unknown) => x);
    expect((err as ValidationError).errors).toEqual([
      { path: 'documents.0.document_id', code: 'document_void', message: 'a void document is not exported' },
      {
        path: 'integration_connection_id',
        code: 'not_found',
        message: 'no accounting connection with this id in this tenant',
      },
    ]);
  });
});
