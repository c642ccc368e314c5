import { type BatchResultErrorEntry, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delayRetry, publishEvents, urlFor } from '#functions/adapters/queue';
import type { OutboxEvent } from '#shared/domain/outbox';
import { dlqName, EVENT_KINDS, QUEUES } from '#shared/kernel/names';
import { LocalQueues } from '#local/queues';
import { localSqsClient } from '#tests/support/local-sqs';

/**
 * The SQS edge (functions/adapters/queue.ts) with the real SQS client against the local
 * runtime's queues on loopback: each event reaches the queue of its kind, whole and with its
 * attributes, at most 10 per call; a refused entry or a failed call is answered per event, with
 * its cause, and nothing else is reported failed; a retry delay is clamped to what SQS accepts.
 * aws-sdk-client-mock only injects the failures the local queues never produce.
 */

const queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: 5, msPerSecond: 1000 });
const internal = queues.create(QUEUES.internal, dlqName(QUEUES.internal));
const external = queues.create(QUEUES.external, dlqName(QUEUES.external));
let urls: { internal: string; external: string };
let client: SQSClient;
/** The commands the client sent, with their input, as they left for the endpoint. */
const sent: { command: string; input: Record<string, unknown> }[] = [];

beforeAll(async () => {
  // Files may share a worker (vitest.mutate.config.ts): undo a class-wide stub another file left.
  mockClient(SQSClient).restore();
  await queues.listen();
  urls = { internal: queues.url(QUEUES.internal), external: queues.url(QUEUES.external) };
  client = localSqsClient(queues, urls);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      sent.push({
        command: (context as { commandName: string }).commandName,
        input: args.input as Record<string, unknown>,
      });
      return next(args);
    },
    { step: 'initialize', name: 'recordSent' },
  );
});
afterAll(() => queues.stop());

let seq = 0;
const event = (kind: string, channel?: string): OutboxEvent => {
  seq++;
  return {
    event_id: `ev-${seq}`,
    kind,
    tenant_id: `t-${seq % 3}`,
    idempotency_key: `key-${seq}`,
    occurred_at: '2026-01-01T00:00:00.000Z',
    payload: channel ? { channel, notification_id: `n-${seq}` } : { n: seq },
  };
};
const drainQueue = (q: typeof internal) => {
  const out = [];
  for (let batch = q.receive(10); batch.length; batch = q.receive(10)) out.push(...batch);
  return out;
};

describe('urlFor', () => {
  it('names the external queue for external work and the internal one for everything else', () => {
    expect(urlFor({ internal: 'i', external: 'e' }, QUEUES.external)).toBe('e');
    expect(urlFor({ internal: 'i', external: 'e' }, QUEUES.internal)).toBe('i');
  });
});

