import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { loadConfig } from '#functions/config';
import { metricsFor } from '#functions/observability';
import { accountingHandlers } from '#functions/workers/accounting';
import { RetryLater } from '#functions/workers/queue-worker';
import { exportRequested } from '#shared/domain/accounting/events';
import type { ExportRunDeps } from '#shared/domain/accounting/export-run';
import { type AccountingDeps, createExport } from '#shared/domain/accounting/use-cases';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { ProviderSandbox } from '#local/provider-sandbox';
import { connectAccounting } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { movedClock, pacedBy } from '#tests/support/moved-clock';
import { principal } from '#tests/support/fixtures';
import { captureLogLines } from '#tests/support/logs';

/**
 * The external worker's accounting export kind (functions/workers/accounting.ts) over DynamoDB
 * Local and the loopback sandbox's Tallybook: each outcome of a run becomes the right record
 * answer (a message that must come back fails with RetryLater), the right visibility change
 * (the backoff, or 0 so the last attempt reaches the DLQ), and the metrics and log line the
 * alarms and operators read. SQS is aws-sdk-client-mock: it records the visibility changes.
 */

const sqsMock = mockClient(SQSClient);
// A class-wide mock: restored so that it cannot reach the next file of a shared worker
// (vitest.mutate.config.ts runs files without isolation).
afterAll(() => sqsMock.restore());
const QUEUE = 'https://sqs.local/external';
const MAX_ATTEMPTS = 3;
const secrets = connectionSecretsFor({ store: 'memory', kmsKeyId: undefined });
const actor = principal('acct-1');
let db: Db;
let sandbox: ProviderSandbox;
let api: AccountingDeps;
let worker: ExportRunDeps;

beforeAll(async () => {
  ({ db } = await freshDb());
  sandbox = new ProviderSandbox();
  const url = await sandbox.listen();
  api = {
    exports: accountingStore(db),
    documents: documentStore(db),
    connections: connectionStore(db),
    clock: systemClock,
  };
  worker = {
    exports: api.exports,
    connections: activeConnectionReader(connectionStore(db), secrets),
    results: connectionResults(db),
    // A generous timeout: this file is about the worker's answers, not the target's latency.
    targets: accountingTargets(
      loadConfig({ OPS_TALLYBOOK_API_URL: `${url}/tallybook`, OPS_PROVIDER_TIMEOUT_MS: '5000' }).providers,
    ),
    ...pacedBy(movedClock()),
    maxAttempts: MAX_ATTEMPTS,
    backoff: { baseSeconds: 8, capSeconds: 8 },
    leaseSeconds: 60,
    queueSecondMs: 1000,
  };
});
afterAll(async () => {
  await sandbox.stop();
});
afterEach(() => {
  sqsMock.reset();
  vi.restoreAllMocks();
});

/** A tenant with an active Tallybook connection (and its key), or none. */
async function tenant(connected = true) {
  const tenantId = `t-${newId().slice(-10)}`;
  if (connected) await connectAccounting(db, secrets, tenantId, 'tallybook');
  return tenantId;
}

/** An export of one free-form document, and the message the worker receives for it. */
async function queuedExport(tenantId: string, simulate?: 'retryable' | 'permanent') {
  const { export: e } = await createExport(api, actor, tenantId, {
    export_batch_id: `B-${newId()}`,
    documents: [
      { number: `INV-${newId().slice(-12)}`, amount: '120.00', currency: 'EUR', counterparty: 'Acme' },
    ],
    ...(simulate ? { simulate_failure: simulate } : {}),
  } as Parameters<typeof createExport>[3]);
  return { e, event: exportRequested(systemClock, e) };
}

const record = (receiveCount?: number): SQSRecord =>
  ({
    messageId: newId(),
    receiptHandle: `rh-${newId()}`,
    attributes: receiveCount === undefined ? {} : { ApproximateReceiveCount: String(receiveCount) },
  }) as unknown as SQSRecord;

/** Runs the handler on one record: whether it must come back, the metrics, the log lines and the visibility changes. */
async function run(event: ReturnType<typeof exportRequested>, r: SQSRecord, deps = worker) {
  sqsMock.resetHistory();
  sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
  const metrics = metricsFor('worker-external');
  const added = vi.spyOn(metrics, 'addMetric');
  added.mockClear();
  const lines = captureLogLines();
  const handle = accountingHandlers(deps, new SQSClient({ region: 'us-east-1' }), QUEUE)[
    EVENT_KINDS.accountingExportRequested
  ]!;
  const thrown = await handle(event, r).then(
    () => undefined,
    (err: unknown) => err,
  );
  return {
    retryLater: thrown instanceof RetryLater ? thrown.message : thrown,
    metrics: added.mock.calls.map(([name]) => name),
    lines,
    visibility: sqsMock
      .commandCalls(ChangeMessageVisibilityCommand)
      .map((c) => [
        c.args[0].input.QueueUrl,
        c.args[0].input.ReceiptHandle,
        c.args[0].input.VisibilityTimeout,
      ]),
  };
}

