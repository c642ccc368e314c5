import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ConnectionResults } from '#shared/domain/integrations/ports';
import { logger } from '#functions/observability';
import type { Db } from './dynamo';
import { HEALTH_IDENTITY, healthIdentity, healthKey } from './issue-store';

/** A success younger than this is not written again while no failure came after it. */
export const RESULT_REFRESH_SECONDS = 60;

/** Connections whose success this process recorded lately: a burst of deliveries writes once. */
const MEMO_MAX = 1000;

/**
 * Delivery results on the connection's health record (docs/decisions.md, "Delivery results on
 * connection health"): at most one conditional UpdateItem per provider call, and none for a
 * success this process recorded less than RESULT_REFRESH_SECONDS ago. The condition writes only
 * a change (a success after a failure, a failure after a success or with another reason) or a
 * refresh older than RESULT_REFRESH_SECONDS, never an older result over a newer one; a refused
 * condition writes nothing, so the table's stream carries no record for it.
 */
export function connectionResults(db: Db): ConnectionResults {
  const recent = new Map<string, number>();
  return {
    async record(tenantId, connectionId, result) {
      const memo = `${tenantId}/${connectionId}`;
      const at = Date.parse(result.at);
      const refreshMs = RESULT_REFRESH_SECONDS * 1000;
      if (result.ok && at - (recent.get(memo) ?? -Infinity) < refreshMs) return;
      const values: Record<string, unknown> = {
        ...healthIdentity(tenantId, connectionId),
        ':at': result.at,
        ':stale': new Date(at - refreshMs).toISOString(),
      };
      let update: string;
      let condition: string;
      if (result.ok) {
        update = 'last_success_at = :at';
        condition =
          'attribute_not_exists(last_success_at) OR (last_success_at < :at AND ' +
          '(last_success_at < :stale OR last_failure_at > last_success_at))';
      } else {
        update = 'last_failure_at = :at, last_failure_reason = :reason';
        values[':reason'] = result.reason;
        condition =
          'attribute_not_exists(last_failure_at) OR (last_failure_at < :at AND (last_failure_at < :stale ' +
          'OR last_success_at > last_failure_at OR last_failure_reason <> :reason))';
      }
      try {
        await db.doc.send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: healthKey(tenantId, connectionId),
            UpdateExpression: `SET ${HEALTH_IDENTITY}, ${update}`,
            ConditionExpression: condition,
            ExpressionAttributeValues: values,
          }),
        );
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) {
          logger.warn('connection result not recorded', {
            tenant_id: tenantId,
            connection_id: connectionId,
            error: (err as Error).name,
          });
          return;
        }
      }
      if (!result.ok) recent.delete(memo);
      else {
        if (recent.size >= MEMO_MAX) recent.clear();
        recent.set(memo, at);
      }
    },
  };
}
