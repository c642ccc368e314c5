import type { WorkflowJob, WorkflowJobStore } from '#shared/domain/workflows/ports';
import { audit } from '#shared/table/entities/audit';
import { reviewItem, storedReviewItem } from '#shared/table/entities/review-item';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getItem, putIfAbsent, putNew } from './records';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { toReviewItem } from './review-items';

/** Workflow rule firings and `workflow_action` review items over the one table. */
export const workflowJobStore = (db: Db): WorkflowJobStore => ({
  recordFiring: (a) => putIfAbsent(db, audit.item(a)),

  async openReview(review, job, audit) {
    return (await transact(db, [putNew(storedReviewItem(review, { job })), auditPut(audit)])).ok;
  },

  async getJob(tenantId, id) {
    const item = await getItem(db, reviewItem.key({ tenant_id: tenantId, id }));
    if (item?.kind !== 'workflow_action') return undefined;
    return { review: toReviewItem(item), job: item.job as WorkflowJob };
  },

  /** An Update, not a Put: the item keeps the job it holds. */
  async decide(decided, audit, outbox) {
    const { gsi1pk } = storedReviewItem(decided) as { gsi1pk: string };
    const ops: WriteOp[] = [
      {
        Update: {
          Key: reviewItem.key(decided),
          UpdateExpression:
            'SET #status = :status, decision = :decision, note = :note, decided_by = :by, decided_at = :at, updated_at = :at, gsi1pk = :gsi1pk REMOVE gsi3pk, gsi3sk',
          ConditionExpression: '#status = :open',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': decided.status,
            ':decision': decided.decision,
            ':note': decided.note,
            ':by': decided.decided_by,
            ':at': decided.decided_at,
            ':gsi1pk': gsi1pk,
            ':open': 'open',
          },
        },
      },
      auditPut(audit),
    ];
    if (outbox) ops.push(outboxPut(outbox));
    return (await transact(db, ops)).ok;
  },
});
