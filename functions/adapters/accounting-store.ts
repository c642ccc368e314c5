import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Booking, ExportStore, StoredExport } from '#shared/domain/accounting/ports';
import { ACCOUNTING_EXPORT_FIELDS, accountingExport } from '#shared/table/entities/accounting-export';
import { exportBatch } from '#shared/table/entities/export-batch';
import { exportBooking } from '#shared/table/entities/export-booking';
import { reviewItemRecord } from '#shared/table/entities/review-item';
import type { Key } from '#shared/table/table';
import { auditPut } from './audit-store';
import { type Db, pick, putIfStatus, putNew, queryAll, queryPage, transact, type WriteOp } from './dynamo';
import { outboxPut } from './outbox';

const toStored = (item: Record<string, unknown>) =>
  ({
    ...pick(item, ACCOUNTING_EXPORT_FIELDS),
    documents: item.documents,
    fingerprint: item.fingerprint,
    lease_until: item.lease_until,
  }) as unknown as StoredExport;

const toRead = (item: Record<string, unknown>) =>
  pick(item, ACCOUNTING_EXPORT_FIELDS) as unknown as StoredExport;

const isConditionFailure = (err: unknown) => err instanceof ConditionalCheckFailedException;

/** The export item; `lease_until` is the worker's, kept beside the record. */
const exportItem = (e: StoredExport) => accountingExport.item({ ...e, lease_until: e.lease_until ?? null });

const getItem = async (db: Db, key: Key) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }))).Item;

/**
 * What a review decision needs (the notifications function decides review items of every kind):
 * the export, and the decision's transaction. Apart, so that function bundles no more of it.
 */
export const exportDecisionStore = (db: Db): Pick<ExportStore, 'get' | 'decide'> => ({
  async get(tenantId, id) {
    const item = await getItem(db, accountingExport.key({ tenant_id: tenantId, id }));
    return item ? toStored(item) : undefined;
  },

  async decide(e, expected, review, audit, outbox) {
    const ops: WriteOp[] = [
      putIfStatus(exportItem(e), expected),
      putIfStatus(reviewItemRecord(review), 'open'),
      auditPut(audit),
    ];
    if (outbox) ops.push(outboxPut(outbox));
    return (await transact(db, ops)).ok;
  },
});

/** Accounting exports, their batch-id claims and their per-document bookings over the one table. */
export const accountingStore = (db: Db): ExportStore => {
  const get = (key: Key) => getItem(db, key);
  const decisions = exportDecisionStore(db);

  return {
    ...decisions,
    async create(e, audit, outbox) {
      const ops: WriteOp[] = [
        putNew(
          exportBatch.item({
            tenant_id: e.tenant_id,
            export_batch_id: e.export_batch_id,
            export_id: e.id,
            created_at: e.created_at,
          }),
        ),
        putNew(exportItem(e)),
        auditPut(audit),
        outboxPut(outbox),
      ];
      const result = await transact(db, ops);
      if (result.ok) return { created: true };
      if (!result.failed.includes(0)) throw new Error('accounting export id collision');
      const owner = await get(
        exportBatch.key({ tenant_id: e.tenant_id, export_batch_id: e.export_batch_id }),
      );
      if (!owner) throw new Error('export batch claim vanished');
      return { created: false, existingId: String(owner.export_id) };
    },

    async batchOwner(tenantId, exportBatchId) {
      const item = await get(exportBatch.key({ tenant_id: tenantId, export_batch_id: exportBatchId }));
      return item ? String(item.export_id) : undefined;
    },

    list(tenantId, filter, page) {
      const scope = { list: 'accounting-exports', tenant_id: tenantId, ...filter };
      const query = filter.status
        ? accountingExport.query('gsi1', { tenant_id: tenantId, status: filter.status })
        : accountingExport.query('table', { tenant_id: tenantId });
      return queryPage(db, { scope, page, map: toRead, ...query });
    },

    async lease(e, leaseUntil, now) {
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: accountingExport.key({ tenant_id: e.tenant_id, id: e.id }),
            UpdateExpression:
              'SET #status = :exporting, lease_until = :lease, updated_at = :now, gsi1pk = :gsi1pk',
            // A retrying export written before retry times were kept has a null `lease_until`.
            ConditionExpression:
              '#status = :queued OR (#status IN (:retrying, :exporting) AND lease_until < :now) OR ' +
              '(#status = :retrying AND attribute_type(lease_until, :null))',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':exporting': 'exporting',
              ':queued': 'queued',
              ':retrying': 'retrying',
              ':lease': leaseUntil,
              ':now': now,
              ':null': 'NULL',
              ':gsi1pk': accountingExport.item({ ...e, status: 'exporting' }).gsi1pk,
            },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    async bookings(tenantId, exportId) {
      const items = await queryAll(
        db,
        exportBooking.query('table', { tenant_id: tenantId, export_id: exportId }),
      );
      return items.map((i) => {
        const { index, state, idempotency_key, claimed_at, lease_until, external_id, booked_at } = i;
        return (
          state === 'booked'
            ? { index: Number(index), state, idempotency_key, external_id, booked_at }
            : { index: Number(index), state, idempotency_key, claimed_at, lease_until }
        ) as Booking;
      });
    },

    async claimBooking(tenantId, exportId, claim, now) {
      try {
        await db.doc.send(
          new PutCommand({
            TableName: db.tableName,
            Item: exportBooking.item({ ...claim, tenant_id: tenantId, export_id: exportId }),
            ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND lease_until < :now)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':sending': 'sending', ':now': now },
          }),
        );
        return 'claimed';
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
      const existing = await get(
        exportBooking.key({ tenant_id: tenantId, export_id: exportId, index: claim.index }),
      );
      return existing?.state === 'booked' ? 'booked' : 'busy';
    },

    async record(tenantId, exportId, booking) {
      await db.doc.send(
        new PutCommand({
          TableName: db.tableName,
          Item: exportBooking.item({ ...booking, tenant_id: tenantId, export_id: exportId }),
        }),
      );
    },

    async release(tenantId, exportId, index) {
      await db.doc
        .send(
          new DeleteCommand({
            TableName: db.tableName,
            Key: exportBooking.key({ tenant_id: tenantId, export_id: exportId, index }),
            ConditionExpression: '#state = :sending',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':sending': 'sending' },
          }),
        )
        .catch((err: unknown) => {
          if (!isConditionFailure(err)) throw err;
        });
    },

    async finish(e, leaseUntil, audit, review, outbox) {
      const ops: WriteOp[] = [
        {
          Put: {
            Item: exportItem(e),
            ConditionExpression: '#status = :exporting AND lease_until = :lease',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':exporting': 'exporting', ':lease': leaseUntil },
          },
        },
        auditPut(audit),
      ];
      if (review) ops.push(putNew(reviewItemRecord(review)));
      if (outbox) ops.push(outboxPut(outbox));
      return (await transact(db, ops)).ok;
    },
  };
};
