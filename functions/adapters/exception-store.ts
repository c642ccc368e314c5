import type { BusinessException, ExceptionStore, StoredException } from '#shared/domain/exceptions/ports';
import { reader, storedReader } from '#shared/table/entity';
import { exception, exceptionRecord } from '#shared/table/entities/exception';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putIfStatus, putNew } from './records';
import { queryPage } from './query';
import { transact } from './transact';
import { outboxPut } from './outbox';
import { timerDelete, timerPut } from './timer-store';

const toException = /* @__PURE__ */ reader<BusinessException>()(exceptionRecord);
const toStored = /* @__PURE__ */ storedReader<Required<StoredException>>()(exceptionRecord);

/** What an escalation adds to the item, left off while unset: most exceptions never have one, and a list reads them all. */
const ESCALATION_ATTRIBUTES = [
  'escalation',
  'escalation_policy_id',
  'escalation_round',
  'ack_timeout_at',
] as const;
export const exceptionItem = (e: StoredException) => {
  const item = exception.item(e);
  for (const name of ESCALATION_ATTRIBUTES) if (item[name] == null) delete item[name];
  return item;
};

export const exceptionStore = (db: Db): ExceptionStore => ({
  async create(e, audit, outbox, timer) {
    const result = await transact(db, [
      putNew(exceptionItem(e)),
      auditPut(audit),
      outboxPut(outbox),
      ...(timer ? [timerPut(timer)] : []),
    ]);
    if (!result.ok) throw new Error('exception id collision');
  },

  async createOnce(e, audit, outbox, timer) {
    const ops = [putNew(exceptionItem(e)), auditPut(audit), outboxPut(outbox)];
    return (await transact(db, timer ? [...ops, timerPut(timer)] : ops)).ok;
  },

  get: (tenantId, id) => getRecord(db, exception.key({ tenant_id: tenantId, id }), toException),

  getStored: (tenantId, id) => getRecord(db, exception.key({ tenant_id: tenantId, id }), toStored),

  /**
   * Picks the most selective key for the filter: the subject (gsi2, few exceptions each), then the
   * status (gsi1, so "what is open" does not read what was resolved), then the type (gsi3, so one
   * type's page does not read the others'), then the tenant's exception partition; the remaining
   * filters become a FilterExpression that queryPage reads on to fill. Status wins over type
   * because the open backlog stays small while a type's resolved history grows.
   */
  list(tenantId, filter, page) {
    const scope = { list: 'exceptions', tenant_id: tenantId, ...filter };
    const common = { scope, page, map: toException };
    const { status, severity, subject_type, subject_id, type: exception_type } = filter;
    if (subject_type && subject_id) {
      return queryPage(db, {
        ...common,
        ...exception.query('gsi2', { tenant_id: tenantId, subject_type, subject_id }),
        filters: { status, severity, exception_type },
      });
    }
    if (status) {
      return queryPage(db, {
        ...common,
        ...exception.query('gsi1', { tenant_id: tenantId, status }),
        filters: { severity, subject_type, subject_id, exception_type },
      });
    }
    return queryPage(db, {
      ...common,
      ...(exception_type
        ? exception.query('gsi3', { tenant_id: tenantId, exception_type })
        : exception.query('table', { tenant_id: tenantId })),
      filters: { severity, subject_type, subject_id },
    });
  },

  async transition(next, expectedStatus, audit, outbox, timers = {}) {
    const result = await transact(db, [
      putIfStatus(exceptionItem(next), expectedStatus),
      auditPut(audit),
      outboxPut(outbox),
      ...(timers.cancel ?? []).map((id) => timerDelete(next.tenant_id, id)),
      ...(timers.arm ?? []).map(timerPut),
    ]);
    return result.ok;
  },
});
