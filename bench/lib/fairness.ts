import { setTimeout as sleep } from 'node:timers/promises';
import type { Context, SQSEvent } from 'aws-lambda';
import { publishEvents, sqsClient } from '#functions/adapters/queue';
import { localClientSettings } from '#local/dynamodb-local';
import type { QueueOptions } from '#local/local-queue';
import { LocalQueues } from '#local/queues';
import type { OutboxEvent } from '#shared/domain/outbox';
import { dlqName, EVENT_KINDS, QUEUES, WORKER_MAX_CONCURRENCY } from '#shared/kernel/names';

/**
 * Fair queues (issue 37): a quiet tenant's end-to-end delivery (the relay's publishEvents through
 * the real SQS client, the local queue, a worker consuming as the event source mapping does: up to
 * WORKER_MAX_CONCURRENCY batches of 10 in flight) alone, and beside a tenant that enqueues
 * BENCH_FAIR_BURST (5,000) messages at once. Measured twice: sharing among message groups (the
 * queues as they are, an SQS fair queue) and oldest first across the queue (`share: 'fifo'`, a
 * standard queue without groups, as before). Budget: beside the burst, the quiet tenant's p50 at
 * most BUDGET_RATIO times its p50 alone.
 *
 * The whole burst is in the queue before the workers start. The worker spends BENCH_FAIR_WORK_MS
 * (10) per batch on average, a stand-in for a worker's table writes: the quiet tenant's wait is counted in
 * batches, so the figure scales with the real work. The quiet tenant sends BENCH_FAIR_SAMPLES (60)
 * messages, one every BENCH_FAIR_GAP_MS (10), so that all of them are sent while the burst drains
 * (5,000 messages take 100 rounds of 5 batches, a second at 10 ms a batch).
 */
export const BUDGET_RATIO = 1.5;
const BURST = Number(process.env.BENCH_FAIR_BURST ?? 5_000);
const WORK_MS = Number(process.env.BENCH_FAIR_WORK_MS ?? 10);
const SAMPLES = Number(process.env.BENCH_FAIR_SAMPLES ?? 60);
const GAP_MS = Number(process.env.BENCH_FAIR_GAP_MS ?? 10);

const ctx = () => ({}) as Context;
const p50 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
};
const round = (n: number) => Math.round(n * 100) / 100;

let seq = 0;
const eventOf = (tenant: string): OutboxEvent => {
  seq++;
  return {
    event_id: `fair-${seq}`,
    kind: EVENT_KINDS.workflowEventRecorded,
    tenant_id: tenant,
    idempotency_key: `fair-${seq}`,
    occurred_at: new Date(0).toISOString(),
    payload: { n: seq },
  };
};

/** The quiet tenant's delivery latencies (ms), with or without the burst, under one sharing rule. */
async function phase(share: QueueOptions['share'], burst: number): Promise<number[]> {
  const queues = new LocalQueues({
    visibilityTimeoutSeconds: 30,
    maxReceiveCount: 5,
    msPerSecond: 1000,
    share,
  });
  await queues.listen();
  queues.create(QUEUES.internal, dlqName(QUEUES.internal));
  const urls = { internal: queues.url(QUEUES.internal), external: queues.url(QUEUES.internal) };
  // A loaded machine may take seconds to answer: the bench's client waits rather than fail a send.
  const sqs = sqsClient({
    ...urls,
    internalDlq: '',
    externalDlq: '',
    client: {
      ...localClientSettings(queues.endpoint),
      deadlines: { requestTimeoutMs: 60_000, maxAttempts: 3 },
    },
  });
  const handled = new Map<string, number>();
  const consume = () =>
    queues.consume(
      QUEUES.internal,
      async (event: SQSEvent) => {
        // Work varies from batch to batch (half to one and a half times WORK_MS), as real writes
        // do: five receivers all taking exactly the same time would stay in step and finish together.
        await sleep(WORK_MS * (0.5 + Math.random()));
        const now = performance.now();
        for (const r of event.Records) handled.set((JSON.parse(r.body) as OutboxEvent).event_id, now);
        return { batchItemFailures: [] };
      },
      ctx,
      { pollMs: 20, concurrency: WORKER_MAX_CONCURRENCY },
    );
  try {
    if (burst) {
      // At once: the whole burst is waiting in the queue before the workers take the first batch.
      // Sent 500 at a time (50 calls in flight), not 500 calls together, so no send times out.
      const events = Array.from({ length: burst }, () => eventOf('tenant-burst'));
      for (let i = 0; i < events.length; i += 500) {
        const failed = await publishEvents(sqs, urls, events.slice(i, i + 500));
        if (failed.size) throw new Error(`fairness bench: ${failed.size} burst messages not sent`);
      }
    }
    consume();
    // The quiet tenant sends one message every GAP_MS (open loop), all while the burst drains.
    const sent = new Map<string, number>();
    for (let i = 0; i < SAMPLES; i++) {
      const e = eventOf('tenant-quiet');
      sent.set(e.event_id, performance.now());
      if ((await publishEvents(sqs, urls, [e])).size) throw new Error('fairness bench: send failed');
      await sleep(GAP_MS);
    }
    const all = burst + SAMPLES;
    while (handled.size < all) await sleep(5);
    return [...sent].map(([id, at]) => handled.get(id)! - at);
  } finally {
    sqs.destroy();
    await queues.stop();
  }
}

export interface FairnessFigures {
  burst: number;
  workMsPerBatch: number;
  samples: number;
  budgetRatio: number;
  /** p50 (ms) of the quiet tenant alone and beside the burst, and the ratio, per sharing rule. */
  groups: { aloneP50: number; besideP50: number; ratio: number; status: string };
  fifo: { aloneP50: number; besideP50: number; ratio: number; status: string };
  summary: string;
}

export async function measureFairness(log: (msg: string) => void = () => {}): Promise<FairnessFigures> {
  const rule = async (share: 'groups' | 'fifo') => {
    log(`fairness: ${share}, quiet tenant alone`);
    const alone = p50(await phase(share, 0));
    log(`fairness: ${share}, quiet tenant beside a burst of ${BURST}`);
    const beside = p50(await phase(share, BURST));
    const ratio = round(beside / alone);
    return {
      aloneP50: round(alone),
      besideP50: round(beside),
      ratio,
      status: ratio <= BUDGET_RATIO ? 'ok' : 'OVER',
    };
  };
  const fifo = await rule('fifo');
  const groups = await rule('groups');
  return {
    burst: BURST,
    workMsPerBatch: WORK_MS,
    samples: SAMPLES,
    budgetRatio: BUDGET_RATIO,
    groups,
    fifo,
    summary:
      `quiet tenant's delivery p50 alone ${groups.aloneP50} ms, beside a ${BURST}-message burst ${groups.besideP50} ms ` +
      `(${groups.ratio}x, budget ${BUDGET_RATIO}x: ${groups.status}); oldest-first before: ` +
      `${fifo.aloneP50} ms alone, ${fifo.besideP50} ms beside (${fifo.ratio}x)`,
  };
}
