import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { logger, metricsFor } from '#functions/observability';
import { notificationHandlers } from '#functions/workers/notifications';
import { createQueueWorker } from '#functions/workers/queue-worker';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { Notification, SendResult } from '#shared/domain/notifications/ports';
import { createNotification, deliveryRequested } from '#shared/domain/notifications/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { type Clock, newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { connectChannel } from '#tests/support/connections';
import { principal } from '#tests/support/fixtures';

/**
 * The queue worker (functions/workers/queue-worker.ts) with the notification kind
 * (functions/workers/notifications.ts) over DynamoDB Local: a message reaches its kind's handler
 * only when its kind and payload are what the event manifest declares, and each outcome of a delivery becomes the right batch answer (a record that must come back fails
 * alone), the right visibility change (the backoff, or 0 to reach the DLQ), and its metrics and
 * log line. SQS itself is aws-sdk-client-mock: it records the visibility changes.
 */

const sqsMock = mockClient(SQSClient);
// A class-wide mock: restored so that it cannot reach the next file of a shared worker
// (vitest.mutate.config.ts runs files without isolation).
afterAll(() => sqsMock.restore());
const QUEUE = 'https://sqs.local/external';
const MAX_ATTEMPTS = 3;
const secrets = localConnectionSecrets(undefined);
let db: Db;
let store: ReturnType<typeof notificationStore>;

beforeAll(async () => {
  ({ db } = await freshDb());
  store = notificationStore(db);
});
afterEach(() => {
  sqsMock.reset();
  vi.restoreAllMocks();
});

const worker = (send: (n: Notification) => Promise<SendResult>) =>
  createQueueWorker('external', {
    ...notificationHandlers(
      'external',
      {
        store,
        connections: activeConnectionReader(connectionStore(db), secrets),
        results: connectionResults(db),
        providers: { send },
        clock: systemClock,
        maxAttempts: MAX_ATTEMPTS,
        backoff: { baseSeconds: 8, capSeconds: 8 },
        leaseSeconds: 60,
      },
      {
        sqs: new SQSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
        queueUrl: QUEUE,
      },
    ),
    [EVENT_KINDS.accountingExportRequested]: async () => {
      throw new Error('no accounting export in these tests');
    },
    [EVENT_KINDS.webhookDeliveryRequested]: async () => {
      throw new Error('no webhook message in these tests');
    },
  });

const queued = async (telegram: 'active' | 'unconnected' = 'active', clock: Clock = systemClock) => {
  const tenantId = `t-${newId().slice(-10)}`;
  if (telegram === 'active')
    await connectChannel(db, tenantId, 'telegram', {
      secret: { store: secrets, value: { bot_token: '1:x' } },
    });
  const n = await createNotification(
    { notifications: store, clock, allowLoopback: false },
    principal('op'),
    tenantId,
    { channel: 'telegram', recipient: '4242', body: 'Stock is low' },
  );
  return { tenantId, n, event: deliveryRequested(systemClock, n) };
};

