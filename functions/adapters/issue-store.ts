import type { IntegrationIssue, IssueDecisionStore } from '#shared/domain/integrations/ports';
import { connectionHealth } from '#shared/table/entities/connection-health';
import { reader } from '#shared/table/entity';
import { integrationIssue, integrationIssueRecord } from '#shared/table/entities/integration-issue';
import { storedReviewItem } from '#shared/table/entities/review-item';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putIfStatus } from './records';
import { transact, type WriteOp } from './transact';
import { outboxPut } from './outbox';

const toIssue = /* @__PURE__ */ reader<IntegrationIssue>()(integrationIssueRecord);

export const healthKey = (tenantId: string, connectionId: string) =>
  connectionHealth.key({ tenant_id: tenantId, connection_id: connectionId });

/** The health item's identifying attributes, set by whichever write creates it. */
export const HEALTH_IDENTITY = 'entity = :health_entity, tenant_id = :tenant, connection_id = :connection';
export const healthIdentity = (tenantId: string, connectionId: string) => ({
  ':health_entity': connectionHealth.entity,
  ':tenant': tenantId,
  ':connection': connectionId,
});

/**
 * Reading an integration issue and ending it (resolved by a passing check, closed by a review
 * decision), apart from the rest of the hub's store so the review function bundles only this.
 */
export const issueDecisionStore = (db: Db): IssueDecisionStore => ({
  async getIssue(tenantId, connectionId, code) {
    const key = integrationIssue.key({ tenant_id: tenantId, connection_id: connectionId, issue_code: code });
    return getRecord(db, key, toIssue);
  },

  async endIssue(issue, review, audit, outbox) {
    const ops: WriteOp[] = [
      {
        Update: {
          Key: integrationIssue.key(issue),
          UpdateExpression: 'SET #status = :status, closed_at = :at, updated_at = :at',
          ConditionExpression: '#status = :open AND review_item_id = :review',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': issue.status,
            ':at': issue.closed_at,
            ':open': 'open',
            ':review': review.id,
          },
        },
      },
      {
        Update: {
          Key: healthKey(issue.tenant_id, issue.connection_id),
          UpdateExpression: `SET ${HEALTH_IDENTITY} DELETE open_issue_codes :code`,
          ExpressionAttributeValues: {
            ...healthIdentity(issue.tenant_id, issue.connection_id),
            ':code': new Set([issue.issue_code]),
          },
        },
      },
      putIfStatus(storedReviewItem(review), 'open'),
      auditPut(audit),
    ];
    if (outbox) ops.push(outboxPut(outbox));
    return (await transact(db, ops)).ok;
  },
});
