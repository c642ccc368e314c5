import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import type {
  ChannelState,
  DraftHolds,
  ClaimResult,
  DeliveryStore,
  Notification,
  NotificationStore,
  ReviewItem,
} from '#shared/domain/notifications/ports';
import { adapterConnection } from '#shared/table/entities/adapter-connection';
import { consumed } from '#shared/table/entities/consumed';
import { storedInboxItem } from '#shared/table/entities/inbox-item';
import { member } from '#shared/table/entities/member';
import { reader } from '#shared/table/entity';
import { notification, notificationRecord } from '#shared/table/entities/notification';
import { preferences } from '#shared/table/entities/preferences';
import { reviewItem, storedReviewItem } from '#shared/table/entities/review-item';
import { toPreferences } from './preferences-store';
import { createWith, dedupePut } from './notification-holds';
import { tenantZones } from './tenant-zone';
import { timerPut } from './timer-store';
import { auditPut } from './audit-store';
import { beginsWith, queryPage } from './query';
import type { Db } from './dynamo';
import { getItem, getRecord, putIfStatus, putNew, putOnly, statusIs } from './records';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { toReviewItem as toReview } from './review-items';

const readNotification = /* @__PURE__ */ reader<Notification>()(notificationRecord);
/** A notification stored before notifications had a category and a priority was `general` and `normal`. */
const toNotification = (item: Readonly<Record<string, unknown>>) =>
  readNotification({ category: 'general', priority: 'normal', ...item });

/** How long a consumed idempotency key is remembered: longer than the DLQ keeps a message. */
const CONSUMED_RETENTION_SECONDS = 15 * 24 * 3600;

/** Where `delivered` puts the consumed key among its writes. */
const CONSUMED_OP = 2;

/** A key no one consumed, or whose holder's lease ran out by `now`, may be claimed. */
const claimable = (now: string) => ({
  ConditionExpression: 'attribute_not_exists(pk) OR (#state = :inp AND lease_until < :now)',
  ExpressionAttributeNames: { '#state': 'state' },
  ExpressionAttributeValues: { ':inp': 'in_progress', ':now': now },
});

/**
 * A drafted notification's writes (the record, its audit event, its outbox event when queued), for
 * the transaction of the change that drafts it: its own create, or an escalation level's.
 */
export const notificationWrites = (
  n: Notification,
  audit: AuditEvent,
  outbox: OutboxEvent | null,
  holds: DraftHolds = {},
): WriteOp[] => [
  putNew(notification.item(n)),
  auditPut(audit),
  ...(outbox ? [outboxPut(outbox)] : []),
  ...(holds.timer ? [timerPut(holds.timer)] : []),
  // Last, so that a failed transaction tells whether the window was held (createWith).
  ...(holds.dedupe ? [dedupePut(holds.dedupe)] : []),
];

