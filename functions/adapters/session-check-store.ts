import type { IdentityStore, Membership, Session, User } from '#shared/domain/identity/ports';
import type { TokenCheckDeps } from '#shared/domain/identity/sessions';
import { reader, storedReader } from '#shared/table/entity';
import { member, memberRecord } from '#shared/table/entities/member';
import { session, sessionRecord } from '#shared/table/entities/session';
import { MEMBERSHIPS_END, user, userRecord } from '#shared/table/entities/user';
import { below, queryAll } from './query';
import type { Db } from './dynamo';
import { getRecord, updateOnly } from './records';

const readUser = /* @__PURE__ */ storedReader<User>()(userRecord);
/** A user with no platform role has none stored. */
export const toUser = (item: Record<string, unknown>): User =>
  readUser({ ...item, platform_roles: item.platform_roles ?? [] });
export const toMember = /* @__PURE__ */ reader<Membership>()(memberRecord);
export const toSession = /* @__PURE__ */ reader<Session>()(sessionRecord);

/**
 * The part of the identity store the token check uses (shared/domain/identity/sessions.ts
 * `authenticate`): the authorizer's whole store, and what every route group's guard bundles to
 * run the check itself when the authorizer could not (functions/http/principal.ts). Kept apart
 * from ./identity-store.ts so that those bundles carry none of login, sessions or users.
 */
export const sessionCheckStore = (db: Db): TokenCheckDeps['identity'] =>
  ({
    getSession: (tokenId) => getRecord(db, session.key({ token_id: tokenId }), toSession),

    async touchSession(tokenId, at) {
      // A session deleted by TTL between the read and this write needs no touch.
      await updateOnly(db, {
        Key: session.key({ token_id: tokenId }),
        UpdateExpression: 'SET last_used_at = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
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
