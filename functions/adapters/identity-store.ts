import { BatchGetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEvent } from '#shared/domain/audit';
import type { IdentityStore, Login } from '#shared/domain/identity/ports';
import { sha256 } from '#shared/kernel/secrets';
import { login } from '#shared/table/entities/login';
import { loginFailures } from '#shared/table/entities/login-failures';
import { session } from '#shared/table/entities/session';
import { user } from '#shared/table/entities/user';
import { auditPut } from './audit-store';
import { beginsWith, queryAll } from './query';
import type { Db } from './dynamo';
import { getRecord, putNew } from './records';
import { transact } from './transact';
import { sessionCheckStore, toSession, toUser } from './session-check-store';

export { toMember, toUser } from './session-check-store';

/** Expired sessions stay listable for a week, then DynamoDB's TTL removes them. */
const SESSION_RETENTION_SECONDS = 7 * 24 * 3600;

/** The two items a user is made of: the login (by email) and the profile (by id). */
export const userPuts = (account: Login) => [
  putNew(login.item({ user_id: account.user.id, ...account.user, password_hash: account.password_hash })),
  putNew(user.item(account.user)),
];

const toLogin = (item: Record<string, unknown>): Login => ({
  user: toUser({ ...item, id: item.user_id }),
  password_hash: String(item.password_hash),
});

const failuresKey = (email: string, windowStart: string) =>
  loginFailures.key({ email_hash: sha256(email.toLowerCase()), window_start: windowStart });

export const identityStore = (db: Db): IdentityStore => ({
  ...sessionCheckStore(db),

  async findLogin(email) {
    return getRecord(db, login.key({ email }), toLogin, { consistent: false });
  },

  async loginAttempt(email, windowStart) {
    const loginKey = login.key({ email });
    const out = await db.doc.send(
      new BatchGetCommand({
        RequestItems: { [db.tableName]: { Keys: [loginKey, failuresKey(email, windowStart)] } },
      }),
    );
    // Two small keys stay far inside BatchGetItem's limits; a key left unprocessed (throttling)
    // reads as absent, which errs towards checking the password rather than refusing.
    const items = out.Responses?.[db.tableName] ?? [];
    const loginItem = items.find((i) => i.pk === loginKey.pk);
    const failures = items.find((i) => i.entity === loginFailures.entity);
    return { login: loginItem ? toLogin(loginItem) : undefined, failures: Number(failures?.failures ?? 0) };
  },

  async recordLoginFailure(email, windowStart, expiresAt) {
    const out = await db.doc.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: failuresKey(email, windowStart),
        UpdateExpression: 'ADD failures :one SET entity = :entity, #ttl = :ttl',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':entity': loginFailures.entity,
          ':ttl': Math.floor(expiresAt.getTime() / 1000) + 60,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(out.Attributes?.failures);
  },

  async createSession(record, audit) {
    const item = session.item({
      ...record,
      ttl: Math.floor(Date.parse(record.expires_at) / 1000) + SESSION_RETENTION_SECONDS,
    });
    const result = await transact(db, [putNew(item), auditPut(audit)]);
    if (!result.ok) throw new Error('session id collision');
  },

  async listSessions(userId) {
    const items = await queryAll(db, {
      ...session.query('gsi1', { user_id: userId }),
      sortCondition: beginsWith(session.sortPrefix('gsi1')),
    });
    return items.map(toSession);
  },

  async revokeSession(tokenId, userId, at, audit: AuditEvent) {
    const result = await transact(db, [
      {
        Update: {
          Key: session.key({ token_id: tokenId }),
          UpdateExpression: 'SET revoked_at = :at',
          ConditionExpression: 'user_id = :u AND (attribute_not_exists(revoked_at) OR revoked_at = :null)',
          ExpressionAttributeValues: { ':at': at, ':u': userId, ':null': null },
        },
      },
      auditPut(audit),
    ]);
    return result.ok;
  },

  async createUser(account, audit) {
    const result = await transact(db, [...userPuts(account), ...(audit ? [auditPut(audit)] : [])]);
    return result.ok;
  },
});
