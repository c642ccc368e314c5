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

/**
 * Fair queues (issue 37): as on an SQS fair queue, receives share out among message groups (the
 * tenants), so one tenant's burst does not hold back another tenant's message.
 */
describe('local queue fair share among groups', () => {
  const burst = (queue: ReturnType<typeof setUp>['queue'], n: number) => {
    for (let i = 0; i < n; i++) queue.send(`burst-${i}`, {}, 'tenant-a');
  };

  it("serves a lone tenant's message in the first receive after another tenant's burst of 5,000", () => {
    const { queue } = setUp();
    burst(queue, 5_000);
    queue.send('lone', {}, 'tenant-b');
    const first = queue.receive(10);
    expect(first).toHaveLength(10);
    expect(first.map((m) => m.body)).toContain('lone');
    // The burst's own order is kept within its group.
    expect(first.filter((m) => m.group === 'tenant-a').map((m) => m.body)).toEqual(
      Array.from({ length: 9 }, (_, i) => `burst-${i}`),
    );
  });

  it('gives the next message to the group with the fewest in flight, a lone message first', () => {
    const { queue } = setUp();
    burst(queue, 5_000);
    // The burst's tenant already has three batches in flight when the lone message arrives.
    for (let i = 0; i < 3; i++) queue.receive(10);
    queue.send('lone', {}, 'tenant-b');
    expect(queue.receive(1).map((m) => m.body)).toEqual(['lone']);
  });

  it('alternates between groups with messages waiting rather than draining one first', () => {
    const { queue } = setUp();
    for (let i = 0; i < 4; i++) queue.send(`a${i}`, {}, 'tenant-a');
    for (let i = 0; i < 4; i++) queue.send(`b${i}`, {}, 'tenant-b');
    expect(queue.receive(4).map((m) => m.body)).toEqual(['a0', 'b0', 'a1', 'b1']);
  });

  it('takes them oldest first across the queue when set to share as a FIFO (the bench before)', () => {
    queues = new LocalQueues({
      visibilityTimeoutSeconds: 30,
      maxReceiveCount: 5,
      msPerSecond: 1000,
      share: 'fifo',
    });
    const queue = queues.create('q', 'q-dlq');
    burst(queue, 50);
    queue.send('lone', {}, 'tenant-b');
    const bodies: string[] = [];
    for (let batch = queue.receive(10); batch.length; batch = queue.receive(10))
      bodies.push(...batch.map((m) => m.body));
    expect(bodies.indexOf('lone')).toBe(50);
  });

  it("hands a worker the lone tenant's message within the first batches, its group as MessageGroupId", async () => {
    const { queues, queue } = setUp();
    burst(queue, 5_000);
    queue.send('lone', {}, 'tenant-b');
    const order: { body: string; group: string | undefined }[] = [];
    queues.consume(
      'q',
      async (event: SQSEvent) => {
        for (const r of event.Records) order.push({ body: r.body, group: r.attributes.MessageGroupId });
        return { batchItemFailures: [] };
      },
      ctx,
      { pollMs: 10, concurrency: 5 },
    );
    const start = Date.now();
    while (!order.some((o) => o.body === 'lone') && Date.now() - start < 10_000)
      await new Promise((r) => setTimeout(r, 5));
    // Received in the first round of the five receivers' batches: position under 50, not 5,000.
    expect(order.findIndex((o) => o.body === 'lone')).toBeLessThan(50);
    expect(order.find((o) => o.body === 'lone')?.group).toBe('tenant-b');
    expect(order.find((o) => o.body === 'burst-0')?.group).toBe('tenant-a');
  });

  it('keeps a message in its group through the DLQ and a redrive, and through a visibility change', () => {
    queues = new LocalQueues({ visibilityTimeoutSeconds: 0, maxReceiveCount: 1, msPerSecond: 1000 });
    const queue = queues.create('q', 'q-dlq');
    queue.send('m', {}, 'tenant-b');
    const [m] = queue.receive(1);
    expect(queue.changeVisibility(m!.receiptHandle!, 0)).toBe(true);
    expect(queue.receive(1)).toEqual([]);
    expect([...queue.dlq!.messages.values()].map((x) => x.group)).toEqual(['tenant-b']);
    expect(queue.redriveFromDlq()).toBe(1);
    expect([...queue.messages.values()].map((x) => [x.body, x.group])).toEqual([['m', 'tenant-b']]);
  });
});
