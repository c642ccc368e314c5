import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { exception } from '#shared/table/entities/exception';
import { storedReviewItem } from '#shared/table/entities/review-item';
import { keyAttributes } from '#shared/table/table';
import type { Db } from './dynamo';

/**
 * The index keys an item written before its entity's index existed is missing, computed by the
 * entity's declaration: the exception's status index (gsi1) and type index (gsi3), and the review
 * item's kind index (docs/decisions.md, lists at any size). Undefined when it misses none.
 */
const missingKeys = (item: Record<string, unknown>) => {
  const full =
    item.entity === 'exception'
      ? exception.item(item as never)
      : item.entity === 'review_item'
        ? storedReviewItem(item as never)
        : undefined;
  if (!full) return undefined;
  const indexes =
    item.entity === 'exception' ? [keyAttributes('gsi1'), keyAttributes('gsi3')] : [keyAttributes('gsi2')];
  const keys: Record<string, unknown> = {};
  for (const index of indexes) {
    if (item[index.partitionKey] !== undefined || full[index.partitionKey] === undefined) continue;
    keys[index.partitionKey] = full[index.partitionKey];
    keys[index.sortKey] = full[index.sortKey];
  }
  return Object.keys(keys).length > 0 ? keys : undefined;
};

/**
 * One pass over the table (a Scan: an operator's one-off step after deploying the new indexes,
 * never a request path) that gives every exception and review item its missing index keys. Each
 * Update is conditional on the status it read, so a status change racing the pass is not
 * overwritten with a stale key; such an item already has its keys from that change. Returns how
 * many items it updated.
 */
export async function backfillIndexKeys(db: Db): Promise<number> {
  let updated = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.doc.send(
      new ScanCommand({
        TableName: db.tableName,
        FilterExpression: '#entity IN (:exception, :review)',
        ExpressionAttributeNames: { '#entity': 'entity' },
        ExpressionAttributeValues: { ':exception': 'exception', ':review': 'review_item' },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const keys = missingKeys(item);
      if (!keys) continue;
      const names = Object.keys(keys);
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: `SET ${names.map((_, i) => `#k${i} = :k${i}`).join(', ')}`,
            ConditionExpression: '#status = :status',
            ExpressionAttributeNames: {
              '#status': 'status',
              ...Object.fromEntries(names.map((n, i) => [`#k${i}`, n])),
            },
            ExpressionAttributeValues: {
              ':status': item.status,
              ...Object.fromEntries(names.map((n, i) => [`:k${i}`, keys[n]])),
            },
          }),
        );
        updated++;
      } catch (err) {
        if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return updated;
}
