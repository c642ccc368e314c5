import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Context, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { notificationStore } from '#functions/adapters/notification-store';
import { ensureTable } from '#local/dynamodb-local';
import { LocalQueues, type WorkerHandler } from '#local/queues';
import { type RelayHandler, startStreamPoller } from '#local/stream-poller';
import type { Notification } from '#shared/domain/notifications/ports';
import { createNotification } from '#shared/domain/notifications/use-cases';
import { systemClock } from '#shared/kernel/ids';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { recordCalls } from './capture';
import { ceilingShares, transactionCeiling } from './ceiling';
import { dynamoPerEvent, roundTrips, sqsOf, stats, transactionsPerEvent } from './delivery-stats';
import { loadHandler } from './measure';
import { context } from './requests';
import { dbFor, type Fixture, lambdaEnv, seed } from './scenario';

/**
 * The delivery pipeline, end to end on one machine: notifications written through the domain
 * (policy check + notification, audit and outbox item in one TransactWriteItems) into a fresh
 * table on DynamoDB Local; its real stream read by the local stream poller (local/stream-poller.ts)
 * feeding the *bundled* relay; the relay's SQS client pointed at the in-process queues' loopback
 * endpoint (local/queues.ts); the *bundled* internal worker consuming them. Nothing is mocked.
 *
 * Two phases over the same warm pipeline:
 * - live: writers add notifications while the pipeline runs; per-event latency is the time from
 *   the committed outbox write to the worker's batch returning with that record done.
 * - backlog: the relay is held while the same number of notifications is written, then released;
 *   events/s is the drain rate of relay + queue + worker with full stream batches.
 * SQS calls are counted on the wire (bench/lib/capture.ts): SendMessageBatch calls vs entries.
 */

export interface DeliveryOptions {
  endpoint: string;
  fx: Pick<Fixture, 'cursorSecret'>;
  built: { name: string; kind: string; file: string }[];
}

const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 300);
const WRITERS = Number(process.env.BENCH_DELIVERY_WRITERS ?? 4);
const WARMUP = 10;
const PHASE_TIMEOUT_MS = Number(process.env.BENCH_DELIVERY_TIMEOUT_MS ?? 90_000);

const requireHere = createRequire(import.meta.url);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A function's bundle loaded afresh, as a new Lambda container would: the run has already
 * required it once with another environment, and its module-scope SDK clients and memoised
 * configuration must see this one.
 */
const freshHandler = (file: string) => {
  delete requireHere.cache[requireHere.resolve(file)];
  return loadHandler(file);
};

