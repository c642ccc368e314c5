import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Context, DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { operationName, recordCalls } from '../../../bench/lib/capture';
import type { Db } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/transact';
import { outboxPut } from '#functions/adapters/outbox';
import { SQS_BATCH } from '#functions/adapters/queue';
import { createRelay } from '#functions/relay/outbox-relay';
import type { OutboxEvent } from '#shared/domain/outbox';
import { newId, systemClock } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { insertRecord, outboxEvent } from '#tests/support/outbox';

/**
 * The relay's budget of docs/performance.md: at most 0.11 SQS calls per outbox event (10 events
 * per SendMessageBatch, per queue), and one DynamoDB call per event (marking it relayed). The
 * outbox items are real (DynamoDB Local, so the relay's conditional writes run for real); SQS is
 * aws-sdk-client-mock, which counts every command the relay sends; DynamoDB calls are counted
 * on the wire (bench/lib/capture.ts).
 */

const CALLS_PER_EVENT = 0.11;
const sqsMock = mockClient(SQSClient);
// A class-wide mock: restored so that it cannot reach the next file of a shared worker
// (vitest.mutate.config.ts runs files without isolation).
afterAll(() => sqsMock.restore());
const queues = { internal: 'https://sqs.local/internal', external: 'https://sqs.local/external' };
const recorder = recordCalls();
let db: Db;

beforeAll(async () => {
  ({ db } = await freshDb());
});
afterEach(() => sqsMock.reset());
afterAll(() => recorder.stop());

const event = (channel: string) => outboxEvent(channel, { tenantId: 't-budget' });

/**
 * Writes the outbox items (25 per transaction) and answers the stream's INSERT records for them,
 * with the item as written as NewImage.
 */
const written = async (events: OutboxEvent[]): Promise<DynamoDBRecord[]> => {
  const puts = events.map(outboxPut);
  for (let i = 0; i < puts.length; i += 25) expect((await transact(db, puts.slice(i, i + 25))).ok).toBe(true);
  return puts.map((op, i) =>
    insertRecord((op as { Put: { Item: Record<string, unknown> } }).Put.Item, i + 1),
  );
};

/** Runs the relay over one stream event; answers its SQS commands and DynamoDB operations. */
const relayOnce = async (records: DynamoDBRecord[]) => {
  sqsMock.on(SendMessageBatchCommand).callsFake((input: { Entries: { Id: string }[] }) => ({
    Successful: input.Entries.map((e) => ({ Id: e.Id, MessageId: newId(), MD5OfMessageBody: '' })),
    Failed: [],
  }));
  const relay = createRelay({ db, sqs: new SQSClient({ region: 'us-east-1' }), queues, clock: systemClock });
  recorder.take();
  const out = await relay({ Records: records }, {} as Context);
  const dynamo = recorder.take().filter((c) => c.target.startsWith('DynamoDB_'));
  const batches = sqsMock.commandCalls(SendMessageBatchCommand).map((c) => c.args[0].input);
  return {
    out,
    sqsCalls: sqsMock.calls().length,
    batches,
    dynamo: dynamo.map((c) => operationName(c.target)),
  };
};

const bodiesTo = (batches: { QueueUrl?: string; Entries?: { MessageBody?: string }[] }[], url: string) =>
  batches
    .filter((b) => b.QueueUrl === url)
    .flatMap((b) => b.Entries!.map((e) => (JSON.parse(e.MessageBody!) as OutboxEvent).event_id))
    .sort();

describe('relay SQS calls per event', () => {
  it(`95 outbox INSERTs: at most ${CALLS_PER_EVENT} SQS calls per event (10 SendMessageBatch calls)`, async () => {
    const events = Array.from({ length: 95 }, () => event('in_app'));
    const { out, sqsCalls, batches, dynamo } = await relayOnce(await written(events));

    expect(out.batchItemFailures).toEqual([]);
    // Every call the relay made to SQS is a full-as-possible SendMessageBatch: 95 events, 10 calls.
    expect(sqsCalls).toBe(Math.ceil(95 / SQS_BATCH));
    expect(batches).toHaveLength(sqsCalls);
    expect(sqsCalls / events.length).toBeLessThanOrEqual(CALLS_PER_EVENT);
    for (const b of batches) expect(b.Entries!.length).toBeLessThanOrEqual(SQS_BATCH);
    // Each event published exactly once, to the internal queue.
    expect(bodiesTo(batches, queues.internal)).toEqual(events.map((e) => e.event_id).sort());
    // DynamoDB: one UpdateItem per event (marked relayed, leaves the pending index), nothing else.
    expect(dynamo).toEqual(events.map(() => 'UpdateItem'));
  });

  it('a batch mixing internal and external kinds: right queues, at most ceil(n/10) calls per queue', async () => {
    const channels = ['in_app', 'email', 'sms', 'webhook', 'telegram', 'email', 'in_app'];
    const events = Array.from({ length: 58 }, (_, i) => event(channels[i % channels.length]!));
    const internal = events.filter((e) => e.payload.channel === 'in_app');
    const external = events.filter((e) => e.payload.channel !== 'in_app');
    const { out, sqsCalls, batches } = await relayOnce(await written(events));

    expect(out.batchItemFailures).toEqual([]);
    expect(bodiesTo(batches, queues.internal)).toEqual(internal.map((e) => e.event_id).sort());
    expect(bodiesTo(batches, queues.external)).toEqual(external.map((e) => e.event_id).sort());
    const callsTo = (url: string) => batches.filter((b) => b.QueueUrl === url).length;
    expect(callsTo(queues.internal)).toBeLessThanOrEqual(Math.ceil(internal.length / SQS_BATCH));
    expect(callsTo(queues.external)).toBeLessThanOrEqual(Math.ceil(external.length / SQS_BATCH));
    expect(sqsCalls).toBe(callsTo(queues.internal) + callsTo(queues.external));
    expect(sqsCalls).toBeLessThanOrEqual(Math.ceil(internal.length / 10) + Math.ceil(external.length / 10));
  });
});
