import type { BusinessException, ExceptionStore } from '#shared/domain/exceptions/ports';
import { reader } from '#shared/table/entity';
import { exception, exceptionRecord } from '#shared/table/entities/exception';
import { auditPut } from './audit-store';
import { type Db, putIfStatus, putNew, queryPage, transact } from './dynamo';
import { outboxPut } from './outbox';
import { getRecord } from './records';

const toException = /* @__PURE__ */ reader<BusinessException>()(exceptionRecord);

export const exceptionStore = (db: Db): ExceptionStore => ({
  async create(e, audit, outbox) {
    const result = await transact(db, [putNew(exception.item(e)), auditPut(audit), outboxPut(outbox)]);
    if (!result.ok) throw new Error('exception id collision');
  },

  async createOnce(e, audit, outbox) {
    return (await transact(db, [putNew(exception.item(e)), auditPut(audit), outboxPut(outbox)])).ok;
  },

  get: (tenantId, id) => getRecord(db, exception.key({ tenant_id: tenantId, id }), toException),

  /**
   * Picks the most selective key for the filter: the subject (gsi2, few exceptions each), then the
   * status (gsi1, so "what is open" does not read what was resolved), then the tenant's exception
   * partition; the remaining filters become a FilterExpression that queryPage reads on to fill.
   */
  list(tenantId, filter, page) {
    const scope = { list: 'exceptions', tenant_id: tenantId, ...filter };
    const common = { scope, page, map: toException };
    const { status, severity, subject_type, subject_id } = filter;
    if (subject_type && subject_id) {
      return queryPage(db, {
        ...common,
        ...exception.query('gsi2', { tenant_id: tenantId, subject_type, subject_id }),
        filters: { status, severity },
      });
    }
    return queryPage(db, {
      ...common,
      ...(status
        ? exception.query('gsi1', { tenant_id: tenantId, status })
        : exception.query('table', { tenant_id: tenantId })),
      filters: { severity, subject_type, subject_id },
    });
  },

  async transition(next, expectedStatus, audit, outbox) {
    const result = await transact(db, [
      putIfStatus(exception.item(next), expectedStatus),
      auditPut(audit),
      outboxPut(outbox),
    ]);
    return result.ok;
  },
});
