import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { InboxCategory, InboxItem, InboxOwner, InboxStore } from '#shared/domain/inbox/ports';
import { inboxItem, inboxItemRecord, storedInboxItem } from '#shared/table/entities/inbox-item';
import { reader } from '#shared/table/entity';
import { keyAttributes } from '#shared/table/table';
import type { Db } from './dynamo';
import { queryFrom, queryPage } from './query';
import { getItem, isConditionFailure } from './records';

const toItem = /* @__PURE__ */ reader<InboxItem>()(inboxItemRecord);

/** How many items `readAll` marks at once (each its own conditional UpdateItem). */
const READ_ALL_PARALLEL = 25;

/** The sparse keys an unread item carries and a read one does not. */
const UNREAD_KEYS = [keyAttributes('gsi1'), keyAttributes('gsi3')].flatMap((k) => [
  k.partitionKey,
  k.sortKey,
]);

/**
 * The in-app inbox on the single table (shared/table/entities/inbox-item.ts): every list is a key
 * condition (the member's partition, the unread index, the category index, the unread index of a
 * category), and read-only items are the member's partition filtered by `read_state`.
 */
export const inboxStore = (db: Db): InboxStore => {
  const get = (owner: InboxOwner, notificationId: string) =>
    getItem(db, inboxItem.key({ ...owner, notification_id: notificationId }));

  return {
    list(owner, { unread, category }, page) {
      const scope = {
        list: 'inbox',
        ...owner,
        unread: unread === undefined ? undefined : String(unread),
        category,
      };
      const common = { scope, page, map: toItem };
      if (unread === true) {
        return queryPage(db, {
          ...common,
          ...(category
            ? inboxItem.query('gsi3', { ...owner, unread_category: category })
            : inboxItem.query('gsi1', owner)),
        });
      }
      return queryPage(db, {
        ...common,
        ...(category ? inboxItem.query('gsi2', { ...owner, category }) : inboxItem.query('table', owner)),
        filters: { read_state: unread === false ? 'read' : undefined },
      });
    },

    async unreadByCategory(owner) {
      const counts: Partial<Record<InboxCategory, number>> = {};
      const query = { ...inboxItem.query('gsi1', owner) };
      let start: Record<string, unknown> | undefined;
      do {
        const out = await queryFrom(db, query, start);
        for (const item of out.Items ?? []) {
          const category = item.category as InboxCategory;
          counts[category] = (counts[category] ?? 0) + 1;
        }
        start = out.LastEvaluatedKey;
      } while (start);
      return counts;
    },

    async mark(owner, notificationId, readAt) {
      const stored = await get(owner, notificationId);
      if (!stored) return undefined;
      const current = toItem(stored);
      if ((current.read_at === null) === (readAt === null)) return current;
      // The record alone: the stored item's index keys are the state being left.
      const next = { ...owner, ...current, read_at: readAt, read_state: readAt === null ? 'unread' : 'read' };
      try {
        await db.doc.send(
          new PutCommand({
            TableName: db.tableName,
            Item: storedInboxItem(next),
            // Only over the state it read: of a read and an unread racing, one wins.
            ConditionExpression:
              current.read_at === null ? 'attribute_type(read_at, :null)' : 'read_at = :read',
            ExpressionAttributeValues:
              current.read_at === null ? { ':null': 'NULL' } : { ':read': current.read_at },
          }),
        );
        return toItem(next);
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const now = await get(owner, notificationId);
        return now ? toItem(now) : undefined;
      }
    },

    async readAll(owner, category, readAt) {
      const query = category
        ? inboxItem.query('gsi3', { ...owner, unread_category: category })
        : inboxItem.query('gsi1', owner);
      let updated = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const out = await db.doc.send(
          new QueryCommand({
            TableName: db.tableName,
            IndexName: query.index,
            KeyConditionExpression: '#pk = :pk',
            ExpressionAttributeNames: { '#pk': keyAttributes(query.index!).partitionKey },
            ExpressionAttributeValues: { ':pk': query.partition },
            ProjectionExpression: 'pk, sk',
            Limit: READ_ALL_PARALLEL,
            ExclusiveStartKey: start,
          }),
        );
        const results = await Promise.all(
          (out.Items ?? []).map(async (item) => {
            try {
              await db.doc.send(
                new UpdateCommand({
                  TableName: db.tableName,
                  Key: { pk: item.pk, sk: item.sk },
                  UpdateExpression: `SET read_at = :at, read_state = :read REMOVE ${UNREAD_KEYS.join(', ')}`,
                  // Unread still (the index may lag a change): an item read meanwhile is not counted.
                  ConditionExpression: 'attribute_type(read_at, :null)',
                  ExpressionAttributeValues: { ':at': readAt, ':read': 'read', ':null': 'NULL' },
                }),
              );
              return 1;
            } catch (err) {
              if (isConditionFailure(err)) return 0;
              throw err;
            }
          }),
        );
        updated += results.reduce<number>((a, b) => a + b, 0);
        start = out.LastEvaluatedKey;
      } while (start);
      return updated;
    },
  };
};
