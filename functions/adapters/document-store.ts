import type { BusinessDocument, DocumentStore } from '#shared/domain/documents/ports';
import { reader } from '#shared/table/entity';
import { document, documentRecord } from '#shared/table/entities/document';
import { documentNumber } from '#shared/table/entities/document-number';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putIfStatus, putNew } from './records';
import { queryPage } from './query';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { timerOp } from './timer-store';
import { timerId } from '#shared/domain/timers/arming';

const toDocument = /* @__PURE__ */ reader<BusinessDocument>()(documentRecord);

export const documentStore = (db: Db): DocumentStore => ({
  async create(d, audit, outbox) {
    const ops: WriteOp[] = [
      putNew(
        documentNumber.item({
          tenant_id: d.tenant_id,
          document_type: d.document_type,
          number: d.number,
          document_id: d.id,
        }),
      ),
      putNew(document.item(d)),
      auditPut(audit),
      outboxPut(outbox),
    ];
    const invoiceCheck = ops.length;
    if (d.applies_to) {
      ops.push({
        ConditionCheck: {
          Key: document.key({ tenant_id: d.tenant_id, id: d.applies_to }),
          ConditionExpression: 'attribute_exists(pk) AND #status <> :void',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':void': 'void' },
        },
      });
    }
    const result = await transact(db, ops);
    if (result.ok) return 'created';
    if (result.failed.includes(0)) return 'number_taken';
    if (result.failed.includes(invoiceCheck)) return 'invoice_changed';
    throw new Error('document id collision');
  },

  get: (tenantId, id) => getRecord(db, document.key({ tenant_id: tenantId, id }), toDocument),

  /** Status (GSI1), then type (GSI2), then the tenant's document partition; the rest are filters. */
  list(tenantId, filter, page) {
    const scope = { list: 'documents', tenant_id: tenantId, ...filter };
    const common = { scope, page, map: toDocument };
    const { status, document_type, counterparty } = filter;
    const query = status
      ? document.query('gsi1', { tenant_id: tenantId, status })
      : document_type
        ? document.query('gsi2', { tenant_id: tenantId, document_type })
        : document.query('table', { tenant_id: tenantId });
    return queryPage(db, {
      ...common,
      ...query,
      filters: { document_type: status ? document_type : undefined, counterparty },
    });
  },

  async transition(next, expectedStatus, audit, outbox, due) {
    const ops = [
      putIfStatus(document.item(next), expectedStatus),
      auditPut(audit),
      outboxPut(outbox),
      timerOp(next.tenant_id, timerId('document_due', next.id), due),
    ];
    return (await transact(db, ops)).ok;
  },
});
