import type { EndpointReviewStore } from '#shared/domain/webhooks/ports';
import { storedReviewItem } from '#shared/table/entities/review-item';
import { webhookEndpoint } from '#shared/table/entities/webhook-endpoint';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { putIfStatus } from './records';
import { transact, type WriteOp } from './transact';

/**
 * What the review group needs of webhook endpoints: the decision's transaction, re-enabling by an
 * Update of the endpoint's status fields (no read of its record, which api-review's bundle budget
 * has no room for).
 */
export const endpointReviewStore = (db: Db): EndpointReviewStore => ({
  async decide(review, audit, reenable) {
    const ops: WriteOp[] = [putIfStatus(storedReviewItem(review), 'open'), auditPut(audit)];
    if (reenable)
      ops.push({
        Update: {
          Key: webhookEndpoint.key({ tenant_id: reenable.tenant_id, id: reenable.id }),
          UpdateExpression:
            'SET enabled = :t, #s = :active, disabled_reason = :null, failing_since = :null, updated_at = :at',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#s': 'status' },
          ExpressionAttributeValues: { ':t': true, ':active': 'active', ':null': null, ':at': reenable.at },
        },
      });
    return (await transact(db, ops)).ok;
  },
});
