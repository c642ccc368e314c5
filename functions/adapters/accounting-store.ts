import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AccountingExport, Booking, ExportStore, StoredExport } from '#shared/domain/accounting/ports';
import { reader, storedReader } from '#shared/table/entity';
import { accountingExport, accountingExportRecord } from '#shared/table/entities/accounting-export';
import { exportBatch } from '#shared/table/entities/export-batch';
import { exportBooking } from '#shared/table/entities/export-booking';
import { storedReviewItem } from '#shared/table/entities/review-item';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { applied, getItem, getRecord, putIf, putIfStatus, putNew, putOnly, updateOnly } from './records';
import { queryAll, queryPage } from './query';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';

/** The export as the worker keeps it: the record, its documents, fingerprint and lease. */
const toStored = /* @__PURE__ */ storedReader<StoredExport>()(accountingExportRecord);
const toRead = /* @__PURE__ */ reader<AccountingExport>()(accountingExportRecord);

/** The export item; `lease_until` is the worker's, kept beside the record. */
const exportItem = (e: StoredExport) => accountingExport.item({ ...e, lease_until: e.lease_until ?? null });

/**
 * What a review decision needs (the notifications function decides review items of every kind):
 * the export, and the decision's transaction. Apart, so that function bundles no more of it.
 */
export const exportDecisionStore = (db: Db): Pick<ExportStore, 'get' | 'decide'> => ({
  get: (tenantId, id) => getRecord(db, accountingExport.key({ tenant_id: tenantId, id }), toStored),

  async decide(e, expected, review, audit, outbox) {
    const ops: WriteOp[] = [
      putIfStatus(exportItem(e), expected),
      putIfStatus(storedReviewItem(review), 'open'),
      auditPut(audit),
    ];
    if (outbox) ops.push(outboxPut(outbox));
    return (await transact(db, ops)).ok;
  },
});

/** Accounting exports, their batch-id claims and their per-document bookings over the one table. */
export const accountingStore = (db: Db): ExportStore => {
  const get = (key: Parameters<typeof getItem>[1]) => getItem(db, key);
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

    lease(e, leaseUntil, now) {
      return updateOnly(db, {
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
      });
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
      const claimed = await putOnly(
        db,
        exportBooking.item({ ...claim, tenant_id: tenantId, export_id: exportId }),
        {
          ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND lease_until < :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':sending': 'sending', ':now': now },
        },
      );
      if (claimed) return 'claimed';
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
      // A record that is no longer `sending` (booked since) stays.
      await applied(
        db.doc.send(
          new DeleteCommand({
            TableName: db.tableName,
            Key: exportBooking.key({ tenant_id: tenantId, export_id: exportId, index }),
            ConditionExpression: '#state = :sending',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':sending': 'sending' },
          }),
        ),
      );
    },

    async finish(e, leaseUntil, audit, review, outbox) {
      const ops: WriteOp[] = [
        putIf(exportItem(e), {
          ConditionExpression: '#status = :exporting AND lease_until = :lease',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':exporting': 'exporting', ':lease': leaseUntil },
        }),
        auditPut(audit),
      ];
      if (review) ops.push(putNew(storedReviewItem(review)));
      if (outbox) ops.push(outboxPut(outbox));
      return (await transact(db, ops)).ok;
    },
  };
};
