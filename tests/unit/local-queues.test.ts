import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalQueues } from '#local/queues';

/** The local runtime's SQS stand-in consumes as an event source mapping would (item 3 of issue 15). */

let queues: LocalQueues | undefined;
afterEach(async () => {
  await queues?.stop();
  queues = undefined;
});

const setUp = () => {
  queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: 5, msPerSecond: 1000 });
  return { queues, queue: queues.create('q', 'q-dlq') };
};
const ctx = () => ({}) as Context;

describe('local queue consumer', () => {
  it('wakes on a send instead of sleeping out its poll interval (long polling)', async () => {
    const { queues, queue } = setUp();
    const handled: number[] = [];
    queues.consume(
      'q',
      async () => {
        handled.push(Date.now());
        return { batchItemFailures: [] };
      },
      ctx,
      { pollMs: 10_000 },
    );
    await new Promise((r) => setTimeout(r, 50));
    const sent = Date.now();
    queue.send('{}');
    while (!handled.length && Date.now() - sent < 3_000) await new Promise((r) => setTimeout(r, 5));
    expect(handled[0]! - sent).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(queue.size).toBe(0);
  });

  it('runs batches concurrently, never more than the configured concurrency', async () => {
    const { queues, queue } = setUp();
    let inFlight = 0;
    let most = 0;
    let records = 0;
    queues.consume(
      'q',
      async (event: SQSEvent) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 100));
        records += event.Records.length;
        inFlight--;
        return { batchItemFailures: [] };
      },
      ctx,
      { pollMs: 10, concurrency: 3 },
    );
    for (let i = 0; i < 60; i++) queue.send(String(i));
    const start = Date.now();
    while (records < 60 && Date.now() - start < 5_000) await new Promise((r) => setTimeout(r, 10));
    expect(records).toBe(60);
    expect(most).toBe(3);
  });
});
