import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from '#shared/domain/audit';
import type {
  CreateResult,
  DedupeClaim,
  DigestEntry,
  DigestSlot,
  DigestStore,
  DigestWrite,
  Notification,
} from '#shared/domain/notifications/ports';
import type { Timer } from '#shared/domain/timers/ports';
import { digestEntry } from '#shared/table/entities/digest-entry';
import { notification } from '#shared/table/entities/notification';
import { notificationHold } from '#shared/table/entities/notification-hold';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getItem, putIfStatus, putNew } from './records';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { timerPut } from './timer-store';

/**
 * Deduplication windows and digests (docs/api.md section 7.4) over the one table: each key's
 * slot (shared/table/entities/notification-hold.ts) decides its races by a conditional write in
 * the transaction that stores the notification.
 */

/** How long a digest's entries stay after it closes: longer than a redriven firing takes. */
const ENTRY_RETENTION_SECONDS = 15 * 24 * 3600;
const epochSeconds = (iso: string) => Math.ceil(Date.parse(iso) / 1000);

const holdKey = (tenantId: string, kind: 'DEDUPE' | 'DIGEST', slot: string) =>
  notificationHold.key({ tenant_id: tenantId, kind, slot });

/** The window's hold: taken when free or over (its ttl only cleans up; the condition decides). */
export const dedupePut = (d: DedupeClaim): WriteOp => ({
  Put: {
    Item: notificationHold.item(
      { notification_id: d.notification_id, expires_at: d.expires_at, ttl: epochSeconds(d.expires_at) },
      { tenant_id: d.tenant_id, kind: 'DEDUPE', slot: d.slot },
    ),
    ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now',
    ExpressionAttributeValues: { ':now': d.now },
  },
});

/** The notification holding the window, when the dedupe write (the last op) failed. */
async function holder(db: Db, ops: WriteOp[], failed: number[], dedupe: DedupeClaim | null | undefined) {
  if (!dedupe || !failed.includes(ops.length - 1)) return undefined;
  const item = await getItem(db, holdKey(dedupe.tenant_id, 'DEDUPE', dedupe.slot));
  return item ? String(item.notification_id) : undefined;
}

/** A draft's transaction; a held dedupe window answers the holder, anything else failing throws. */
export async function createWith(
  db: Db,
  ops: WriteOp[],
  dedupe: DedupeClaim | null | undefined,
): Promise<CreateResult> {
  const result = await transact(db, ops);
  if (result.ok) return { ok: true };
  const duplicateOf = await holder(db, ops, result.failed, dedupe);
  if (duplicateOf) return { ok: false, duplicate_of: duplicateOf };
  throw new Error('notification id collision');
}

const entryPut = (n: Notification, closesAt: string): WriteOp =>
  putNew(
    digestEntry.item(
      {
        notification_id: n.id,
        subject: n.subject,
        body: n.body,
        category: n.category,
        created_at: n.created_at,
        ttl: epochSeconds(closesAt) + ENTRY_RETENTION_SECONDS,
      },
      { tenant_id: n.tenant_id, digest_id: n.digest_id!, notification_id: n.id },
    ),
  );

export const digestStore = (db: Db): DigestStore => {
  /** The held notification's writes, after the slot's op (index 0); the dedupe hold last. */
  const heldWrites = (
    slotOp: WriteOp,
    n: Notification,
    audit: AuditEvent,
    slot: DigestSlot,
    dedupe: DedupeClaim | null,
  ) => [
    slotOp,
    putNew(notification.item(n)),
    auditPut(audit),
    entryPut(n, slot.closes_at),
    ...(dedupe ? [dedupePut(dedupe)] : []),
  ];

  const write = async (
    ops: WriteOp[],
    dedupe: DedupeClaim | null,
    lost: 'taken' | 'closed',
  ): Promise<DigestWrite> => {
    const result = await transact(db, ops);
    if (result.ok) return 'ok';
    if (result.failed.includes(0)) return lost;
    const duplicateOf = await holder(db, ops, result.failed, dedupe);
    if (duplicateOf) return { duplicate_of: duplicateOf };
    throw new Error('a digest write failed a condition');
  };

  return {
    async slot(tenantId, slot) {
      const item = await getItem(db, holdKey(tenantId, 'DIGEST', slot));
      if (!item) return undefined;
      return {
        tenant_id: tenantId,
        slot,
        digest_id: String(item.digest_id),
        closes_at: String(item.closes_at),
      };
    },

    open(n, audit, slot, timer: Timer, dedupe) {
      const slotOp: WriteOp = {
        Put: {
          Item: notificationHold.item(
            { digest_id: slot.digest_id, closes_at: slot.closes_at },
            { tenant_id: slot.tenant_id, kind: 'DIGEST', slot: slot.slot },
          ),
          // Free, or left by a digest whose window is over (its firing not yet run).
          ConditionExpression: 'attribute_not_exists(pk) OR closes_at <= :now',
          ExpressionAttributeValues: { ':now': n.created_at },
        },
      };
      const ops = heldWrites(slotOp, n, audit, slot, dedupe);
      ops.splice(4, 0, timerPut(timer));
      return write(ops, dedupe, 'taken');
    },

    join(n, audit, slot, dedupe) {
      const slotOp: WriteOp = {
        ConditionCheck: {
          Key: holdKey(slot.tenant_id, 'DIGEST', slot.slot),
          ConditionExpression: 'digest_id = :id AND closes_at > :now',
          ExpressionAttributeValues: { ':id': slot.digest_id, ':now': n.created_at },
        },
      };
      return write(heldWrites(slotOp, n, audit, slot, dedupe), dedupe, 'closed');
    },

    async close(tenantId, slot, digestId) {
      // Already closed (a redelivered firing) or reopened by the next digest: nothing to do.
      await transact(db, [
        {
          Delete: {
            Key: holdKey(tenantId, 'DIGEST', slot),
            ConditionExpression: 'digest_id = :id',
            ExpressionAttributeValues: { ':id': digestId },
          },
        },
      ]);
    },

    async entries(tenantId, digestId) {
      const out: DigestEntry[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const page = await db.doc.send(
          new QueryCommand({
            TableName: db.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: {
              ':pk': digestEntry.query('table', { tenant_id: tenantId, digest_id: digestId }).partition,
            },
            // After the close, every entry committed before it must be read.
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        for (const item of page.Items ?? [])
          out.push({
            notification_id: String(item.notification_id),
            subject: (item.subject as string | null) ?? null,
            body: String(item.body),
            category: item.category as DigestEntry['category'],
            created_at: String(item.created_at),
          });
        start = page.LastEvaluatedKey;
      } while (start);
      return out;
    },

    async createMessage(n, audit, outbox) {
      return (await transact(db, [putNew(notification.item(n)), auditPut(audit), outboxPut(outbox)])).ok;
    },

    async moveHeld(n, expected, audit, outbox) {
      const ops = [putIfStatus(notification.item(n), expected), auditPut(audit)];
      if (outbox) ops.push(outboxPut(outbox));
      return (await transact(db, ops)).ok;
    },
  };
};
