import { BatchGetCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from '#shared/domain/audit';
import type { IdentityStore, Login, Membership, Session, User } from '#shared/domain/identity/ports';
import { sha256 } from '#shared/kernel/secrets';
import { ENTITY } from '#shared/table/table';
import * as keys from '#shared/table/keys';
import { auditPut } from './audit-store';
import { type Db, pick, putNew, queryAll, transact } from './dynamo';

const USER_FIELDS = ['id', 'email', 'display_name', 'created_at', 'platform_roles'] as const;
const SESSION_FIELDS = [
  'token_id',
  'user_id',
  'user_email',
  'user_display_name',
  'expires_at',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;
export const MEMBER_FIELDS = [
  'tenant_id',
  'tenant_name',
  'tenant_created_at',
  'user_id',
  'email',
  'display_name',
  'role',
  'created_at',
  'updated_at',
] as const;

/** Expired sessions stay listable for a week, then DynamoDB's TTL removes them. */
const SESSION_RETENTION_SECONDS = 7 * 24 * 3600;

export const toUser = (item: Record<string, unknown>): User => {
  const u = pick(item, USER_FIELDS) as unknown as User;
  return { ...u, platform_roles: (item.platform_roles as User['platform_roles'] | undefined) ?? [] };
};
export const toMember = (item: Record<string, unknown>) => pick(item, MEMBER_FIELDS) as unknown as Membership;
const toSession = (item: Record<string, unknown>) => pick(item, SESSION_FIELDS) as unknown as Session;

/** The two items a user is made of: the login (by email) and the profile (by id). */
export const userPuts = (login: Login) => [
  putNew({
    ...keys.email(login.user.email),
    entity: ENTITY.email,
    user_id: login.user.id,
    ...login.user,
    password_hash: login.password_hash,
  }),
  putNew({
    ...keys.user(login.user.id),
    ...keys.userIndex(login.user.id),
    entity: ENTITY.user,
    ...login.user,
  }),
];

const toLogin = (item: Record<string, unknown>): Login => ({
  user: toUser({ ...item, id: item.user_id }),
  password_hash: String(item.password_hash),
});

const failuresKey = (email: string, windowStart: string) =>
  keys.loginFailures(sha256(email.toLowerCase()), windowStart);

export const identityStore = (db: Db): IdentityStore => ({
  async findLogin(email) {
    const out = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.email(email) }));
    return out.Item ? toLogin(out.Item) : undefined;
  },

  async loginAttempt(email, windowStart) {
    const loginKey = keys.email(email);
    const out = await db.doc.send(
      new BatchGetCommand({
        RequestItems: { [db.tableName]: { Keys: [loginKey, failuresKey(email, windowStart)] } },
      }),
    );
    // Two small keys stay far inside BatchGetItem's limits; a key left unprocessed (throttling)
    // reads as absent, which errs towards checking the password rather than refusing.
    const items = out.Responses?.[db.tableName] ?? [];
    const loginItem = items.find((i) => i.pk === loginKey.pk);
    const failures = items.find((i) => i.entity === ENTITY.loginFailures);
    return { login: loginItem ? toLogin(loginItem) : undefined, failures: Number(failures?.failures ?? 0) };
  },

  async recordLoginFailure(email, windowStart, expiresAt) {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: failuresKey(email, windowStart),
        UpdateExpression: 'ADD failures :one SET entity = :entity, #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':entity': ENTITY.loginFailures,
          ':ttl': Math.floor(expiresAt.getTime() / 1000) + 60,
        },
      }),
    );
  },

  async createSession(session, audit) {
    const item = {
      ...keys.session(session.token_id),
      ...keys.sessionIndex(session.user_id, session.created_at, session.token_id),
      entity: ENTITY.session,
      ...session,
      ttl: Math.floor(Date.parse(session.expires_at) / 1000) + SESSION_RETENTION_SECONDS,
    };
    const result = await transact(db, [putNew(item), auditPut(audit)]);
    if (!result.ok) throw new Error('session id collision');
  },

  async getSession(tokenId) {
    const out = await db.doc.send(
      new GetCommand({ TableName: db.tableName, Key: keys.session(tokenId), ConsistentRead: true }),
    );
    return out.Item ? toSession(out.Item) : undefined;
  },

  async touchSession(tokenId, at) {
    await db.doc
      .send(
        new UpdateCommand({
          TableName: db.tableName,
          Key: keys.session(tokenId),
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
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :end',
      ExpressionAttributeValues: { ':pk': keys.userIndex(userId).gsi1pk, ':end': 'N' },
    });
    const userItem = items.find((i) => i.entity === ENTITY.user);
    if (!userItem) return undefined;
    return {
      user: toUser(userItem),
      memberships: items.filter((i) => i.entity === ENTITY.member).map(toMember),
    };
  },

  async listSessions(userId) {
    const items = await queryAll(db, {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :s)',
      ExpressionAttributeValues: { ':pk': keys.userIndex(userId).gsi1pk, ':s': 'SESSION#' },
      ScanIndexForward: false,
    });
    return items.map(toSession);
  },

  async revokeSession(tokenId, userId, at, audit: AuditEvent) {
    const result = await transact(db, [
      {
        Update: {
          Key: keys.session(tokenId),
          UpdateExpression: 'SET revoked_at = :at',
          ConditionExpression: 'user_id = :u AND (attribute_not_exists(revoked_at) OR revoked_at = :null)',
          ExpressionAttributeValues: { ':at': at, ':u': userId, ':null': null },
        },
      },
      auditPut(audit),
    ]);
    return result.ok;
  },

  async createUser(login, audit) {
    const result = await transact(db, [...userPuts(login), ...(audit ? [auditPut(audit)] : [])]);
    return result.ok;
  },
});
