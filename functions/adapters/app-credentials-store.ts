import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AppCredentialsMarks } from '#shared/domain/oauth/app-credentials';
import type { Db } from './dynamo';
import { HEALTH_IDENTITY, healthIdentity, healthKey } from './issue-store';

/**
 * The app-credentials mark on a connection's health record (`app_credentials_invalid_since`),
 * apart from the hub store: only the workers, which refresh tokens, write it (the API functions
 * read it with the record).
 */
export const appCredentialsMarks = (db: Db): AppCredentialsMarks => ({
  async mark(tenantId, connectionId, since) {
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: healthKey(tenantId, connectionId),
          ...(since
            ? {
                // The first refusal's time stays: "since" is when the operator's problem began.
                UpdateExpression: `SET ${HEALTH_IDENTITY}, app_credentials_invalid_since = if_not_exists(app_credentials_invalid_since, :at), last_failure_at = :at, last_failure_reason = :reason`,
                ExpressionAttributeValues: {
                  ...healthIdentity(tenantId, connectionId),
                  ':at': since,
                  ':reason': 'app_credentials_invalid',
                },
              }
            : {
                // Every successful refresh asks; only a marked record is written.
                UpdateExpression: 'REMOVE app_credentials_invalid_since',
                ConditionExpression: 'attribute_exists(app_credentials_invalid_since)',
              }),
        }),
      );
    } catch (err) {
      if (!(err instanceof ConditionalCheckFailedException)) throw err;
    }
  },
});