describe('publishEvents', () => {
  it('sends each event whole to its queue, with kind and tenant attributes, 10 per call', async () => {
    sent.splice(0);
    const events = [
      ...Array.from({ length: 12 }, () => event(EVENT_KINDS.notificationDeliveryRequested, 'telegram')),
      ...Array.from({ length: 3 }, () => event(EVENT_KINDS.notificationDeliveryRequested, 'in_app')),
      event(EVENT_KINDS.workflowEventRecorded),
    ];
    expect((await publishEvents(client, urls, events)).size).toBe(0);

    const toExternal = drainQueue(external);
    const toInternal = drainQueue(internal);
    expect(
      toExternal.map((m) => JSON.parse(m.body)).sort((a, b) => a.event_id.localeCompare(b.event_id)),
    ).toEqual(events.slice(0, 12).sort((a, b) => a.event_id.localeCompare(b.event_id)));
    expect(toInternal.map((m) => JSON.parse(m.body).event_id).sort()).toEqual(
      events
        .slice(12)
        .map((e) => e.event_id)
        .sort(),
    );
    for (const m of [...toExternal, ...toInternal]) {
      const e = JSON.parse(m.body) as OutboxEvent;
      // Fair queues: the tenant is the message group, as sent and as the queue holds it.
      expect(m.group).toBe(e.tenant_id);
      expect(m.attributes).toEqual({
        kind: { DataType: 'String', StringValue: e.kind },
        tenant_id: { DataType: 'String', StringValue: e.tenant_id },
      });
    }
    // 12 external events take two calls (10 + 2); the 4 internal ones one.
    const batches = sent.filter((s) => s.command === 'SendMessageBatchCommand');
    expect(batches.map((b) => [b.input.QueueUrl, (b.input.Entries as unknown[]).length]).sort()).toEqual(
      [
        [urls.external, 10],
        [urls.external, 2],
        [urls.internal, 4],
      ].sort(),
    );
    for (const b of batches)
      for (const x of b.input.Entries as { MessageBody: string; MessageGroupId?: string }[])
        expect(x.MessageGroupId).toBe((JSON.parse(x.MessageBody) as OutboxEvent).tenant_id);
    expect(new Set([...toExternal, ...toInternal].map((m) => m.group))).toEqual(
      new Set(['t-0', 't-1', 't-2']),
    );
    // Entry ids are unique within a call.
    for (const b of batches) {
      const ids = (b.input.Entries as { Id: string }[]).map((x) => x.Id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('sends nothing for no events', async () => {
    sent.splice(0);
    expect((await publishEvents(client, urls, [])).size).toBe(0);
    expect(sent).toHaveLength(0);
  });
});

describe('publishEvents failures (injected)', () => {
  const mockSqs = () => mockClient(client);
  let sqs: ReturnType<typeof mockSqs>;
  beforeAll(() => {
    sqs = mockSqs();
  });
  afterAll(() => sqs.restore());

  it('answers exactly the refused entries, each with the code and the entry as cause', async () => {
    const events = Array.from({ length: 12 }, () => event(EVENT_KINDS.workflowEventRecorded));
    const refused = { Id: '1', Code: 'InternalError', SenderFault: false };
    sqs
      .reset()
      .on(SendMessageBatchCommand)
      .resolvesOnce({ Successful: [], Failed: [refused, { Id: '99', Code: 'Unknown', SenderFault: false }] })
      .resolvesOnce({ Successful: [], Failed: [{ Id: '0', SenderFault: true } as BatchResultErrorEntry] });
    const failed = await publishEvents(client, urls, events);
    expect([...failed.keys()].sort()).toEqual([events[1]!.event_id, events[10]!.event_id].sort());
    expect(failed.get(events[1]!.event_id)!.message).toBe('SendMessageBatch entry failed: InternalError');
    expect(failed.get(events[1]!.event_id)!.cause).toEqual(refused);
    expect(failed.get(events[10]!.event_id)!.message).toBe('SendMessageBatch entry failed: unknown');
  });

  it('a call that throws fails every event of that call, and only those, with the error as cause', async () => {
    const events = Array.from({ length: 12 }, () => event(EVENT_KINDS.workflowEventRecorded));
    const outage = Object.assign(new Error('service unavailable'), { name: 'ServiceUnavailable' });
    sqs.reset().on(SendMessageBatchCommand).rejectsOnce(outage).resolves({ Successful: [], Failed: [] });
    const failed = await publishEvents(client, urls, events);
    expect([...failed.keys()].sort()).toEqual(
      events
        .slice(0, 10)
        .map((e) => e.event_id)
        .sort(),
    );
    const err = failed.get(events[0]!.event_id)!;
    expect(err.message).toBe('SendMessageBatch failed');
    expect(err.cause).toBe(outage);
  });
});

describe('delayRetry', () => {
  it('hides the message for the given seconds, rounded and clamped to 0..12 hours', async () => {
    internal.send('m');
    const [m] = internal.receive(1);
    const cases: [number, number][] = [
      [2.6, 3],
      [-5, 0],
      [100_000, 43_200],
      [43_200, 43_200],
      [0, 0],
    ];
    sent.splice(0);
    for (const [seconds] of cases) await delayRetry(client, urls.internal, m!.receiptHandle!, seconds);
    expect(sent.map((s) => s.input)).toEqual(
      cases.map(([, v]) => ({
        QueueUrl: urls.internal,
        ReceiptHandle: m!.receiptHandle,
        VisibilityTimeout: v,
      })),
    );
    // The last change (0) made it visible again at once.
    expect(internal.receive(1)).toHaveLength(1);
  });

  it('an unknown receipt handle is an error for the caller', async () => {
    await expect(delayRetry(client, urls.internal, 'no-such-handle', 5)).rejects.toThrow();
  });
});
