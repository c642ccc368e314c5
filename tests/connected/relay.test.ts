import { Metrics } from '@aws-lambda-powertools/metrics';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/transact';
import { INLINE_PAYLOAD_MAX, outboxPut } from '#functions/adapters/outbox';
import { publishEvents } from '#functions/adapters/queue';
import { logger } from '#functions/observability';
import { createRelay } from '#functions/relay/outbox-relay';
import { createSweeper } from '#functions/sweeper/outbox-sweeper';
import type { OutboxEvent } from '#shared/domain/outbox';
import { type Clock, systemClock } from '#shared/kernel/ids';
import { outbox } from '#shared/table/entities/outbox';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { insertRecord, outboxEvent } from '#tests/support/outbox';

/** Connected: real DynamoDB Local items and conditions; SQS faults injected with aws-sdk-client-mock. */

const sqsMock = mockClient(SQSClient);
// A class-wide mock: restored so that it cannot reach the next file of a shared worker
// (vitest.mutate.config.ts runs files without isolation).
afterAll(() => sqsMock.restore());
const queues = { internal: 'https://sqs.local/internal', external: 'https://sqs.local/external' };
const context = {} as Context;
let db: Db;

beforeAll(async () => {
  ({ db } = await freshDb());
});
afterEach(() => {
  sqsMock.reset();
  vi.restoreAllMocks();
});

const event = (channel: string, occurredAt?: string) =>
  outboxEvent(channel, occurredAt ? { occurredAt } : {});

const write = async (events: OutboxEvent[]) => {
  for (const e of events) expect((await transact(db, [outboxPut(e)])).ok).toBe(true);
};

const item = async (e: OutboxEvent, on: Db = db) =>
  (await on.doc.send(new GetCommand({ TableName: on.tableName, Key: outbox.key(e) }))).Item!;

/** The Lambda stream record of the item as written (NewImage from the table itself). */
const streamRecord = async (e: OutboxEvent, seq: number) => insertRecord(await item(e), seq);

/** Every entry accepted, unless its event id is in `failing`. */
const acceptAll = (failing: Set<string> = new Set()) =>
  sqsMock.on(SendMessageBatchCommand).callsFake((input) => {
    const entries = input.Entries as { Id: string; MessageBody: string }[];
    const failed = entries.filter((x) => failing.has(JSON.parse(x.MessageBody).event_id));
    return {
      Successful: entries
        .filter((x) => !failed.includes(x))
        .map((x) => ({ Id: x.Id, MessageId: x.Id, MD5OfMessageBody: '' })),
      Failed: failed.map((x) => ({
        Id: x.Id,
        Code: 'KmsThrottled',
        SenderFault: false,
        Message: 'slow down',
      })),
    };
  });

const at = (iso: string): Clock => ({ now: () => new Date(iso) });
const sqs = () => new SQSClient({ region: 'us-east-1' });

const sentBodies = () =>
  sqsMock
    .commandCalls(SendMessageBatchCommand)
    .flatMap((c) => c.args[0].input.Entries!.map((x) => JSON.parse(x.MessageBody!) as OutboxEvent));

/**
 * Fair queues (issue 37): every entry the relay or the sweeper sent carries its event's tenant as
 * MessageGroupId, and the events span more than one tenant (a constant group would pass otherwise).
 */
const expectTenantGroups = () => {
  const entries = sqsMock.commandCalls(SendMessageBatchCommand).flatMap((c) => c.args[0].input.Entries!);
  expect(entries.length).toBeGreaterThan(0);
  for (const x of entries)
    expect(x.MessageGroupId).toBe((JSON.parse(x.MessageBody!) as OutboxEvent).tenant_id);
  expect(new Set(entries.map((x) => x.MessageGroupId)).size).toBeGreaterThan(1);
};

