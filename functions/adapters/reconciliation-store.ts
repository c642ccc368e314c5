import type { ReconciliationRun, ReconciliationStore } from '#shared/domain/integrations/ports';
import { reader } from '#shared/table/entity';
import { reconciliationRun, reconciliationRunRecord } from '#shared/table/entities/reconciliation-run';
import { auditPut } from './audit-store';
import { type Db, putIfStatus, putNew, queryPage, transact } from './dynamo';
import { outboxPut } from './outbox';
import { getRecord } from './records';

const toRun = /* @__PURE__ */ reader<ReconciliationRun>()(reconciliationRunRecord);

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

  async finish(run, audit) {
    return (await transact(db, [putIfStatus(reconciliationRun.item(run), 'queued'), auditPut(audit)])).ok;
  },
});
