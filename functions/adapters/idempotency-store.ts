import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, type PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { idempotency } from '#shared/table/entities/idempotency';
import type { IdempotencyRecord, IdempotencyRecordId, IdempotencyStore } from '#functions/http/idempotency';
import type { Db } from './dynamo';

/**
 * `Idempotency-Key` records in the service table, at `IDEMPOTENCY#<scope>#<operation>#<keyHash>`,
 * with the answer to replay in the record itself; the table's TTL removes expired ones.
 */
export function idempotencyStore(db: Db): IdempotencyStore {
  const Key = (id: IdempotencyRecordId) =>
    idempotency.key({ scope: id.scope, operation: id.operation, key_hash: id.keyHash });
  const put = (id: IdempotencyRecordId, record: IdempotencyRecord, condition?: Partial<PutCommandInput>) =>
    db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...Key(id), entity: idempotency.entity, ...record },
        ...condition,
      }),
    );
  return {
    async claim(id, record, nowSeconds) {
      try {
        await put(id, record, {
          ConditionExpression:
            'attribute_not_exists(pk) OR #ttl < :now OR (#state = :inp AND lease_until < :now)',
          ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
          ExpressionAttributeValues: { ':now': nowSeconds, ':inp': 'in_progress' },
        });
        return true;
      } catch (err) {
        if (err instanceof ConditionalCheckFailedException) return false;
        throw err;
      }
    },
    async get(id) {
      const { Item } = await db.doc.send(
        new GetCommand({ TableName: db.tableName, Key: Key(id), ConsistentRead: true }),
      );
      return Item as IdempotencyRecord | undefined;
    },
    async put(id, record) {
      await put(id, record);
    },
    async delete(id) {
      await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: Key(id) }));
    },
  };
}