describe('the accounting export worker', () => {
  it('exported: acknowledged, counted, logged with the export and its attempt; a redelivery is skipped and counts nothing', async () => {
    const tenantId = await tenant();
    const { e, event } = await queuedExport(tenantId);
    const r = await run(event, record());
    expect(r).toMatchObject({ retryLater: undefined, metrics: [METRICS.accountingExported], visibility: [] });
    expect(r.lines).toEqual([
      {
        level: 'info',
        message: 'accounting export exported',
        event: LOG_EVENTS.accountingExportRun,
        tenant_id: tenantId,
        export_id: e.id,
        result: 'exported',
        status: 'exported',
        attempt: 1,
        receive_count: 1,
        reason: undefined,
      },
    ]);

    const again = await run(event, record(2));
    expect(again).toMatchObject({ retryLater: undefined, metrics: [], visibility: [] });
    expect(again.lines).toEqual([
      expect.objectContaining({
        level: 'info',
        message: 'accounting export message skipped',
        result: 'duplicate',
        receive_count: 2,
      }),
    ]);
  });

  it('a message about no export is skipped with the id it named', async () => {
    const tenantId = await tenant();
    const { event } = await queuedExport(tenantId);
    const r = await run({ ...event, payload: { export_id: 'gone' } }, record(1));
    expect(r).toMatchObject({ retryLater: undefined, metrics: [], visibility: [] });
    expect(r.lines[0]).toMatchObject({ result: 'skipped', export_id: 'gone', attempt: null });
  });

  it('a retryable failure: comes back after the backoff, counted as a retry', async () => {
    const tenantId = await tenant();
    const { e, event } = await queuedExport(tenantId, 'retryable');
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const r = await run(event, record(1));
    expect(r.retryLater).toBe('retrying');
    expect(r.metrics).toEqual([METRICS.accountingExportRetried]);
    expect(r.visibility).toEqual([[QUEUE, expect.stringMatching(/^rh-/), 8]]);
    expect(r.lines).toEqual([
      expect.objectContaining({ level: 'warn', export_id: e.id, result: 'retrying', delay_s: 8 }),
    ]);
  });

  it('a permanent failure: acknowledged with a review item, never retried', async () => {
    const tenantId = await tenant();
    const { event } = await queuedExport(tenantId, 'permanent');
    const r = await run(event, record(1));
    expect(r).toMatchObject({
      retryLater: undefined,
      metrics: [METRICS.accountingExportFailed, METRICS.reviewItemOpened],
      visibility: [],
    });
    expect(r.lines).toEqual([
      expect.objectContaining({ level: 'error', message: 'accounting export failed', result: 'failed' }),
    ]);
  });

  it('the last attempt: marked failed with a review item, then visible at once so SQS moves it to the DLQ', async () => {
    const tenantId = await tenant();
    const { event } = await queuedExport(tenantId);
    sandbox.accounting.script('tallybook', [{ status: 503 }]);
    const last = record(MAX_ATTEMPTS);
    const r = await run(event, last);
    expect(r.retryLater).toBe('dead_lettered');
    expect(r.metrics).toEqual([METRICS.accountingExportFailed, METRICS.reviewItemOpened]);
    expect(r.visibility).toEqual([[QUEUE, last.receiptHandle, 0]]);
  });

  it('no accounting connection: gated with a review item, acknowledged', async () => {
    const tenantId = await tenant(false);
    const { event } = await queuedExport(tenantId);
    const r = await run(event, record(1));
    expect(r).toMatchObject({
      retryLater: undefined,
      metrics: [METRICS.accountingExportGated, METRICS.reviewItemOpened],
      visibility: [],
    });
    expect(r.lines).toEqual([expect.objectContaining({ level: 'warn', result: 'gated' })]);
  });
  it("a duplicate of the message before a 429's Retry-After comes back at the retry time, sending nothing; at that time it books (docs/api.md section 9.2)", async () => {
    const tenantId = await tenant();
    const { e, event } = await queuedExport(tenantId);
    const number = e.items[0]!.document_ref;
    const sent = () =>
      sandbox.accounting.calls.filter((c) => c.target === 'tallybook' && c.method === 'POST');
    // Retry-After 30 s: longer than the 8 s backoff, so it is the retry time.
    sandbox.accounting.script('tallybook', [{ status: 429, retryAfter: 30 }]);
    // Frozen clocks: on a loaded machine a moving one passed the retry time between steps.
    const at = (ms: number): ExportRunDeps => ({ ...worker, clock: { now: () => new Date(ms) } });
    const start = at(Date.now());
    const limited = await run(event, record(1), start);
    expect(limited.retryLater).toBe('retrying');
    expect(limited.visibility).toEqual([[QUEUE, expect.stringMatching(/^rh-/), 30]]);
    const retrying = (await api.exports.get(tenantId, e.id))!;
    expect(retrying.status).toBe('retrying');
    const retryAt = Date.parse(retrying.lease_until!);
    const calls = sent().length;

    // The duplicate at once, and another half a second before the retry time: each comes back
    // when the retry time is due (a record failure, not an acknowledgement), calls nothing, and is
    // neither an attempt nor a retry nor a review item.
    for (const [copy, deps, seconds] of [
      [record(1), start, [30]],
      [record(2), at(retryAt - 500), [1]],
    ] as const) {
      const early = await run(event, copy, deps);
      expect(early.retryLater).toBe('busy');
      expect(early.metrics).toEqual([]);
      expect(early.visibility).toHaveLength(1);
      expect(early.visibility[0]![1]).toBe(copy.receiptHandle);
      expect(seconds).toContain(early.visibility[0]![2]);
      expect(early.lines).toEqual([
        expect.objectContaining({ level: 'warn', result: 'busy', reason: 'not_due', status: undefined }),
      ]);
      expect(sent()).toHaveLength(calls);
      expect(await api.exports.get(tenantId, e.id)).toMatchObject({
        status: 'retrying',
        review_item_id: null,
        attempts: [expect.objectContaining({ error_code: 'rate_limited' })],
      });
    }

    // At the retry time the message runs: one call, booked once.
    const due = await run(event, record(2), at(retryAt + 1));
    expect(due).toMatchObject({ retryLater: undefined, metrics: [METRICS.accountingExported] });
    expect(sent()).toHaveLength(calls + 1);
    expect(sandbox.accounting.bookingCount('tallybook', number)).toBe(1);
    expect((await api.exports.get(tenantId, e.id))!.status).toBe('exported');
  });
});
