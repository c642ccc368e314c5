import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  ProviderRecord,
  ReconciliationRun,
  ReconciliationStore,
} from '#shared/domain/integrations/ports';
import { reader } from '#shared/table/entity';
import { reconciliationPage } from '#shared/table/entities/reconciliation-page';
import { reconciliationRun, reconciliationRunRecord } from '#shared/table/entities/reconciliation-run';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putIfStatus, putNew } from './records';
import { queryAll, queryPage } from './query';
import { transact } from './transact';
import { outboxPut } from './outbox';

const toRun = /* @__PURE__ */ reader<ReconciliationRun>()(reconciliationRunRecord);

/** Sort keys in reading order: a page number zero-padded past any run's page count. */
const seqKey = (seq: number) => String(seq).padStart(6, '0');

/** Reconciliation runs over the one table. */
export const reconciliationStore = (db: Db): ReconciliationStore => ({
  async create(run, audit, outbox) {
    const result = await transact(db, [
      putNew(reconciliationRun.item(run)),
      auditPut(audit),
      outboxPut(outbox),
    ]);
    if (!result.ok) throw new Error('reconciliation run id collision');
  },

  get: (tenantId, id) => getRecord(db, reconciliationRun.key({ tenant_id: tenantId, id }), toRun),

  list(tenantId, filter, page) {
    return queryPage(db, {
      scope: { list: 'reconciliation-runs', tenant_id: tenantId, ...filter },
      page,
      map: toRun,
      ...reconciliationRun.query('table', { tenant_id: tenantId }),
      filters: { status: filter.status, connection_id: filter.connection_id },
    });
  },

  async pages(tenantId, runId) {
    const items = await queryAll(db, {
      ...reconciliationPage.query('table', { tenant_id: tenantId, run_id: runId }),
      forward: true,
    });
    return items.map((i) => ({
      seq: Number(i.seq),
      // Kept as JSON text: a page of up to 1,000 records is one attribute, with no empty values to drop.
      records: JSON.parse(String(i.records_json)) as ProviderRecord[],
      next: typeof i.next === 'string' ? i.next : null,
    }));
  },

  async savePage(tenantId, runId, page) {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: reconciliationPage.item(
          { seq: page.seq, records_json: JSON.stringify(page.records), next: page.next },
          { tenant_id: tenantId, run_id: runId, seq: seqKey(page.seq) },
        ),
      }),
    );
  },

  async continueLater(outbox) {
    // A second writer of the same continuation (a redelivered firing) finds it there: nothing to add.
    await transact(db, [outboxPut(outbox)]);
  },

  async finish(run, audit) {
    return (await transact(db, [putIfStatus(reconciliationRun.item(run), 'queued'), auditPut(audit)])).ok;
  },
});
