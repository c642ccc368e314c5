import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { WorkflowJob, WorkflowJobStore } from '#shared/domain/workflows/ports';
import { audit } from '#shared/table/entities/audit';
import { REVIEW_ITEM_FIELDS, reviewItem, reviewItemRecord } from '#shared/table/entities/review-item';
import { auditPut } from './audit-store';
import { type Db, pick, putNew, transact, type WriteOp } from './dynamo';
import { outboxPut } from './outbox';

/** Workflow rule firings and `workflow_action` review items over the one table. */
export const workflowJobStore = (db: Db): WorkflowJobStore => ({
  async recordFiring(a) {
    try {
      await db.doc.send(
        new PutCommand({
          TableName: db.tableName,
          Item: audit.item(a),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (err) {
      if (err instanceof ConditionalCheckFailedException) return false;
      throw err;
    }
  },

  async openReview(review, job, audit) {
    return (await transact(db, [putNew(reviewItemRecord(review, { job })), auditPut(audit)])).ok;
  },

  async getJob(tenantId, id) {
    const out = await db.doc.send(
      new GetCommand({
        TableName: db.tableName,
        Key: reviewItem.key({ tenant_id: tenantId, id }),
        ConsistentRead: true,
      }),
    );
    if (out.Item?.kind !== 'workflow_action') return undefined;
    return {
      review: pick(out.Item, REVIEW_ITEM_FIELDS) as unknown as ReviewItem,
      job: out.Item.job as WorkflowJob,
    };
  },

  /** An Update, not a Put: the item keeps the job it holds. */
  async decide(decided, audit, outbox) {
    const { gsi1pk } = reviewItemRecord(decided) as { gsi1pk: string };
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