export async function measureDelivery(options: DeliveryOptions): Promise<Record<string, unknown>> {
  const relayFile = options.built.find((b) => b.kind === 'relay')?.file;
  const workerFile = options.built.find((b) => b.name === 'worker-internal')?.file;
  if (!relayFile || !workerFile) return { status: 'not measured: relay or worker-internal bundle missing' };
  const log = (msg: string) => process.stderr.write(`[bench delivery] ${msg}\n`);

  // A table of its own: the API measurements already left outbox items in theirs.
  const tableName = `bench-delivery-${randomBytes(3).toString('hex')}`;
  await ensureTable(options.endpoint, tableName);
  const fx = await seed(options.endpoint, tableName, { exceptions: 0 });
  const queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: 5, msPerSecond: 1000 });
  await queues.listen();
  queues.create(QUEUES.internal, dlqName(QUEUES.internal));
  queues.create(QUEUES.external, dlqName(QUEUES.external));

  const env: Record<string, string> = {
    ...lambdaEnv('delivery', options.endpoint, fx),
    AWS_ENDPOINT_URL_SQS: queues.endpoint,
    INTERNAL_QUEUE_URL: queues.url(QUEUES.internal),
    EXTERNAL_QUEUE_URL: queues.url(QUEUES.external),
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  // Handlers log a line and flush EMF metrics per record, as in the cloud: keep the cost, drop the text.
  const realWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;

  const relay = freshHandler(relayFile) as unknown as RelayHandler;
  const worker = freshHandler(workerFile) as unknown as WorkerHandler;
  const db = dbFor(options.endpoint, tableName, fx.cursorSecret);
  const deps = { notifications: notificationStore(db), clock: systemClock, allowLoopback: false };

  // Per notification: committed (writer), polled (the stream poller handed it to the relay, so
  // written -> polled is DynamoDB Local's stream latency plus the poll), relayed (relay returned it
  // unfailed), done (worker).
  const written = new Map<string, number>();
  const polled = new Map<string, number>();
  const relayed = new Map<string, number>();
  const done = new Map<string, number>();
  const relayBatches: number[] = [];
  const relayMs: number[] = [];
  const workerMs: number[] = [];
  let hold: Promise<void> | undefined;

  const idOf = (r: DynamoDBStreamEvent['Records'][number]) =>
    r.dynamodb?.NewImage?.payload?.M?.notification_id?.S;
  const relayTimed: RelayHandler = async (event: DynamoDBStreamEvent, ctx: Context) => {
    const seen = performance.now();
    for (const r of event.Records) {
      const id = idOf(r);
      if (id && !polled.has(id)) polled.set(id, seen);
    }
    if (hold) await hold;
    const t0 = performance.now();
    const out = await relay(event, ctx);
    const t = performance.now();
    relayBatches.push(event.Records.length);
    relayMs.push(t - t0);
    const failed = new Set((out?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    for (const r of event.Records) {
      if (failed.has(r.dynamodb?.SequenceNumber ?? '')) continue;
      const id = idOf(r);
      if (id) relayed.set(id, t);
    }
    return out;
  };
  const workerTimed: WorkerHandler = async (event: SQSEvent, ctx: Context) => {
    const t0 = performance.now();
    const out = await worker(event, ctx);
    const t = performance.now();
    workerMs.push(t - t0);
    const failed = new Set((out?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
    for (const r of event.Records) {
      if (failed.has(r.messageId)) continue;
      const id = (JSON.parse(r.body) as { payload?: { notification_id?: string } }).payload?.notification_id;
      if (id) done.set(id, t);
    }
    return out;
  };

  const notify = async () => {
    const n: Notification = await createNotification(deps, fx.principal, fx.tenantId, {
      channel: 'in_app',
      recipient: fx.principal.user_id,
      subject: 'Bench',
      body: 'An exception needs your attention.',
    });
    written.set(n.id, performance.now());
    return n.id;
  };
  const writeMany = async (count: number) => {
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(WRITERS, count) }, async () => {
        while (next < count) {
          next++;
          ids.push(await notify());
        }
      }),
    );
    return ids;
  };
  const until = async (ids: string[], since: number) => {
    while (ids.some((id) => !done.has(id))) {
      if (performance.now() - since > PHASE_TIMEOUT_MS)
        throw new Error(`delivery: ${ids.filter((id) => !done.has(id)).length} events not done in time`);
      await sleep(5);
    }
    return Math.max(...ids.map((id) => done.get(id)!));
  };
  const statuses = async (ids: string[]) => {
    const out: Record<string, number> = {};
    for (let i = 0; i < ids.length; i += 25) {
      const found = await Promise.all(
        ids.slice(i, i + 25).map((id) => deps.notifications.get(fx.tenantId, id)),
      );
      for (const n of found) out[n?.status ?? 'missing'] = (out[n?.status ?? 'missing'] ?? 0) + 1;
    }
    return out;
  };

  log(`engine ceiling: TransactWriteItems/s with ${WRITERS} writers, before the pipeline`);
  const ceilingBefore = await transactionCeiling(options.endpoint, WRITERS);
  const recorder = recordCalls();
  const poller = await startStreamPoller({
    endpoint: options.endpoint,
    tableName,
    handler: relayTimed,
    context: () => context('relay'),
  });
  queues.consume(QUEUES.internal, workerTimed, () => context('worker-internal'));
  try {
    log(`warm-up: ${WARMUP} events`);
    await until(await writeMany(WARMUP), performance.now());

    log(`live: ${EVENTS} events, ${WRITERS} concurrent writers`);
    const reset = () => {
      recorder.take();
      relayBatches.length = 0;
      relayMs.length = 0;
      workerMs.length = 0;
    };
    reset();
    const liveStart = performance.now();
    const liveIds = await writeMany(EVENTS);
    const liveWritten = performance.now();
    const liveEnd = await until(liveIds, liveStart);
    const liveCalls = recorder.take();
    const liveRelayBatches = [...relayBatches];
    const live = {
      events: EVENTS,
      writers: WRITERS,
      seconds: round((liveEnd - liveStart) / 1000, 3),
      writeSeconds: round((liveWritten - liveStart) / 1000, 3),
      eventsPerSecond: round(EVENTS / ((liveEnd - liveStart) / 1000), 1),
      latencyMs: stats(liveIds.map((id) => done.get(id)! - written.get(id)!)),
      writeToPolledMs: stats(liveIds.map((id) => polled.get(id)! - written.get(id)!)),
      polledToRelayedMs: stats(liveIds.map((id) => relayed.get(id)! - polled.get(id)!)),
      writeToRelayedMs: stats(liveIds.map((id) => relayed.get(id)! - written.get(id)!)),
      relayedToDoneMs: stats(liveIds.map((id) => done.get(id)! - relayed.get(id)!)),
      relayInvocations: liveRelayBatches.length,
      meanStreamBatch: round(EVENTS / Math.max(1, liveRelayBatches.length), 1),
      relayInvocationMs: stats(relayMs),
      workerBatchMs: stats(workerMs),
      workerInvocations: workerMs.length,
      sqs: sqsOf(liveCalls, EVENTS),
      transactionsPerEvent: transactionsPerEvent(liveCalls, EVENTS),
      dynamoCallsPerEvent: dynamoPerEvent(liveCalls, EVENTS),
      dynamoRoundTripMs: roundTrips(liveCalls),
      statuses: await statuses(liveIds),
    };

    log(`backlog: ${EVENTS} events written with the relay held, then drained`);
    let release!: () => void;
    hold = new Promise<void>((r) => {
      release = r;
    });
    const backlogIds = await writeMany(EVENTS);
    // Let the poller see the whole backlog on the stream before releasing the relay.
    await sleep(200);
    reset();
    const drainStart = performance.now();
    hold = undefined;
    release();
    const drainEnd = await until(backlogIds, drainStart);
    const backlogCalls = recorder.take();
    const backlog = {
      events: EVENTS,
      seconds: round((drainEnd - drainStart) / 1000, 3),
      eventsPerSecond: round(EVENTS / ((drainEnd - drainStart) / 1000), 1),
      relayInvocations: relayBatches.length,
      meanStreamBatch: round(EVENTS / Math.max(1, relayBatches.length), 1),
      relayInvocationMs: stats(relayMs),
      workerBatchMs: stats(workerMs),
      workerInvocations: workerMs.length,
      sqs: sqsOf(backlogCalls, EVENTS),
      transactionsPerEvent: transactionsPerEvent(backlogCalls, EVENTS),
      dynamoCallsPerEvent: dynamoPerEvent(backlogCalls, EVENTS),
      statuses: await statuses(backlogIds),
    };

    const left = Object.fromEntries([...queues.queues].map(([name, q]) => [name, q.size]));
    log('engine ceiling again, after the pipeline');
    const ceiling = ceilingShares(
      ceilingBefore,
      await transactionCeiling(options.endpoint, WRITERS),
      live,
      backlog,
    );
    const result = {
      summary:
        `live ${live.eventsPerSecond} events/s, end-to-end p50 ${live.latencyMs.p50} ms p99 ${live.latencyMs.p99} ms, ` +
        `relay ${live.sqs.callsPerEvent} SQS calls/event; backlog drain ${backlog.eventsPerSecond} events/s, ` +
        `${backlog.sqs.callsPerEvent} SQS calls/event; engine ${ceiling.transactionsPerSecond} transactions/s, ` +
        `live share ${ceiling.liveShare} (${live.transactionsPerEvent} transactions/event)`,
      live,
      backlog,
      ceiling,
      queuesLeft: left,
      method:
        'Fresh table on DynamoDB Local; in_app notifications created through the domain (1 TransactWriteItems ' +
        'with the outbox item); DynamoDB Local stream -> local/stream-poller.ts (GetRecords Limit 100, reads on at once while records flow, 25 ms idle poll, ' +
        'no batching window) -> relay bundle -> in-process SQS endpoint (local/queues.ts) -> worker-internal bundle ' +
        '(batches of 10, up to WORKER_MAX_CONCURRENCY batches at once, receivers woken by a send). Latency: committed outbox write -> worker batch returned. ' +
        'SQS calls counted on the wire. Warm pipeline (warm-up events first).',
    };
    log(result.summary);
    return result;
  } finally {
    recorder.stop();
    await poller.stop();
    await queues.stop();
    db.doc.destroy();
    process.stdout.write = realWrite;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
