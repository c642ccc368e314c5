import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerStore } from '#functions/adapters/timer-store';
import { webhookQueueCarries } from '#functions/workers/webhook-deps';
import { createQueueWorker, type KindHandlers } from '#functions/workers/queue-worker';
import { webhookHandlers } from '#functions/workers/webhooks';
import { fireWebhookRetry } from '#shared/domain/webhooks/retry';
import type { OutboxEvent } from '#shared/domain/outbox';
import { kindsOn } from '#shared/kernel/events';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { LocalQueues } from '#local/queues';
import { localSqsClient } from '#tests/support/local-sqs';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * A webhook queue message that the queue hands back before the message is due (docs/decisions.md,
 * "Webhook retries beyond the queue"): every return is a receive, and the queue dead-letters a
 * message after its receive limit (5, the delivery policy's attempt limit). Here the clock stands
 * still while the queue's seconds are milliseconds, so every return is early; the copies must
 * still end in a delivery, never in the DLQ.
 */

const RECEIVES = 5;
const h = webhookHarness();
const queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: RECEIVES, msPerSecond: 1 });
const external = queues.create(QUEUES.external, dlqName(QUEUES.external));
const dlq = queues.queues.get(dlqName(QUEUES.external))!;
/** Receives of each webhook queue message, in order. */
const receives: number[] = [];

beforeAll(async () => {
  await queues.listen();
  const url = queues.url(QUEUES.external);
  const sqs = localSqsClient(queues, { external: url });
  const others = Object.fromEntries(
    kindsOn('external').map((kind) => [kind, () => Promise.reject(new Error(`no ${kind} in this test`))]),
  ) as unknown as KindHandlers<'external'>;
  const worker = createQueueWorker('external', {
    ...others,
    ...webhookHandlers(
      h.deps.delivery({ queueCarries: webhookQueueCarries(RECEIVES), random: () => 0 }),
      sqs,
      url,
    ),
  });
  queues.consume(
    QUEUES.external,
    (event, context) => {
      for (const r of event.Records) receives.push(Number(r.attributes.ApproximateReceiveCount));
      return worker(event, context);
    },
    () => ({ functionName: 'worker-external', awsRequestId: 'r' }) as Context,
    { pollMs: 2, concurrency: 1 },
  );
});
afterAll(() => queues.stop());

const until = async (what: string, done: () => boolean | Promise<boolean>) => {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not ${what} in 10 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('a webhook message the queue returns before it is due', () => {
  it('comes back early more often than the receive limit and is still delivered, never dead-lettered', async () => {
    h.clock.set(WEBHOOK_START);
    const { t, event } = await h.oneMessage();
    const messageId = event.payload.message_id as string;
    const sent = new Set<string>();
    const send = (e: OutboxEvent) => {
      sent.add(e.event_id);
      external.send(JSON.stringify(e));
    };
    const settled = () => external.size === 0;
    const fresh = async () => (await h.outboxOf(t.id)).filter((e) => !sent.has(e.event_id));
    const timers = async () =>
      (await timerStore(h.db).list(t.id, { kind: 'webhook_retry' }, { limit: 10 })).items;

    // The first attempt fails: a 5 s wait that the copy carries, returning in 5 ms, long before
    // the standing clock reaches it.
    h.rx.answer(500);
    send(event);
    await until('the first copy finished', settled);
    expect(dlq.size).toBe(0);
    // A timer that fires while the clock still stands (one behind the sweeper's) queues a copy
    // that is early too.
    expect(
      await fireWebhookRetry({ messages: h.deps.log.messages, clock: h.clock }, (await timers())[0]!),
    ).toBe('written');
    const [second] = await fresh();
    send(second!);
    await until('the second copy finished', settled);
    const early = receives.length - 1;
    expect(early).toBeGreaterThanOrEqual(RECEIVES);
    expect(dlq.size).toBe(0);
    expect(h.rx.received).toHaveLength(1);

    // Its time comes: the timer's copy is sent and delivered.
    h.clock.add(6);
    h.rx.answer(200);
    const due = (await timers())[0]!;
    expect(due.due_at).toBe(new Date(Date.parse(WEBHOOK_START) + 5000).toISOString());
    expect(await fireWebhookRetry({ messages: h.deps.log.messages, clock: h.clock }, due)).toBe('written');
    const [third] = await fresh();
    send(third!);
    await until(
      'delivered',
      async () => (await h.deps.log.messages.get(t.id, messageId))?.status === 'delivered',
    );
    await until('the last copy finished', settled);
    expect(dlq.size).toBe(0);
    expect(h.rx.received).toHaveLength(2);
    expect((await h.deps.log.messages.get(t.id, messageId))!.attempts.map((a) => a.status_code)).toEqual([
      500, 200,
    ]);
  });
});