const record = (body: OutboxEvent | string, receiveCount = 1, id = newId()): SQSRecord =>
  ({
    messageId: id,
    receiptHandle: `rh-${id}`,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:external',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;

/** Runs one batch; answers the failed message ids, the metric names added and the log lines. */
const run = async (handler: ReturnType<typeof worker>, records: SQSRecord[]) => {
  sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
  const metrics = metricsFor('worker-external');
  const added = vi.spyOn(metrics, 'addMetric');
  added.mockClear();
  vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => metrics);
  const lines: [string, Record<string, unknown>][] = [];
  for (const level of ['info', 'warn', 'error'] as const)
    vi.spyOn(logger, level).mockImplementation(((m: string, f: Record<string, unknown>) => {
      lines.push([level, { message: m, ...f }]);
    }) as never);
  const out = await handler({ Records: records } as SQSEvent, {} as Context);
  return {
    failed: out.batchItemFailures.map((f) => f.itemIdentifier),
    metrics: added.mock.calls.map(([name]) => name),
    values: added.mock.calls.map(([name, , value]) => [name, value]),
    lines,
    visibility: sqsMock
      .commandCalls(ChangeMessageVisibilityCommand)
      .map((c) => [c.args[0].input.ReceiptHandle, c.args[0].input.VisibilityTimeout]),
  };
};

describe('the delivery worker', () => {
  it('delivered: the record succeeds, counted with its latency, logged with the notification', async () => {
    const { tenantId, n, event } = await queued();
    const r = await run(
      worker(async () => ({ ok: true })),
      [record(event)],
    );
    expect(r.failed).toEqual([]);
    expect(r.visibility).toEqual([]);
    expect(r.metrics).toEqual([METRICS.notificationDelivered, METRICS.notificationDeliveryLatency]);
    const line = r.lines.find(([, f]) => f.event === LOG_EVENTS.notificationDelivered)!;
    expect(line[1]).toMatchObject({
      tenant_id: tenantId,
      notification_id: n.id,
      channel: 'telegram',
      attempt: 1,
      receive_count: 1,
    });
    expect((await store.get(tenantId, n.id))?.status).toBe('delivered');

    // The same message again: a duplicate, acknowledged, sent once.
    const again = await run(
      worker(async () => {
        throw new Error('must not send');
      }),
      [record(event, 2)],
    );
    expect(again.failed).toEqual([]);
    expect(again.metrics).toEqual([METRICS.notificationDuplicate]);
  });

  it('a transient failure before the last attempt: the record fails alone and comes back after the backoff', async () => {
    const a = await queued();
    const b = await queued();
    const failing = record(a.event, 1);
    // The backoff's jitter at its top: the whole 8 s of this policy.
    vi.spyOn(Math, 'random').mockReturnValue(0.999);
    const r = await run(
      worker(async (n) =>
        n.id === a.n.id ? { ok: false, kind: 'transient', reason: 'http_503' } : { ok: true },
      ),
      [failing, record(b.event)],
    );
    expect(r.failed).toEqual([failing.messageId]);
    expect(r.visibility).toEqual([[failing.receiptHandle, 8]]);
    expect(r.metrics).toEqual(
      expect.arrayContaining([METRICS.notificationRetried, METRICS.notificationDelivered]),
    );
    expect(r.lines.find(([, f]) => f.event === LOG_EVENTS.notificationRetry)![1]).toMatchObject({
      reason: 'http_503',
      delay_s: 8,
      notification_id: a.n.id,
    });
    expect((await store.get(a.tenantId, a.n.id))?.status).toBe('retrying');
    expect(r.metrics).not.toContain(METRICS.workerFailed);
  });

  it('a transient failure on the last attempt: dead-lettered, visible at once so SQS moves it to the DLQ', async () => {
    const { tenantId, n, event } = await queued();
    const last = record(event, MAX_ATTEMPTS);
    const r = await run(
      worker(async () => ({ ok: false, kind: 'transient', reason: 'timeout' })),
      [last],
    );
    expect(r.failed).toEqual([last.messageId]);
    expect(r.visibility).toEqual([[last.receiptHandle, 0]]);
    expect(r.metrics).toEqual([METRICS.notificationDeadLettered, METRICS.reviewItemOpened]);
    expect(r.lines.find(([, f]) => f.event === LOG_EVENTS.notificationDeadLettered)![0]).toBe('error');
    const stored = await store.get(tenantId, n.id);
    expect(stored?.status).toBe('dead_lettered');
    expect(stored?.review_item_id).toBeTruthy();
  });

  it('a permanent failure and a closed gate are acknowledged with a review item, never retried', async () => {
    const permanent = await queued();
    const p = await run(
      worker(async () => ({ ok: false, kind: 'permanent', reason: 'http_400' })),
      [record(permanent.event)],
    );
    expect(p.failed).toEqual([]);
    expect(p.visibility).toEqual([]);
    expect(p.metrics).toEqual([METRICS.notificationDeadLettered, METRICS.reviewItemOpened]);

    const gated = await queued('unconnected');
    const g = await run(
      worker(async () => ({ ok: true })),
      [record(gated.event)],
    );
    expect(g.failed).toEqual([]);
    expect(g.metrics).toEqual([METRICS.notificationGated, METRICS.reviewItemOpened]);
    expect(g.lines.find(([, f]) => f.event === LOG_EVENTS.notificationGated)![1].gate).toBeTruthy();
    expect((await store.get(gated.tenantId, gated.n.id))?.status).toBe('gated');
  });

  it('a message that is not JSON, of an unknown kind, with a payload its kind does not declare, or about a missing notification', async () => {
    const unknownKind = { ...(await queued()).event, kind: 'no.such.kind' };
    const garbled = record('{not json');
    const unknown = record(unknownKind);
    const numericKind = record(JSON.stringify({ kind: 42 }));
    const sent = await queued();
    const noId = record({ ...sent.event, payload: { channel: 'telegram' } });
    const noPayload = record({ ...sent.event, payload: null } as unknown as OutboxEvent);
    const missing = record({
      ...(await queued()).event,
      payload: { notification_id: 'gone', channel: 'telegram' },
    });
    const r = await run(
      worker(async () => ({ ok: true })),
      [garbled, unknown, missing, numericKind, noId, noPayload],
    );
    // The missing notification is acknowledged (skipped); the others fail alone, each counted
    // and logged, so a poison message is seen before it reaches the DLQ.
    expect(r.failed.sort()).toEqual(
      [garbled, unknown, numericKind, noId, noPayload].map((m) => m.messageId).sort(),
    );
    expect(r.metrics.filter((m) => m === METRICS.workerFailed)).toHaveLength(5);
    const failedLines = r.lines.filter(([, f]) => f.event === LOG_EVENTS.workerRecordFailed);
    // The log says what was wrong with each, and logs a kind only when it is text.
    expect(
      failedLines.map(([level, f]) => [level, f.message_id, f.kind, (f.error as Error).message]).sort(),
    ).toEqual(
      [
        ['error', garbled.messageId, null, 'unparseable message body'],
        ['error', unknown.messageId, 'no.such.kind', 'no handler for kind no.such.kind'],
        ['error', numericKind.messageId, null, 'no handler for kind 42'],
        [
          'error',
          noId.messageId,
          EVENT_KINDS.notificationDeliveryRequested,
          'invalid notification.delivery.requested message: payload field notification_id is not a string',
        ],
        [
          'error',
          noPayload.messageId,
          EVENT_KINDS.notificationDeliveryRequested,
          'invalid notification.delivery.requested message: payload is not an object',
        ],
      ].sort(),
    );
    // The missing notification: skipped, not counted, logged with the ids the message named.
    expect(r.lines.find(([, f]) => f.message === 'delivery skipped')).toEqual([
      'info',
      expect.objectContaining({
        event: LOG_EVENTS.notificationDuplicate,
        notification_id: 'gone',
        channel: 'telegram',
        attempt: null,
        reason: 'not_found',
      }),
    ]);
  });
});

describe('what the worker tells operators', () => {
  it('the delivery latency metric is the time since the notification was queued, as logged', async () => {
    const fiveSecondsAgo: Clock = { now: () => new Date(Date.now() - 5_000) };
    const { event } = await queued('active', fiveSecondsAgo);
    const r = await run(
      worker(async () => ({ ok: true })),
      [record(event)],
    );
    const [, latency] = r.values.find(([name]) => name === METRICS.notificationDeliveryLatency)!;
    expect(latency).toBeGreaterThanOrEqual(5_000);
    expect(r.lines.find(([, f]) => f.event === LOG_EVENTS.notificationDelivered)![1].latency_ms).toBe(
      latency,
    );
  });

  it('a duplicate and a permanent failure are logged with the notification and the reason', async () => {
    const { n, event } = await queued();
    await run(
      worker(async () => ({ ok: true })),
      [record(event)],
    );
    const dup = await run(
      worker(async () => ({ ok: true })),
      [record(event, 2)],
    );
    expect(dup.lines.find(([, f]) => f.event === LOG_EVENTS.notificationDuplicate)![1]).toMatchObject({
      notification_id: n.id,
      receive_count: 2,
    });

    const refused = await queued();
    const p = await run(
      worker(async () => ({ ok: false, kind: 'permanent', reason: 'http_400' })),
      [record(refused.event)],
    );
    expect(p.lines.find(([, f]) => f.event === LOG_EVENTS.notificationPermanentFailure)).toEqual([
      'warn',
      expect.objectContaining({ notification_id: refused.n.id, reason: 'http_400', attempt: 1 }),
    ]);
  });

  it('an error thrown in the provider path is retried, and the log carries the error; a provider answer carries none', async () => {
    const thrown = await queued();
    const answered = await queued();
    const ssm = new Error('SSM GetParameter timed out');
    const r = await run(
      worker(async (n) => {
        if (n.id === thrown.n.id) throw ssm;
        return { ok: false, kind: 'transient', reason: 'http_503' };
      }),
      [record(thrown.event), record(answered.event)],
    );
    expect(r.failed).toHaveLength(2);
    const retryOf = (id: string) =>
      r.lines.find(([, f]) => f.event === LOG_EVENTS.notificationRetry && f.notification_id === id)![1];
    expect(retryOf(thrown.n.id)).toMatchObject({ reason: 'provider_error', error: ssm });
    expect(retryOf(answered.n.id)).toMatchObject({ reason: 'http_503' });
    expect(Object.keys(retryOf(answered.n.id))).not.toContain('error');
    expect(r.metrics.filter((m) => m === METRICS.notificationRetried)).toHaveLength(2);
  });

  it('exactly once at the claim: a message received while another worker is sending it comes back after the lease, sends nothing and counts no retry', async () => {
    const { tenantId, n, event } = await queued();
    const second = record(event, 1);
    let sends = 0;
    let inner: SQSBatchResponse | undefined;
    // The second receive of the same message arrives while the first is inside the send.
    const handler: ReturnType<typeof worker> = worker(async () => {
      sends++;
      inner = await handler({ Records: [second] } as SQSEvent, {} as Context);
      return { ok: true };
    });
    const first = record(event, 1);
    const r = await run(handler, [first]);

    expect(sends).toBe(1);
    expect(r.failed).toEqual([]);
    expect(inner!.batchItemFailures).toEqual([{ itemIdentifier: second.messageId }]);
    expect(r.visibility).toEqual([[second.receiptHandle, 60]]);
    expect(r.metrics).toEqual([METRICS.notificationDelivered, METRICS.notificationDeliveryLatency]);
    expect(r.lines.find(([, f]) => f.event === LOG_EVENTS.notificationRetry)![1]).toMatchObject({
      reason: 'busy',
      delay_s: 60,
      notification_id: n.id,
    });
    expect((await store.get(tenantId, n.id))?.status).toBe('delivered');
  });
});
