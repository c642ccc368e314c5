import { Metrics } from '@aws-lambda-powertools/metrics';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/dynamo';
import { outboxPut } from '#functions/adapters/outbox';
import { createRelay, createSweeper } from '#functions/relay/outbox-relay';
import type { OutboxEvent } from '#shared/domain/outbox';
import { systemClock } from '#shared/kernel/ids';
import { outbox } from '#shared/table/entities/outbox';
import { METRICS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { insertRecord, outboxEvent } from '#tests/support/outbox';

/** Connected: real DynamoDB Local items and conditions; SQS faults injected with aws-sdk-client-mock. */

const sqsMock = mockClient(SQSClient);
const queues = { internal: 'https://sqs.local/internal', external: 'https://sqs.local/external' };
const context = {} as Context;
let db: Db;

beforeAll(async () => {
  ({ db } = await freshDb());
});
afterEach(() => sqsMock.reset());

const event = (channel: string, occurredAt?: string) =>
  outboxEvent(channel, occurredAt ? { occurredAt } : {});

const write = async (events: OutboxEvent[]) => {
  for (const e of events) expect((await transact(db, [outboxPut(e)])).ok).toBe(true);
};

const item = async (e: OutboxEvent) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: outbox.key(e) }))).Item!;

/** The Lambda stream record of the item as written (NewImage from the table itself). */
const streamRecord = async (e: OutboxEvent, seq: number) => insertRecord(await item(e), seq);

const sentBodies = () =>
  sqsMock
    .commandCalls(SendMessageBatchCommand)
    .flatMap((c) => c.args[0].input.Entries!.map((x) => JSON.parse(x.MessageBody!) as OutboxEvent));

describe('outbox relay', () => {
  it('publishes 10 per call by queue and fails only the records whose entries failed', async () => {
    const events = [...Array.from({ length: 11 }, () => event('webhook')), event('in_app')];
    await write(events);
    const records = await Promise.all(events.map((e, i) => streamRecord(e, i + 1)));
    const failedIds = new Set([events[2]!.event_id, events[10]!.event_id]);
    sqsMock.on(SendMessageBatchCommand).callsFake((input) => {
      const entries = input.Entries as { Id: string; MessageBody: string }[];
      const failed = entries.filter((x) => failedIds.has(JSON.parse(x.MessageBody).event_id));
      return {
        Successful: entries
          .filter((x) => !failed.includes(x))
          .map((x) => ({ Id: x.Id, MessageId: x.Id, MD5OfMessageBody: '' })),
        Failed: failed.map((x) => ({ Id: x.Id, Code: 'InternalError', SenderFault: false })),
      };
    });

    const relay = createRelay({
      db,
      sqs: new SQSClient({ region: 'us-east-1' }),
      queues,
      clock: systemClock,
    });
    const out = await relay({ Records: records }, context);

    const calls = sqsMock.commandCalls(SendMessageBatchCommand);
    expect(calls.map((c) => [c.args[0].input.QueueUrl, c.args[0].input.Entries!.length]).sort()).toEqual([
      [queues.external, 1],
      [queues.external, 10],
      [queues.internal, 1],
    ]);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      [records[2]!, records[10]!].map((r) => r.dynamodb!.SequenceNumber).sort(),
    );
    for (const e of events) {
      const stored = await item(e);
      if (failedIds.has(e.event_id)) {
        expect(stored.gsi3pk).toBeDefined(); // still pending: the stream retry or the sweeper gets it
        expect(stored.ttl).toBeUndefined();
      } else {
        expect(stored.gsi3pk).toBeUndefined();
        expect(stored.ttl).toBeGreaterThan(Date.now() / 1000);
      }
    }
  });

  it('fails every record of a call that throws, and nothing else', async () => {
    const events = [event('in_app'), event('telegram')];
    await write(events);
    sqsMock
      .on(SendMessageBatchCommand, { QueueUrl: queues.external })
      .rejects(new Error('throttled'))
      .on(SendMessageBatchCommand, { QueueUrl: queues.internal })
      .resolves({ Successful: [{ Id: '0', MessageId: 'm', MD5OfMessageBody: '' }], Failed: [] });
    const records = await Promise.all(events.map((e, i) => streamRecord(e, 100 + i)));
    const out = await createRelay({
      db,
      sqs: new SQSClient({ region: 'us-east-1' }),
      queues,
      clock: systemClock,
    })({ Records: records }, context);
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: records[1]!.dynamodb!.SequenceNumber }]);
  });
});

describe('outbox sweeper', () => {
  it('re-publishes items the relay lost, from the pending index, and only those', async () => {
    const { db: own } = await freshDb();
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const lost = [event('email', old), event('in_app', old)];
    const fresh = event('sms');
    db = own;
    await write([...lost, fresh]);
    sqsMock.on(SendMessageBatchCommand).callsFake((input) => ({
      Successful: (input.Entries as { Id: string }[]).map((x) => ({
        Id: x.Id,
        MessageId: x.Id,
        MD5OfMessageBody: '',
      })),
      Failed: [],
    }));
    const sweeper = createSweeper(
      { db, sqs: new SQSClient({ region: 'us-east-1' }), queues, clock: systemClock },
      60_000,
    );
    // The outbox-sweeper-republished alarm sums this metric: one count per re-published item.
    const addMetric = vi.spyOn(Metrics.prototype, 'addMetric');
    const republishedMetric = () =>
      addMetric.mock.calls.filter(([name]) => name === METRICS.sweeperRepublished).map((c) => c[2]);
    expect(await sweeper()).toEqual({ republished: 2, failed: 0 });
    expect(republishedMetric()).toEqual([2]);
    expect(
      sentBodies()
        .map((b) => b.event_id)
        .sort(),
    ).toEqual(lost.map((e) => e.event_id).sort());
    for (const e of lost) expect((await item(e)).gsi3pk).toBeUndefined();
    expect((await item(fresh)).gsi3pk).toBeDefined();
    sqsMock.resetHistory();
    expect(await sweeper()).toEqual({ republished: 0, failed: 0 });
    expect(sentBodies()).toHaveLength(0);
    expect(republishedMetric()).toEqual([2, 0]);
    addMetric.mockRestore();
  });
});
