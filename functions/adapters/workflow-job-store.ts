import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { WorkflowJob, WorkflowJobStore, WorkflowRunJob } from '#shared/domain/workflows/ports';
import { audit } from '#shared/table/entities/audit';
import { reviewItem, storedReviewItem } from '#shared/table/entities/review-item';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getItem, putIf, putIfAbsent, putNew } from './records';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';
import { toReviewItem } from './review-items';

/**
 * The decision on a workflow_action review item that is still open, as a transaction's write: an
 * Update, not a Put, so the item keeps the job it holds. A run's replay by its review decision
 * (workflow-run-store) writes it in the replay's transaction.
 */
export const decideReviewOp = (decided: ReviewItem): WriteOp => {
  const { gsi1pk } = storedReviewItem(decided) as { gsi1pk: string };
  return {
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
  };
};

/** Workflow rule firings and `workflow_action` review items over the one table. */
export const workflowJobStore = (db: Db): WorkflowJobStore => ({
  recordFiring: (a) => putIfAbsent(db, audit.item(a)),

  async openReview(review, job, audit) {
    return (await transact(db, [putNew(storedReviewItem(review, { job })), auditPut(audit)])).ok;
  },

  async openRunReview(review, job, audit) {
    const item = putIf(storedReviewItem(review, { job }), {
      ConditionExpression: 'attribute_not_exists(pk) OR #status <> :open',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':open': 'open' },
    });
    return (await transact(db, [item, auditPut(audit)])).ok;
  },

  async getJob(tenantId, id) {
    const item = await getItem(db, reviewItem.key({ tenant_id: tenantId, id }));
    if (item?.kind !== 'workflow_action') return undefined;
    return { review: toReviewItem(item), job: item.job as WorkflowJob | WorkflowRunJob };
  },

  async decide(decided, audit, outbox) {
    const ops: WriteOp[] = [decideReviewOp(decided), auditPut(audit)];
    if (outbox) ops.push(outboxPut(outbox));
    return (await transact(db, ops)).ok;
  },
});
