import { gunzipSync, gzipSync } from 'node:zlib';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { idempotency } from '#shared/table/entities/idempotency';
import type { HttpResponse } from '#functions/http/context';
import type { IdempotencyRecord, IdempotencyRecordId, IdempotencyStore } from '#functions/http/idempotency';
import type { Db } from './dynamo';
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

/** An upper bound of an item's size: its JSON without the gzipped body, plus that body's bytes. */
const itemBytes = (item: { response?: StoredResponse }) =>
  Buffer.byteLength(
    JSON.stringify(item, (key, value: unknown) => (key === 'body_gzip' ? undefined : value)),
  ) + (item.response?.body_gzip?.length ?? 0);

export function idempotencyStore(db: Db): IdempotencyStore {
  const Key = (id: IdempotencyRecordId) =>
    idempotency.key({ scope: id.scope, operation: id.operation, key_hash: id.keyHash });
  const itemOf = (id: IdempotencyRecordId, { response, ...record }: IdempotencyRecord) => ({
    ...Key(id),
    entity: idempotency.entity,
    ...record,
    ...(response ? { response: toStored(response) } : {}),
  });
  return {
    claim: (id, record, nowSeconds) =>
      putOnly(db, itemOf(id, record), {
        ConditionExpression:
          'attribute_not_exists(pk) OR #ttl < :now OR (#state = :inp AND lease_until < :now)',
        ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':inp': 'in_progress' },
      }),
    async get(id) {
      const Item = await getItem(db, Key(id));
      if (!Item) return undefined;
      const { response, ...record } = Item as IdempotencyRecord & { response?: StoredResponse };
      return response ? { ...record, response: fromStored(response) } : record;
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
  };
}
