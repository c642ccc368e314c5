import { Metrics } from '@aws-lambda-powertools/metrics';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, DynamoDBRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/transact';
import { outboxPut } from '#functions/adapters/outbox';
import { logger, metricsFor } from '#functions/observability';
import { createRelay } from '#functions/relay/outbox-relay';
import { createSweeper } from '#functions/sweeper/outbox-sweeper';
import type { OutboxEvent } from '#shared/domain/outbox';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { outbox } from '#shared/table/entities/outbox';
import { freshDb } from '#tests/support/db';
import { insertRecord, outboxEvent } from '#tests/support/outbox';
import { captureLogLines } from '#tests/support/logs';

/**
 * What the relay and the sweeper let operators see (the relay-lag and sweeper alarms read these
 * metrics), which stream records the relay takes, and that a sweep publishes each pending item
 * once however many pages it reads. SQS is aws-sdk-client-mock; the outbox is DynamoDB Local.
 */

const sqsMock = mockClient(SQSClient);
// A class-wide mock: restored so that it cannot reach the next file of a shared worker
// (vitest.mutate.config.ts runs files without isolation).
afterAll(() => sqsMock.restore());
const queues = { internal: 'https://sqs.local/internal', external: 'https://sqs.local/external' };
const NOW = '2031-02-01T00:00:10.000Z';
const clock = { now: () => new Date(NOW) };

afterEach(() => {
  sqsMock.reset();
  vi.restoreAllMocks();
});

const accept = (failing: Set<string> = new Set()) =>
  sqsMock.on(SendMessageBatchCommand).callsFake((input) => {
    const entries = input.Entries as { Id: string; MessageBody: string }[];
    const failed = entries.filter((x) => failing.has(JSON.parse(x.MessageBody).event_id));
    return {
      Successful: entries
        .filter((x) => !failed.includes(x))
        .map((x) => ({ Id: x.Id, MessageId: x.Id, MD5OfMessageBody: '' })),
      Failed: failed.map((x) => ({ Id: x.Id, Code: 'KmsThrottled', SenderFault: false })),
    };
  });

const sent = () =>
  sqsMock
    .commandCalls(SendMessageBatchCommand)
    .flatMap((c) =>
      c.args[0].input.Entries!.map((x) => (JSON.parse(x.MessageBody!) as OutboxEvent).event_id),
    );

const observe = () => {
  const metric = vi.spyOn(Metrics.prototype, 'addMetric');
  metric.mockClear();
  vi.spyOn(Metrics.prototype, 'publishStoredMetrics').mockImplementation(function (this: Metrics) {
    return this;
  } as never);
  const lines = captureLogLines();
  return { metrics: () => metric.mock.calls.map(([name, , value]) => [name, value]), lines };
};

const write = async (db: Db, events: OutboxEvent[]) => {
  for (const e of events) expect((await transact(db, [outboxPut(e)])).ok).toBe(true);
};
const stored = async (db: Db, e: OutboxEvent) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: outbox.key(e) }))).Item!;

describe('the relay', () => {
  it('takes only outbox INSERTs; counts each published one and its lag from the event, and each failed one', async () => {
    const { db } = await freshDb();
    const published = outboxEvent('email', { occurredAt: '2031-02-01T00:00:07.500Z' });
    const failing = outboxEvent('sms', { occurredAt: '2031-02-01T00:00:07.500Z' });
    const modified = outboxEvent('email');
    await write(db, [published, failing, modified]);
    const other: DynamoDBRecord = {
      ...insertRecord({ ...(await stored(db, modified)), entity: 'notification' }, 4),
    };
    const modify: DynamoDBRecord = { ...insertRecord(await stored(db, modified), 5), eventName: 'MODIFY' };
    const removed: DynamoDBRecord = { eventID: '6', eventName: 'REMOVE', dynamodb: { SequenceNumber: '6' } };
    accept(new Set([failing.event_id]));
    const seen = observe();

    const out = await createRelay({ db, sqs: new SQSClient({ region: 'us-east-1' }), queues, clock })(
      {
        Records: [
          insertRecord(await stored(db, published), 1),
          insertRecord(await stored(db, failing), 2),
          other,
          modify,
          removed,
        ],
      },
      {} as Context,
    );
    expect(sent().sort()).toEqual([published.event_id, failing.event_id].sort());
    expect(out.batchItemFailures).toEqual([{ itemIdentifier: '2'.padStart(21, '0') }]);
    expect(seen.metrics()).toEqual(
      expect.arrayContaining([
        [METRICS.relayPublished, 1],
        [METRICS.relayLag, 2500],
        [METRICS.relayFailed, 1],
      ]),
    );
    expect(seen.metrics().filter(([n]) => n === METRICS.relayPublished)).toHaveLength(1);
    expect(seen.lines.find((l) => l.event === LOG_EVENTS.outboxRelayed)).toMatchObject({
      event_id: published.event_id,
      tenant_id: published.tenant_id,
      lag_ms: 2500,
    });
    const failedLine = seen.lines.find((l) => l.event === LOG_EVENTS.outboxRelayFailed)!;
    expect(failedLine).toMatchObject({ level: 'warn', event_id: failing.event_id });
    expect((failedLine.error as Error).message).toMatch(/KmsThrottled/);
    expect((await stored(db, published)).gsi3pk).toBeUndefined();
    expect((await stored(db, failing)).gsi3pk).toBeDefined();
  });
});

