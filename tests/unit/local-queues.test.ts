import type { Context, SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalQueues } from '#local/queues';
import { untilTrue } from '#tests/support/wait';

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
    // The consumer found the queue empty and sleeps in its long poll: the send must wake it.
    const asleep = new Promise<void>((resolve) => {
      const waitForMessages = queue.waitForMessages.bind(queue);
      queue.waitForMessages = (ms: number) => {
        resolve();
        return waitForMessages(ms);
      };
    });
    queues.consume(
      'q',
      async () => {
        handled.push(Date.now());
        return { batchItemFailures: [] };
      },
      ctx,
      { pollMs: 10_000 },
    );
    await asleep;
    const sent = Date.now();
    queue.send('{}');
    await untilTrue(() => handled.length > 0, 'the message to be handled', 3_000);
    expect(handled[0]! - sent).toBeLessThan(1_000);
    await untilTrue(() => queue.size === 0, 'the handled message to leave the queue', 3_000);
  });

  it('runs batches concurrently, never more than the configured concurrency', async () => {
    const { queues, queue } = setUp();
    let inFlight = 0;
    let most = 0;
    let records = 0;
    // Each batch is held until three are held, or until every record left is in a held batch:
    // batches overlap for certain, and none waits a fixed time.
    let held: { size: number; go: () => void }[] = [];
    const hold = (size: number) =>
      new Promise<void>((go) => {
        held.push({ size, go });
        const holding = held.reduce((n, b) => n + b.size, 0);
        if (held.length === 3 || records + holding === 60) {
          for (const b of held) b.go();
          held = [];
        }
      });
    queues.consume(
      'q',
      async (event: SQSEvent) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await hold(event.Records.length);
        records += event.Records.length;
        inFlight--;
        return { batchItemFailures: [] };
      },
      ctx,
      { pollMs: 10, concurrency: 3 },
    );
    for (let i = 0; i < 60; i++) queue.send(String(i));
    await untilTrue(() => records === 60, 'all 60 records handled', 5_000);
    expect(records).toBe(60);
    expect(most).toBe(3);
  });
});
