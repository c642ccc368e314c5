import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OutboxEvent } from '#shared/domain/outbox';
import { outbox, OUTBOX_PENDING_SHARDS } from '#shared/table/entities/outbox';
import { below, queryFrom } from './query';
import type { Db } from './dynamo';
import { putNew } from './records';
import { transact, type WriteOp } from './transact';

/** How long a relayed outbox item stays readable (for debugging) before TTL removes it. */
export const RELAYED_RETENTION_SECONDS = 7 * 24 * 3600;

const shardOf = (eventId: string): number => {
  let h = 0;
  for (const c of eventId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % OUTBOX_PENDING_SHARDS;
};

/**
 * Payloads longer than this (as JSON) are stored deflated: a workflow event's entity snapshot
 * (1 KB and more) would otherwise make the item, and its pending-index copy, cost twice the write
 * units (docs/performance.md). Payloads of ids stay as they are, readable in the console.
 */
export const INLINE_PAYLOAD_MAX = 256;

/** The outbox Put that rides in the same TransactWriteItems as the change it announces. */
export const outboxPut = (e: OutboxEvent): WriteOp => {
  const { payload, ...envelope } = e;
  const json = JSON.stringify(payload);
  const stored = json.length > INLINE_PAYLOAD_MAX ? { payload_deflated: deflateRawSync(json) } : { payload };
  return putNew(outbox.item({ ...envelope, ...stored }, { ...e, shard: shardOf(e.event_id) }));
};

/**
 * A deflated payload as the table gives it (bytes) or as a Lambda stream event carries it
 * (base64 text), back to the payload.
 */
const inflated = (value: unknown): Record<string, unknown> =>
  JSON.parse(
    inflateRawSync(typeof value === 'string' ? Buffer.from(value, 'base64') : (value as Uint8Array)).toString(
      'utf8',
    ),
  ) as Record<string, unknown>;

export const toOutboxEvent = (item: Record<string, unknown>): OutboxEvent => ({
  event_id: String(item.event_id),
  kind: String(item.kind),
  tenant_id: String(item.tenant_id),
  idempotency_key: String(item.idempotency_key),
  occurred_at: String(item.occurred_at),
  payload:
    item.payload_deflated === undefined
      ? ((item.payload ?? {}) as Record<string, unknown>)
      : inflated(item.payload_deflated),
});

/** One outbox event on its own, outside any transaction (a timer's firing that only asks for a run). */
export async function putOutboxEvent(db: Db, e: OutboxEvent): Promise<void> {
  const ok = await transact(db, [outboxPut(e)]);
  if (!ok.ok) throw new Error(`outbox event ${e.event_id} was not written`);
}

/**
 * Marks an item relayed: it leaves the sparse pending index and expires later. Idempotent, and
 * harmless when the relay and the sweeper both publish it.
 */
export async function markRelayed(db: Db, eventId: string, at: Date): Promise<void> {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: outbox.key({ event_id: eventId }),
      UpdateExpression: 'REMOVE gsi3pk, gsi3sk SET relayed_at = if_not_exists(relayed_at, :at), #ttl = :ttl',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':at': at.toISOString(),
        ':ttl': Math.floor(at.getTime() / 1000) + RELAYED_RETENTION_SECONDS,
      },
    }),
  );
}

/** Every pending item older than `cutoff`, shard by shard, page by page (a Query, never a Scan). */
export async function* pendingOlderThan(db: Db, cutoff: string): AsyncGenerator<OutboxEvent> {
  for (let shard = 0; shard < OUTBOX_PENDING_SHARDS; shard++) {
    const pending = { ...outbox.query('gsi3', { shard }), sortCondition: below(cutoff), forward: true };
    let start: Record<string, unknown> | undefined;
    do {
      const out = await queryFrom(db, pending, start, 100);
      for (const item of out.Items ?? []) yield toOutboxEvent(item);
      start = out.LastEvaluatedKey;
    } while (start);
  }
}
