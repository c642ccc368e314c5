import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from '#shared/domain/audit';
import type {
  Channel,
  ChannelState,
  ClaimResult,
  DeliveryStore,
  Notification,
  NotificationStore,
  ReviewItem,
} from '#shared/domain/notifications/ports';
import { NOTIFICATION_FIELDS, REVIEW_ITEM_FIELDS } from '#shared/api/schemas/notifications';
import { ENTITY } from '#shared/table/table';
import * as keys from '#shared/table/keys';
import { auditPut } from './audit-store';
import { type Db, pick, putNew, queryPage, transact, type WriteOp } from './dynamo';
import { outboxPut } from './outbox';

const toNotification = (item: Record<string, unknown>) =>
  pick(item, NOTIFICATION_FIELDS) as unknown as Notification;
const toReview = (item: Record<string, unknown>) => pick(item, REVIEW_ITEM_FIELDS) as unknown as ReviewItem;

/** How long a consumed idempotency key is remembered: longer than the DLQ keeps a message. */
const CONSUMED_RETENTION_SECONDS = 15 * 24 * 3600;

const notificationItem = (n: Notification) => ({
  ...keys.notification(n.tenant_id, n.id),
  ...keys.notificationStatusIndex(n.tenant_id, n.status, n.id),
  ...keys.notificationChannelIndex(n.tenant_id, n.channel, n.id),
  entity: ENTITY.notification,
  ...n,
});

const reviewItem = (r: ReviewItem) => ({
  ...keys.reviewItem(r.tenant_id, r.id),
  ...keys.reviewItemStatusIndex(r.tenant_id, r.status, r.id),
  entity: ENTITY.reviewItem,
  ...r,
});

const putIfStatus = (item: Record<string, unknown>, expected: string): WriteOp => ({
  Put: {
    Item: item,
    ConditionExpression: '#status = :expected',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':expected': expected },
  },
});

const isConditionFailure = (err: unknown) => err instanceof ConditionalCheckFailedException;

