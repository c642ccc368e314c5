import type { DocumentDueStore } from '#shared/domain/timers/ports';
import { document } from '#shared/table/entities/document';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { transact } from './transact';
import { outboxPut } from './outbox';

/** The `document.overdue` occurrence, written on the condition the timer was armed for (docs/api.md section 9.7). */
export const documentDueStore = (db: Db): DocumentDueStore => ({
  async recordOverdue(d, audit, event) {
    const result = await transact(db, [
      {
        ConditionCheck: {
          Key: document.key({ tenant_id: d.tenant_id, id: d.id }),
          ConditionExpression: '#status = :open AND document_type = :invoice AND due_on = :due',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':open': 'open', ':invoice': 'invoice', ':due': d.due_on },
        },
      },
      auditPut(audit),
      outboxPut(event),
    ]);
    if (result.ok) return 'written';
    return result.failed.includes(0) ? 'stale' : 'duplicate';
  },
});