describe('outbox relay', () => {
  it('publishes 10 per call by queue and fails only the records whose entries failed', async () => {
    const events = [
      ...Array.from({ length: 11 }, () => event('webhook')),
      outboxEvent('in_app', { tenantId: 't2' }),
    ];
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
    expectTenantGroups();
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

describe('an entity snapshot in the outbox (a workflow event)', () => {
  // As workflowEventRecorded writes it: the entity as JSON text, well over the inline limit.
  const snapshotEvent = (): OutboxEvent => ({
    ...event('in_app'),
    kind: EVENT_KINDS.workflowEventRecorded,
    payload: {
      event_type: 'exception.created',
      entity_id: 'e1',
      entity_json: JSON.stringify({ id: 'e1', title: 'Payment short', summary: 'INV-1042 '.repeat(80) }),
    },
  });

  it('is stored deflated, under 1 KB, and published as written, from the table and from a Lambda event', async () => {
    const e = snapshotEvent();
    expect(JSON.stringify(e.payload).length).toBeGreaterThan(INLINE_PAYLOAD_MAX);
    await write([e]);
    const stored = await item(e);
    expect(stored.payload).toBeUndefined();
    // DynamoDB's item size: attribute names plus values (text in UTF-8 bytes, binary in bytes).
    const size = Object.entries(stored).reduce(
      (n, [k, v]) =>
        n + k.length + (v instanceof Uint8Array ? v.length : Buffer.byteLength(String(v), 'utf8')),
      0,
    );
    expect(size).toBeLessThan(1024);
    // The local poller hands the relay bytes; Lambda's stream event carries them as base64 text.
    const fromTable = insertRecord(stored, 1);
    const fromLambda = insertRecord(stored, 2);
    fromLambda.dynamodb!.NewImage!.payload_deflated = {
      B: Buffer.from(stored.payload_deflated as Uint8Array).toString('base64'),
    } as never;
    for (const record of [fromTable, fromLambda]) {
      sqsMock.reset();
      acceptAll();
      const out = await createRelay({ db, sqs: sqs(), queues, clock: systemClock })(
        { Records: [record] },
        context,
      );
      expect(out.batchItemFailures).toEqual([]);
      expect(sentBodies()).toEqual([e]);
    }
  });

  it('keeps a payload of ids as it is, readable in the console', async () => {
    const e = event('in_app');
    await write([e]);
    expect((await item(e)).payload).toEqual(e.payload);
  });
});

describe('outbox sweeper', () => {
  it('re-publishes items the relay lost, from the pending index, and only those', async () => {
    const { db: own } = await freshDb();
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const lost = [event('email', old), outboxEvent('in_app', { occurredAt: old, tenantId: 't2' })];
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
    expectTenantGroups();
    for (const e of lost) expect((await item(e)).gsi3pk).toBeUndefined();
    expect((await item(fresh)).gsi3pk).toBeDefined();
    sqsMock.resetHistory();
    expect(await sweeper()).toEqual({ republished: 0, failed: 0 });
    expect(sentBodies()).toHaveLength(0);
    expect(republishedMetric()).toEqual([2, 0]);
    addMetric.mockRestore();
  });
});

describe('a failed publish keeps its cause', () => {
  it('answers each failed event with an Error whose cause is the entry or the thrown error', async () => {
    const [inApp, telegram] = [event('in_app'), event('telegram')];
    const throttled = new Error('Rate exceeded');
    sqsMock
      .on(SendMessageBatchCommand, { QueueUrl: queues.external })
      .rejects(throttled)
      .on(SendMessageBatchCommand, { QueueUrl: queues.internal })
      .resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] });
    const failed = await publishEvents(sqs(), queues, [inApp, telegram]);
    expect(failed.get(telegram.event_id)?.cause).toBe(throttled);
    expect(failed.get(inApp.event_id)?.cause).toMatchObject({ Id: '0', Code: 'InternalError' });
    expect(failed.get(inApp.event_id)?.message).toMatch(/InternalError/);
  });

  it('the relay logs the cause and fails exactly those records for retry', async () => {
    const events = [event('in_app'), event('telegram')];
    await write(events);
    const records = await Promise.all(events.map((e, i) => streamRecord(e, 300 + i)));
    const throttled = new Error('Rate exceeded');
    sqsMock.on(SendMessageBatchCommand).rejects(throttled);
    const warn = vi.spyOn(logger, 'warn');
    const out = await createRelay({ db, sqs: sqs(), queues, clock: systemClock })(
      { Records: records },
      context,
    );
    expect(out.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
      records.map((r) => r.dynamodb!.SequenceNumber).sort(),
    );
    const logged = warn.mock.calls
      .map((c) => c[1] as { event?: string; event_id?: string; error?: Error })
      .filter((f) => f?.event === LOG_EVENTS.outboxRelayFailed);
    expect(logged.map((f) => f.event_id).sort()).toEqual(events.map((e) => e.event_id).sort());
    for (const f of logged) expect(f.error?.cause).toBe(throttled);
    for (const e of events) expect((await item(e)).gsi3pk).toBeDefined();
  });
});

describe('relay and sweeper side by side', () => {
  const T1 = '2030-01-01T00:00:01.000Z';
  const T2 = '2030-01-01T00:00:02.000Z';
  const T3 = '2030-01-01T00:00:03.000Z';

  it('racing over the same pending items, they publish each at least once and mark each once', async () => {
    const { db: own } = await freshDb();
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const events = Array.from({ length: 12 }, (_, i) => event(i % 3 ? 'webhook' : 'in_app', old));
    for (const e of events) expect((await transact(own, [outboxPut(e)])).ok).toBe(true);
    const records = await Promise.all(events.map(async (e, i) => insertRecord(await item(e, own), 500 + i)));
    acceptAll();
    const relay = createRelay({ db: own, sqs: sqs(), queues, clock: at(T1) });
    const sweeper = createSweeper({ db: own, sqs: sqs(), queues, clock: at(T2) }, 60_000);

    const [relayed, swept] = await Promise.all([relay({ Records: records }, context), sweeper()]);
    expect(relayed.batchItemFailures).toEqual([]);
    expect(swept.failed).toBe(0);
    const published = new Set(sentBodies().map((b) => b.event_id));
    for (const e of events) expect(published).toContain(e.event_id);
    const marks = new Map<string, unknown>();
    for (const e of events) {
      const stored = await item(e, own);
      expect(stored.gsi3pk).toBeUndefined();
      expect([T1, T2]).toContain(stored.relayed_at);
      marks.set(e.event_id, stored.relayed_at);
    }

    // A stream retry of the same records later: published again, but the first mark stands.
    const again = await createRelay({ db: own, sqs: sqs(), queues, clock: at(T3) })(
      { Records: records },
      context,
    );
    expect(again.batchItemFailures).toEqual([]);
    for (const e of events) expect((await item(e, own)).relayed_at).toBe(marks.get(e.event_id));
    expect(await sweeper()).toEqual({ republished: 0, failed: 0 });
  });

  it('a publish failure in the sweeper leaves the item pending for the next sweep', async () => {
    const { db: own } = await freshDb();
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const [lost, ok] = [event('email', old), event('sms', old)];
    for (const e of [lost, ok]) expect((await transact(own, [outboxPut(e)])).ok).toBe(true);
    acceptAll(new Set([lost.event_id]));
    const warn = vi.spyOn(logger, 'warn');
    const sweeper = createSweeper({ db: own, sqs: sqs(), queues, clock: systemClock }, 60_000);
    expect(await sweeper()).toEqual({ republished: 1, failed: 1 });
    expect((await item(lost, own)).gsi3pk).toBeDefined();
    expect((await item(lost, own)).relayed_at).toBeUndefined();
    expect((await item(ok, own)).gsi3pk).toBeUndefined();
    const logged = warn.mock.calls
      .map((c) => c[1] as { event?: string; event_id?: string; error?: Error })
      .find((f) => f?.event === LOG_EVENTS.outboxRelayFailed);
    expect(logged).toMatchObject({ event_id: lost.event_id, error: { cause: { Code: 'KmsThrottled' } } });

    sqsMock.reset();
    acceptAll();
    expect(await sweeper()).toEqual({ republished: 1, failed: 0 });
    expect(sentBodies().map((b) => b.event_id)).toEqual([lost.event_id]);
    expect((await item(lost, own)).gsi3pk).toBeUndefined();
  });
});