/** Notifications, review items, channel states and consumer claims over the one table. */
export const notificationStore = (db: Db): NotificationStore & DeliveryStore => {
  const get = (key: Parameters<typeof getItem>[1]) => getItem(db, key);

  /** Why a claim's condition failed: the key is consumed, or another holder's lease runs. */
  const claimLost = async (key: string): Promise<ClaimResult> => {
    const existing = await get(consumed.key({ idempotency_key: key }));
    return existing?.state === 'done' ? 'done' : 'busy';
  };

  const releaseClaim = (key: string): WriteOp => ({
    Delete: { Key: consumed.key({ idempotency_key: key }) },
  });

  return {
    create: (n, audit, outbox, holds) =>
      createWith(db, notificationWrites(n, audit, outbox, holds), holds?.dedupe),

    get: (tenantId, id) => getRecord(db, notification.key({ tenant_id: tenantId, id }), toNotification),

    list(tenantId, filter, page) {
      const scope = { list: 'notifications', tenant_id: tenantId, ...filter };
      const common = { scope, page, map: toNotification };
      const { status, channel, recipient } = filter;
      if (status) {
        return queryPage(db, {
          ...common,
          ...notification.query('gsi1', { tenant_id: tenantId, status }),
          filters: { channel, recipient },
        });
      }
      return queryPage(db, {
        ...common,
        ...(channel
          ? notification.query('gsi2', { tenant_id: tenantId, channel })
          : notification.query('table', { tenant_id: tenantId })),
        filters: { recipient },
      });
    },

    async channelState(tenantId, channel) {
      // A notification adapter's key is its channel (shared/domain/integrations/catalog.ts).
      const item = await get(adapterConnection.key({ tenant_id: tenantId, adapter_key: channel }));
      return item ? (item.status as ChannelState) : undefined;
    },

    async memberRecipient(tenantId, userId) {
      const [found, prefs] = await Promise.all([
        get(member.key({ tenant_id: tenantId, user_id: userId })),
        get(preferences.key({ tenant_id: tenantId, user_id: userId })),
      ]);
      if (!found) return undefined;
      const read = prefs ? toPreferences(prefs) : null;
      // The tenant's zone only when quiet hours need it: most members have none.
      const timeZone =
        read?.quiet_hours && !read.quiet_hours.timezone
          ? await tenantZones(db).timeZoneOf(tenantId)
          : undefined;
      return { email: String(found.email), preferences: read, ...(timeZone && { timeZone }) };
    },

    async isMember(tenantId, userId) {
      return (await get(member.key({ tenant_id: tenantId, user_id: userId }))) !== undefined;
    },

    getReviewItem: (tenantId, id) => getRecord(db, reviewItem.key({ tenant_id: tenantId, id }), toReview),

    /**
     * Each filter a key condition: the status (gsi1), the kind (gsi2), an open kind (the sparse
     * gsi3, the tenant as its sort key prefix); a kind with a decided status reads the kind's
     * index and filters the status (decided items are most of a kind's history).
     */
    listReviewItems(tenantId, filter, page) {
      const scope = { list: 'review-items', tenant_id: tenantId, ...filter };
      const common = { scope, page, map: toReview };
      const { status, kind } = filter;
      if (kind && status === 'open') {
        return queryPage(db, {
          ...common,
          ...reviewItem.query('gsi3', { open_kind: kind }),
          sortCondition: beginsWith(`${tenantId}#`),
        });
      }
      if (kind) {
        return queryPage(db, {
          ...common,
          ...reviewItem.query('gsi2', { tenant_id: tenantId, kind_key: kind }),
          filters: { status },
        });
      }
      return queryPage(db, {
        ...common,
        ...(status
          ? reviewItem.query('gsi1', { tenant_id: tenantId, status })
          : reviewItem.query('table', { tenant_id: tenantId })),
      });
    },

    async decide(n, expected, review, audit, outbox) {
      const ops = [
        putIfStatus(notification.item(n), expected),
        putIfStatus(storedReviewItem(review), 'open'),
        auditPut(audit),
      ];
      if (outbox) ops.push(outboxPut(outbox));
      return (await transact(db, ops)).ok;
    },

    async claim(n, key, leaseUntil, now): Promise<ClaimResult> {
      const result = await transact(db, [
        {
          Put: {
            Item: consumed.item({ state: 'in_progress', lease_until: leaseUntil }, { idempotency_key: key }),
            ...claimable(now),
          },
        },
        { Put: { Item: notification.item({ ...n, status: 'delivering', updated_at: now }) } },
      ]);
      if (result.ok) return 'claimed';
      return claimLost(key);
    },

    async delivered(n, audit, key, claimAt) {
      const ops: WriteOp[] = [
        { Put: { Item: notification.item(n) } },
        auditPut(audit),
        {
          Put: {
            Item: consumed.item(
              {
                state: 'done',
                done_at: n.delivered_at,
                ttl: Math.floor(Date.now() / 1000) + CONSUMED_RETENTION_SECONDS,
              },
              { idempotency_key: key },
            ),
            // Claimed in this very transaction: the claim's condition, on the completed key.
            ...(claimAt ? claimable(claimAt) : {}),
          },
        },
      ];
      if (n.channel === 'in_app') {
        ops.push({
          Put: {
            Item: storedInboxItem({
              tenant_id: n.tenant_id,
              user_id: n.recipient,
              notification_id: n.id,
              subject: n.subject,
              body: n.body,
              category: n.category,
              priority: n.priority,
              created_at: n.delivered_at,
              read_at: null,
              read_state: 'unread',
            }),
          },
        });
      }
      const result = await transact(db, ops);
      if (result.ok) return 'claimed';
      if (claimAt && result.failed.includes(CONSUMED_OP)) return claimLost(key);
      throw new Error('delivered write failed a condition');
    },

    async failed(n: Notification, audit: AuditEvent, key: string, review: ReviewItem | null) {
      const ops: WriteOp[] = [{ Put: { Item: notification.item(n) } }, auditPut(audit), releaseClaim(key)];
      if (review) ops.push(putNew(storedReviewItem(review)));
      const result = await transact(db, ops);
      if (!result.ok) throw new Error('failure write failed a condition');
    },

    async resolveReview(tenantId, reviewItemId, at) {
      const item = await get(reviewItem.key({ tenant_id: tenantId, id: reviewItemId }));
      if (item?.status !== 'open') return;
      const next = { ...toReview(item), status: 'resolved' as const, updated_at: at };
      // A decision made since wins: a review item resolves only while still open.
      await putOnly(db, storedReviewItem(next), statusIs('open'));
    },
  };
};
