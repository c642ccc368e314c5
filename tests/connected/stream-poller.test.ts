import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transact } from '#functions/adapters/transact';
import { outboxPut } from '#functions/adapters/outbox';
import { startStreamPoller } from '#local/stream-poller';
import { dynamoEndpoint, freshDb } from '#tests/support/db';
import { outboxEvent } from '#tests/support/outbox';

/**
 * Connected: the local poller over DynamoDB Local's real stream hands the relay what Lambda would
 * (issue 11 leftover: an empty map in an image used to fail the whole batch).
 */

let stop: (() => Promise<void>) | undefined;
afterAll(async () => stop?.());

describe('local stream poller', () => {
  const received: Record<string, unknown>[] = [];
  let write: (payload: Record<string, unknown>) => Promise<string>;

  beforeAll(async () => {
    const { db } = await freshDb();
    const poller = await startStreamPoller({
      endpoint: dynamoEndpoint(),
      tableName: db.tableName,
      context: () => ({}) as Context,
      // As the relay does: unmarshall every image of the batch, or fail it.
      handler: async (event: DynamoDBStreamEvent) => {
        for (const r of event.Records) received.push(unmarshall(r.dynamodb!.NewImage as never));
        return { batchItemFailures: [] };
      },
      pollMs: 10,
    });
    stop = poller.stop;
    write = async (payload) => {
      const e = { ...outboxEvent('in_app'), payload };
      expect((await transact(db, [outboxPut(e)])).ok).toBe(true);
      return e.event_id;
    };
  });

  const arrival = async (eventId: string) => {
    const deadline = Date.now() + 25_000;
    while (Date.now() < deadline) {
      const found = received.find((i) => i.event_id === eventId);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    return undefined;
  };

  it('hands over an image holding empty maps, at any depth, as empty maps', async () => {
    const id = await write({ changes: {}, nested: { inner: {} }, list: [{}] });
    const item = await arrival(id);
    expect(item?.payload).toEqual({ changes: {}, nested: { inner: {} }, list: [{}] });
  });
});

describe('local stream poller, busy', () => {
  it('reads on at once while the stream has records, sleeping only when idle', async () => {
    const { db } = await freshDb();
    // More than one GetRecords page (Limit 100) is waiting before the poller starts.
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const events = Array.from({ length: 25 }, () => outboxEvent('in_app'));
      expect((await transact(db, events.map(outboxPut))).ok).toBe(true);
      ids.push(...events.map((e) => e.event_id));
    }
    const seen = new Set<string>();
    const started = Date.now();
    const poller = await startStreamPoller({
      endpoint: dynamoEndpoint(),
      tableName: db.tableName,
      context: () => ({}) as Context,
      handler: async (event: DynamoDBStreamEvent) => {
        for (const r of event.Records) seen.add(String(r.dynamodb!.NewImage!.event_id!.S));
        return { batchItemFailures: [] };
      },
      pollMs: 10_000,
    });
    try {
      while (seen.size < ids.length && Date.now() - started < 8_000)
        await new Promise((r) => setTimeout(r, 20));
      // With a sleep after every read the second page would wait for the 10 s idle interval.
      expect(seen.size).toBe(ids.length);
    } finally {
      await poller.stop();
    }
  });
});
