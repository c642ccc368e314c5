import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdentityStore, Membership, Session, User } from '#shared/domain/identity/ports';
import type { TokenCheckDeps } from '#shared/domain/identity/sessions';
import { member, MEMBER_FIELDS } from '#shared/table/entities/member';
import { session, SESSION_FIELDS } from '#shared/table/entities/session';
import { MEMBERSHIPS_END, user, USER_FIELDS } from '#shared/table/entities/user';
import { below, type Db, pick, queryAll } from './dynamo';

export const toUser = (item: Record<string, unknown>): User => {
  const u = pick(item, USER_FIELDS) as unknown as User;
  return { ...u, platform_roles: (item.platform_roles as User['platform_roles'] | undefined) ?? [] };
};
export const toMember = (item: Record<string, unknown>) => pick(item, MEMBER_FIELDS) as unknown as Membership;
export const toSession = (item: Record<string, unknown>) => pick(item, SESSION_FIELDS) as unknown as Session;

/**
 * The part of the identity store the token check uses (shared/domain/identity/sessions.ts
 * `authenticate`): the authorizer's whole store, and what every route group's guard bundles to
 * run the check itself when the authorizer could not (functions/http/principal.ts). Kept apart
 * from ./identity-store.ts so that those bundles carry none of login, sessions or users.
 */
export const sessionCheckStore = (db: Db): TokenCheckDeps['identity'] =>
  ({
    async getSession(tokenId) {
      const out = await db.doc.send(
        new GetCommand({
          TableName: db.tableName,
          Key: session.key({ token_id: tokenId }),
          ConsistentRead: true,
        }),
      );
      return out.Item ? toSession(out.Item) : undefined;
    },

    async touchSession(tokenId, at) {
      await db.doc
        .send(
          new UpdateCommand({
            TableName: db.tableName,
            Key: session.key({ token_id: tokenId }),
            UpdateExpression: 'SET last_used_at = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': at },
          }),
        )
        .catch((err: { name?: string }) => {
          // A session deleted by TTL between the read and this write needs no touch.
          if (err.name !== 'ConditionalCheckFailedException') throw err;
        });
    },

    async userWithMemberships(userId) {
      const items = await queryAll(db, {
        ...user.query('gsi1', { id: userId }),
        sortCondition: below(MEMBERSHIPS_END),
        forward: true,
      });
      const userItem = items.find((i) => i.entity === user.entity);
      if (!userItem) return undefined;
      return {
        user: toUser(userItem),
        memberships: items.filter((i) => i.entity === member.entity).map(toMember),
      };
    },
  }) satisfies Pick<IdentityStore, 'getSession' | 'touchSession' | 'userWithMemberships'>;
