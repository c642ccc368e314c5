import { deserialize, serialize } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { idempotency } from '#shared/table/entities/idempotency';
import type { HttpResponse } from '#functions/http/context';
import type { IdempotencyRecord, IdempotencyRecordId, IdempotencyStore } from '#functions/http/idempotency';
import type { PendingWrite } from '#functions/http/write-outcome';
import type { Db } from './dynamo';
import { RESOLVE_BUDGET_MS, resolvePending } from './transact';
import { getItem, putOnly } from './records';

/**
 * `Idempotency-Key` records in the service table, at `IDEMPOTENCY#<scope>#<operation>#<keyHash>`,
 * with the answer to replay in the record itself; the table's TTL removes expired ones.
 *
 * DynamoDB refuses an item over 400 KB, and an answer can be twice its request (every `\` or `"`
 * of a JSON string field is escaped again when the record holding it is serialised), so a 256 KiB
 * request can answer 500 KB. Bodies over `COMPRESS_ABOVE_BYTES` are therefore stored gzipped:
 * the escape-heavy 492 KB answer to a 246 KB exception stores as under 1 KB, and the worst case
 * measured for a 256 KiB request (random printable text, nothing to escape) as about 220 KB
 * (tests/connected/idempotency.test.ts measures both).
 */

const COMPRESS_ABOVE_BYTES = 32 * 1024;
/** DynamoDB's item limit (400 KB, names and values), less room for the estimate's error. */
const MAX_ITEM_BYTES = 390 * 1024;

/** How the answer lies in the item: the body as text, or gzipped. */
type StoredResponse = Omit<HttpResponse, 'body'> & { body?: string; body_gzip?: Uint8Array };

const toStored = ({ body, ...rest }: HttpResponse): StoredResponse =>
  body !== undefined && Buffer.byteLength(body) > COMPRESS_ABOVE_BYTES
    ? { ...rest, body_gzip: gzipSync(body) }
    : { ...rest, ...(body === undefined ? {} : { body }) };

const fromStored = ({ body_gzip, ...rest }: StoredResponse): HttpResponse =>
  body_gzip ? { ...rest, body: gunzipSync(body_gzip).toString('utf8') } : rest;

/** An upper bound of an item's size: its JSON without the gzipped bytes, plus those bytes. */
const itemBytes = (item: { response?: StoredResponse; pending_gzip?: Uint8Array }) =>
  Buffer.byteLength(
    JSON.stringify(item, (key, value: unknown) =>
      key === 'body_gzip' || key === 'pending_gzip' ? undefined : value,
    ),
  ) +
  (item.response?.body_gzip?.length ?? 0) +
  (item.pending_gzip?.length ?? 0);

export function idempotencyStore(db: Db): IdempotencyStore {
  const Key = (id: IdempotencyRecordId) =>
    idempotency.key({ scope: id.scope, operation: id.operation, key_hash: id.keyHash });
  const itemOf = (id: IdempotencyRecordId, { response, pending, ...record }: IdempotencyRecord) => ({
    ...Key(id),
    entity: idempotency.entity,
    ...record,
    ...(response ? { response: toStored(response) } : {}),
    // Structured-clone bytes keep the items' sets and binary values as the transaction held them.
    ...(pending ? { pending_gzip: gzipSync(serialize(pending)) } : {}),
  });
  return {
    claim: (id, record, nowSeconds) =>
      putOnly(db, itemOf(id, record), {
        ConditionExpression:
          'attribute_not_exists(pk) OR #ttl < :now OR (#state = :inp AND lease_until < :now AND attribute_not_exists(pending_gzip))',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':inp': 'in_progress' },
      }),
    async get(id) {
      const Item = await getItem(db, Key(id));
      if (!Item) return undefined;
      const { response, pending_gzip, ...record } = Item as IdempotencyRecord & {
        response?: StoredResponse;
        pending_gzip?: Uint8Array;
      };
      return {
        ...record,
        ...(response ? { response: fromStored(response) } : {}),
        ...(pending_gzip ? { pending: deserialize(gunzipSync(pending_gzip)) as PendingWrite } : {}),
      };
    },
    async put(id, record) {
      const item = itemOf(id, record);
      if (itemBytes(item) > MAX_ITEM_BYTES) return false;
      await db.doc.send(new PutCommand({ TableName: db.tableName, Item: item }));
      return true;
    },
    async delete(id) {
      await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: Key(id) }));
    },
    async resolve(pending) {
      try {
        return await resolvePending(db, pending, Date.now() + RESOLVE_BUDGET_MS, { immediately: true });
      } catch (err) {
        if ((err as { name?: string }).name === 'TransactionCanceledException') return 'not_committed';
        throw err;
      }
    },
  };
}