describe('the sweeper', () => {
  it('publishes each pending item once across its pages of 50, counts and logs each with its age', async () => {
    const { db } = await freshDb();
    const old = '2031-02-01T00:00:00.000Z';
    const lost = Array.from({ length: 53 }, () => outboxEvent('email', { occurredAt: old }));
    await write(db, lost);
    accept(new Set([lost[7]!.event_id]));
    const seen = observe();
    const sweep = createSweeper({ db, sqs: new SQSClient({ region: 'us-east-1' }), queues, clock }, 5_000);

    expect(await sweep()).toEqual({ republished: 52, failed: 1 });
    expect(sent()).toHaveLength(53);
    expect(new Set(sent()).size).toBe(53);
    expect(seen.metrics()).toEqual([
      [METRICS.sweeperRepublished, 52],
      [METRICS.relayFailed, 1],
    ]);
    const republished = seen.lines.filter((l) => l.event === LOG_EVENTS.outboxRepublished);
    expect(republished).toHaveLength(52);
    expect(republished[0]).toMatchObject({ level: 'warn', age_ms: 10_000 });
    expect(seen.lines.filter((l) => l.event === LOG_EVENTS.outboxRelayFailed)).toHaveLength(1);

    // The failed one is still pending: the next sweep publishes only it, and counts no failure.
    sqsMock.resetHistory();
    accept();
    const again = observe();
    expect(await sweep()).toEqual({ republished: 1, failed: 0 });
    expect(sent()).toEqual([lost[7]!.event_id]);
    expect(again.metrics()).toEqual([[METRICS.sweeperRepublished, 1]]);
  });
});

describe('records the relay does not own', () => {
  it('skips an INSERT with no image, no entity or no stream data, and still relays the outbox item beside them', async () => {
    const { db } = await freshDb();
    const e = outboxEvent('email', { occurredAt: '2031-02-01T00:00:09.000Z' });
    await write(db, [e]);
    accept();
    // The relay's own group: the sweeper counts relay failures too, and the group tells them apart.
    const relayMetrics = metricsFor('relay');
    const added = vi.spyOn(relayMetrics, 'addMetric');
    vi.spyOn(relayMetrics, 'publishStoredMetrics').mockImplementation(() => relayMetrics);
    const keysOnly: DynamoDBRecord = { eventName: 'INSERT', dynamodb: { SequenceNumber: '2' } };
    const noEntity: DynamoDBRecord = {
      ...insertRecord({ pk: 'X#1', sk: 'X#1', name: 'not an entity' }, 3),
    };
    const bare: DynamoDBRecord = { eventName: 'INSERT' };

    const out = await createRelay({ db, sqs: new SQSClient({ region: 'us-east-1' }), queues, clock })(
      { Records: [keysOnly, insertRecord(await stored(db, e), 1), noEntity, bare] },
      {} as Context,
    );
    expect(out.batchItemFailures).toEqual([]);
    expect(sent()).toEqual([e.event_id]);
    expect(added.mock.calls.map(([name, , value]) => [name, value])).toEqual([
      [METRICS.relayPublished, 1],
      [METRICS.relayLag, 1000],
    ]);
    expect((await stored(db, e)).relayed_at).toBe(NOW);
  });
});

describe('a long sweep', () => {
  it('publishes and marks in rounds of 50, so what it did before a timeout is kept, and flushes its metrics once', async () => {
    const { db } = await freshDb();
    const lost = Array.from({ length: 53 }, () =>
      outboxEvent('email', { occurredAt: '2031-02-01T00:00:00.000Z' }),
    );
    await write(db, lost);
    // One timeline of what reaches SQS and what is marked relayed, in the order it happens.
    const timeline: string[] = [];
    sqsMock.on(SendMessageBatchCommand).callsFake((input) => {
      const entries = input.Entries as { Id: string }[];
      timeline.push(`publish ${entries.length}`);
      return {
        Successful: entries.map((x) => ({ Id: x.Id, MessageId: x.Id, MD5OfMessageBody: '' })),
        Failed: [],
      };
    });
    const send = db.doc.send.bind(db.doc);
    vi.spyOn(db.doc, 'send').mockImplementation(((command: unknown) => {
      if (command instanceof UpdateCommand) timeline.push('mark');
      return send(command as never);
    }) as never);
    const sweeperMetrics = metricsFor('sweeper');
    const added = vi.spyOn(sweeperMetrics, 'addMetric');
    const flushed = vi.spyOn(sweeperMetrics, 'publishStoredMetrics').mockImplementation(() => sweeperMetrics);
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);

    const sweep = createSweeper({ db, sqs: new SQSClient({ region: 'us-east-1' }), queues, clock }, 5_000);
    expect(await sweep()).toEqual({ republished: 53, failed: 0 });
    expect(timeline).toEqual([
      ...Array<string>(5).fill('publish 10'),
      ...Array<string>(50).fill('mark'),
      'publish 3',
      ...Array<string>(3).fill('mark'),
    ]);
    expect(added.mock.calls.map(([name, , value]) => [name, value])).toEqual([
      [METRICS.sweeperRepublished, 53],
    ]);
    expect(flushed).toHaveBeenCalledTimes(1);
  });
});