/** Notifications, review items, channel switches and consumer claims over the one table. */
export const notificationStore = (db: Db): NotificationStore & DeliveryStore => {
  const get = async (key: { pk: string; sk: string }) =>
    (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }))).Item;

  const releaseClaim = (key: string): WriteOp => ({ Delete: { Key: keys.consumed(key) } });

  return {
    async create(n, audit, outbox) {
      const ops = [putNew(notificationItem(n)), auditPut(audit)];
      if (outbox) ops.push(outboxPut(outbox));
      const result = await transact(db, ops);
      if (!result.ok) throw new Error('notification id collision');
    },

    async get(tenantId, id) {
      const item = await get(keys.notification(tenantId, id));
      return item ? toNotification(item) : undefined;
    },

    list(tenantId, filter, page) {
      const scope = { list: 'notifications', tenant_id: tenantId, ...filter };
      const common = { scope, page, map: toNotification };
      if (filter.status) {
        const { gsi1pk } = keys.notificationStatusIndex(tenantId, filter.status, '');
        return queryPage(db, {
          ...common,
          index: 'gsi1',
          partition: gsi1pk,
          filters: { channel: filter.channel, recipient: filter.recipient },
        });
      }
      if (filter.channel) {
        const { gsi2pk } = keys.notificationChannelIndex(tenantId, filter.channel, '');
        return queryPage(db, {
          ...common,
          index: 'gsi2',
          partition: gsi2pk,
          filters: { recipient: filter.recipient },
        });
      }
      return queryPage(db, {
        ...common,
        partition: keys.notification(tenantId, '').pk,
        filters: { recipient: filter.recipient },
      });
    },

    async channelState(tenantId, channel) {
      const item = await get(keys.channelConnection(tenantId, channel));
      return item ? (item.status as ChannelState) : undefined;
    },

    async isMember(tenantId, userId) {
      return (await get(keys.member(tenantId, userId))) !== undefined;
    },

    async getReviewItem(tenantId, id) {
      const item = await get(keys.reviewItem(tenantId, id));
      return item ? toReview(item) : undefined;
    },

    listReviewItems(tenantId, filter, page) {
      const scope = { list: 'review-items', tenant_id: tenantId, ...filter };
      if (filter.status) {
        const { gsi1pk } = keys.reviewItemStatusIndex(tenantId, filter.status, '');
        return queryPage(db, { scope, page, map: toReview, index: 'gsi1', partition: gsi1pk });
      }
      return queryPage(db, { scope, page, map: toReview, partition: keys.reviewItem(tenantId, '').pk });
    },

    async decide(n, expected, review, audit, outbox) {
      const ops = [
        putIfStatus(notificationItem(n), expected),
        putIfStatus(reviewItem(review), 'open'),
        auditPut(audit),
      ];
      if (outbox) ops.push(outboxPut(outbox));
      return (await transact(db, ops)).ok;
    },

    async claim(n, key, leaseUntil, now): Promise<ClaimResult> {
      const result = await transact(db, [
        {
          Put: {
            Item: {
              ...keys.consumed(key),
              entity: ENTITY.consumed,
              state: 'in_progress',
              lease_until: leaseUntil,
            },
            ConditionExpression: 'attribute_not_exists(pk) OR (#state = :inp AND lease_until < :now)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':inp': 'in_progress', ':now': now },
          },
        },
        { Put: { Item: notificationItem({ ...n, status: 'delivering', updated_at: now }) } },
      ]);
      if (result.ok) return 'claimed';
      const existing = await get(keys.consumed(key));
      return existing?.state === 'done' ? 'done' : 'busy';
    },

    async delivered(n, audit, key) {
      const ops: WriteOp[] = [
        { Put: { Item: notificationItem(n) } },
        auditPut(audit),
        {
          Put: {
            Item: {
              ...keys.consumed(key),
              entity: ENTITY.consumed,
              state: 'done',
              done_at: n.delivered_at,
              ttl: Math.floor(Date.now() / 1000) + CONSUMED_RETENTION_SECONDS,
            },
          },
        },
      ];
      if (n.channel === 'in_app') {
        ops.push({
          Put: {
            Item: {
              ...keys.inboxItem(n.tenant_id, n.recipient, n.id),
              entity: ENTITY.inboxItem,
              tenant_id: n.tenant_id,
              user_id: n.recipient,
              notification_id: n.id,
              subject: n.subject,
              body: n.body,
              created_at: n.delivered_at,
              read_at: null,
            },
          },
        });
      }
      const result = await transact(db, ops);
      if (!result.ok) throw new Error('delivered write failed a condition');
    },

    async failed(n: Notification, audit: AuditEvent, key: string, review: ReviewItem | null) {
      const ops: WriteOp[] = [{ Put: { Item: notificationItem(n) } }, auditPut(audit), releaseClaim(key)];
      if (review) ops.push(putNew(reviewItem(review)));
      const result = await transact(db, ops);
      if (!result.ok) throw new Error('failure write failed a condition');
    },

    async resolveReview(tenantId, reviewItemId, at) {
      const item = await get(keys.reviewItem(tenantId, reviewItemId));
      if (item?.status !== 'open') return;
      const next = { ...toReview(item), status: 'resolved' as const, updated_at: at };
      try {
        await db.doc.send(
          new PutCommand({
            TableName: db.tableName,
            Item: reviewItem(next),
            ConditionExpression: '#status = :open',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':open': 'open' },
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    },
  };
};

/**
 * A tenant's switch for a notification channel. The integration hub (a later issue) owns the
 * public API that flips it; the delivery path only reads it.
 */
export async function setChannelState(
  db: Db,
  tenantId: string,
  channel: Channel,
  status: 'active' | 'disabled',
) {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.channelConnection(tenantId, channel),
      UpdateExpression: 'SET entity = :e, tenant_id = :t, channel = :c, #status = :s, updated_at = :at',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':e': ENTITY.channelConnection,
        ':t': tenantId,
        ':c': channel,
        ':s': status,
        ':at': new Date().toISOString(),
      },
    }),
  );
}
