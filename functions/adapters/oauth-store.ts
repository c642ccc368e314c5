import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CallbackThrottle } from '#shared/domain/oauth/connect';
import type { ConsentStore, PendingConsent, RefreshClaims } from '#shared/domain/oauth/ports';
import { sha256 } from '#shared/kernel/secrets';
import { loginFailures } from '#shared/table/entities/login-failures';
import { oauthConsent } from '#shared/table/entities/oauth-consent';
import { oauthRefresh } from '#shared/table/entities/oauth-refresh';
import type { Connection } from '#shared/domain/integrations/ports';
import { oauthRefreshTimer } from '#shared/domain/oauth/refresh-timer';
import type { Db } from './dynamo';
import { armTimer } from './timer-arm';

/**
 * The table's side of OAuth 2 connect: pending consents (taken once by a conditional delete), the
 * refresh claims (conditional updates), and the callback's failure counter, which shares the
 * login throttle's item shape under its own hashed key.
 */

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const lost = (err: unknown) => err instanceof ConditionalCheckFailedException;

export const consentStore = (db: Db): ConsentStore => ({
  async put(c) {
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: { ...oauthConsent.item({ ...c }), ttl: epoch(c.expires_at) + 3600 },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },
  async take(stateHash) {
    try {
      const out = await db.doc.send(
        new DeleteCommand({
          TableName: db.tableName,
          Key: oauthConsent.key({ state_hash: stateHash }),
          ConditionExpression: 'attribute_exists(pk)',
          ReturnValues: 'ALL_OLD',
        }),
      );
      const i = out.Attributes;
      if (!i) return undefined;
      return {
        state_hash: String(i.state_hash),
        tenant_id: String(i.tenant_id),
        connection_id: String(i.connection_id),
        adapter_key: String(i.adapter_key),
        user_id: String(i.user_id),
        code_verifier: typeof i.code_verifier === 'string' ? i.code_verifier : null,
        expires_at: String(i.expires_at),
        return_to: typeof i.return_to === 'string' ? i.return_to : null,
      } satisfies PendingConsent;
    } catch (err) {
      if (lost(err)) return undefined;
      throw err;
    }
  },
});

/**
 * `generation` is the stored pair's; a claim holds `lease_until`. Claiming needs the same
 * generation and no live lease; an item that does not exist yet is generation 1 (the consent's).
 */
export const refreshClaims = (db: Db): RefreshClaims => {
  const key = (tenantId: string, connectionId: string) =>
    oauthRefresh.key({ tenant_id: tenantId, connection_id: connectionId });
  const update = async (input: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>) => {
    try {
      await db.doc.send(new UpdateCommand({ TableName: db.tableName, ...input }));
      return true;
    } catch (err) {
      if (lost(err)) return false;
      throw err;
    }
  };
  return {
    claim: (tenantId, connectionId, generation, leaseUntil, now) =>
      update({
        Key: key(tenantId, connectionId),
        UpdateExpression: 'SET entity = :entity, generation = :g, lease_until = :lease',
        ConditionExpression: `${generation === 1 ? '(attribute_not_exists(generation) OR generation = :g)' : 'generation = :g'} AND (attribute_not_exists(lease_until) OR lease_until < :now)`,
        ExpressionAttributeValues: {
          ':entity': oauthRefresh.entity,
          ':g': generation,
          ':lease': leaseUntil,
          ':now': now,
        },
      }),
    async settle(tenantId, connectionId, generation) {
      await update({
        Key: key(tenantId, connectionId),
        UpdateExpression: 'SET generation = :next REMOVE lease_until',
        ConditionExpression: 'generation = :g',
        ExpressionAttributeValues: { ':g': generation, ':next': generation + 1 },
      });
    },
    async release(tenantId, connectionId, generation) {
      await update({
        Key: key(tenantId, connectionId),
        UpdateExpression: 'REMOVE lease_until',
        ConditionExpression: 'generation = :g',
        ExpressionAttributeValues: { ':g': generation },
      });
    },
    async reset(tenantId, connectionId, generation) {
      await db.doc.send(
        new PutCommand({
          TableName: db.tableName,
          Item: {
            ...key(tenantId, connectionId),
            entity: oauthRefresh.entity,
            tenant_id: tenantId,
            connection_id: connectionId,
            generation,
          },
        }),
      );
    },
  };
};

export const callbackThrottle = (db: Db): CallbackThrottle => {
  const key = (client: string, windowStart: string) =>
    loginFailures.key({ email_hash: sha256(client), window_start: windowStart });
  return {
    async failures(client, windowStart) {
      const out = await db.doc.send(
        new GetCommand({ TableName: db.tableName, Key: key(client, windowStart) }),
      );
      return Number(out.Item?.failures ?? 0);
    },
    async fail(client, windowStart, windowEnd) {
      const out = await db.doc.send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: key(client, windowStart),
          UpdateExpression: 'ADD failures :one SET entity = :entity, #ttl = :ttl',
          ExpressionAttributeNames: { '#ttl': 'ttl' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':entity': loginFailures.entity,
            ':ttl': Math.floor(windowEnd.getTime() / 1000) + 60,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(out.Attributes?.failures);
    },
  };
};

/** Arms the `oauth_refresh` timer of a stored pair (the callback's and every refresh's). */
export const armOAuthRefresh =
  (db: Db) =>
  (c: Pick<Connection, 'id' | 'tenant_id'>, expiresAt: string): Promise<void> =>
    armTimer(db, oauthRefreshTimer(c, expiresAt));
