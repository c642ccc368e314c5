import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { HealthRecord, HubStore } from '#shared/domain/integrations/ports';
import { integrationIssue } from '#shared/table/entities/integration-issue';
import { reviewItem, storedReviewItem } from '#shared/table/entities/review-item';
import { auditPut } from './audit-store';
import type { Db } from './dynamo';
import { getRecord, putNew } from './records';
import { transact, type WriteOp } from './transact';
import { issueDecisionStore, HEALTH_IDENTITY, healthIdentity, healthKey } from './issue-store';
import { outboxPut } from './outbox';
import { toReviewItem } from './review-items';

const toHealth = (item: Record<string, unknown>): HealthRecord => ({
  last_success_at: (item.last_success_at as string | undefined) ?? null,
  last_failure_at: (item.last_failure_at as string | undefined) ?? null,
  last_failure_reason: (item.last_failure_reason as string | undefined) ?? null,
  // A string set; DynamoDB removes the attribute when its last code is deleted.
  open_issue_codes: [...((item.open_issue_codes as Set<string> | undefined) ?? [])].sort(),
  // Only while set: a health record reads as it always did otherwise.
  ...(typeof item.app_credentials_invalid_since === 'string'
    ? { app_credentials_invalid_since: item.app_credentials_invalid_since }
    : {}),
});

/** BatchGetItem answers at most 100 keys and may leave some unprocessed: asked again, a few times. */
const BATCH_ATTEMPTS = 3;

/**
 * Connection health records, integration issues and their review items over the one table
 * (docs/data-model.md): an issue opens and ends in one transaction with its review item, its
 * audit (and outbox) event and the health record's set of open issue codes.
 */
export const hubStore = (db: Db): HubStore => {
  return {
    ...issueDecisionStore(db),

    async health(tenantId, connectionId) {
      return getRecord(db, healthKey(tenantId, connectionId), toHealth);
    },

    async healthOf(tenantId, connectionIds) {
      const found = new Map<string, HealthRecord>();
      let keys: Record<string, unknown>[] = connectionIds.map((id) => ({ ...healthKey(tenantId, id) }));
      for (let attempt = 1; keys.length > 0 && attempt <= BATCH_ATTEMPTS; attempt++) {
        const out = await db.doc.send(
          new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of out.Responses?.[db.tableName] ?? [])
          found.set(String(item.connection_id), toHealth(item));
        keys = out.UnprocessedKeys?.[db.tableName]?.Keys ?? [];
      }
      if (keys.length > 0) throw new Error('health records left unprocessed');
      return found;
    },

    async recordResult(tenantId, connectionId, result) {
      const values: Record<string, unknown> = { ...healthIdentity(tenantId, connectionId), ':at': result.at };
      let set: string;
      if (result.ok) set = 'last_success_at = :at';
      else {
        set = 'last_failure_at = :at, last_failure_reason = :reason';
        values[':reason'] = result.reason;
      }
      await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: healthKey(tenantId, connectionId),
          UpdateExpression: `SET ${HEALTH_IDENTITY}, ${set}`,
          ExpressionAttributeValues: values,
        }),
      );
    },

    async openIssue({ issue, review, audit, outbox }) {
      const ops: WriteOp[] = [
        {
          // An Update, so a reopened issue keeps counting how often it opened.
          Update: {
            Key: integrationIssue.key(issue),
            UpdateExpression:
              'SET entity = :entity, tenant_id = :tenant, connection_id = :connection, issue_code = :code, ' +
              '#status = :open, message = :message, next_action = :next, review_item_id = :review, ' +
              'opened_at = :at, closed_at = :null, updated_at = :at ADD times_opened :one',
            ConditionExpression: 'attribute_not_exists(pk) OR #status <> :open',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: {
              ':entity': integrationIssue.entity,
              ':tenant': issue.tenant_id,
              ':connection': issue.connection_id,
              ':code': issue.issue_code,
              ':open': 'open',
              ':message': issue.message,
              ':next': issue.next_action,
              ':review': issue.review_item_id,
              ':at': issue.opened_at,
              ':null': null,
              ':one': 1,
            },
          },
        },
        {
          Update: {
            Key: healthKey(issue.tenant_id, issue.connection_id),
            UpdateExpression: `SET ${HEALTH_IDENTITY} ADD open_issue_codes :code`,
            ExpressionAttributeValues: {
              ...healthIdentity(issue.tenant_id, issue.connection_id),
              ':code': new Set([issue.issue_code]),
            },
          },
        },
        putNew(storedReviewItem(review)),
        auditPut(audit),
        outboxPut(outbox),
      ];
      return (await transact(db, ops)).ok;
    },

    getReviewItem: (tenantId, id) => getRecord(db, reviewItem.key({ tenant_id: tenantId, id }), toReviewItem),
  };
};
