import type { Key } from './table';

/**
 * Every key of every item, one function each: the repositories build keys only through these.
 * Importers use `import * as keys from './keys'`, so `keys.exception(...)` reads as before and
 * esbuild leaves the builders a function does not use out of its bundle.
 */

export const user = (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' });

/** The user's own GSI1 partition holds the user, their memberships and their sessions. */
export const userIndex = (userId: string) => ({ gsi1pk: `USER#${userId}`, gsi1sk: '#USER' });

export const email = (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });

export const session = (tokenId: string): Key => ({ pk: `SESSION#${tokenId}`, sk: 'SESSION' });

export const sessionIndex = (userId: string, createdAt: string, tokenId: string) => ({
  gsi1pk: `USER#${userId}`,
  gsi1sk: `SESSION#${createdAt}#${tokenId}`,
});

/** Failed logins of one email in one throttle window; the email is hashed, not stored. */
export const loginFailures = (emailHash: string, windowStart: string): Key => ({
  pk: `LOGIN_FAILURES#${emailHash}`,
  sk: windowStart,
});

export const tenant = (tenantId: string): Key => ({ pk: `TENANT#${tenantId}`, sk: 'TENANT' });

export const tenantIndex = (createdAt: string, tenantId: string) => ({
  gsi1pk: 'TENANTS',
  gsi1sk: `${createdAt}#${tenantId}`,
});

export const member = (tenantId: string, userId: string): Key => ({
  pk: `TENANT#${tenantId}#MEMBER`,
  sk: userId,
});

export const memberIndex = (userId: string, tenantId: string) => ({
  gsi1pk: `USER#${userId}`,
  gsi1sk: `MEMBER#${tenantId}`,
});

export const exception = (tenantId: string, id: string): Key => ({
  pk: `TENANT#${tenantId}#EXCEPTION`,
  sk: id,
});

export const exceptionStatusIndex = (tenantId: string, status: string, id: string) => ({
  gsi1pk: `TENANT#${tenantId}#EXCEPTION#STATUS#${status}`,
  gsi1sk: id,
});

export const exceptionSubjectIndex = (
  tenantId: string,
  subjectType: string,
  subjectId: string,
  id: string,
) => ({
  gsi2pk: `TENANT#${tenantId}#EXCEPTION#SUBJECT#${subjectType}#${subjectId}`,
  gsi2sk: id,
});

export const audit = (tenantId: string, id: string): Key => ({ pk: `TENANT#${tenantId}#AUDIT`, sk: id });

export const auditEntityIndex = (tenantId: string, entityType: string, entityId: string, id: string) => ({
  gsi1pk: `TENANT#${tenantId}#AUDIT#ENTITY#${entityType}#${entityId}`,
  gsi1sk: id,
});

export const auditEntityTypeIndex = (tenantId: string, entityType: string, id: string) => ({
  gsi2pk: `TENANT#${tenantId}#AUDIT#TYPE#${entityType}`,
  gsi2sk: id,
});

export const notification = (tenantId: string, id: string): Key => ({
  pk: `TENANT#${tenantId}#NOTIFICATION`,
  sk: id,
});

export const notificationStatusIndex = (tenantId: string, status: string, id: string) => ({
  gsi1pk: `TENANT#${tenantId}#NOTIFICATION#STATUS#${status}`,
  gsi1sk: id,
});

export const notificationChannelIndex = (tenantId: string, channel: string, id: string) => ({
  gsi2pk: `TENANT#${tenantId}#NOTIFICATION#CHANNEL#${channel}`,
  gsi2sk: id,
});

export const reviewItem = (tenantId: string, id: string): Key => ({
  pk: `TENANT#${tenantId}#REVIEW`,
  sk: id,
});

export const reviewItemStatusIndex = (tenantId: string, status: string, id: string) => ({
  gsi1pk: `TENANT#${tenantId}#REVIEW#STATUS#${status}`,
  gsi1sk: id,
});

/** A tenant's switch for one notification channel (written by the integration hub). */
export const channelConnection = (tenantId: string, channel: string): Key => ({
  pk: `TENANT#${tenantId}#CHANNEL`,
  sk: channel,
});

export const inboxItem = (tenantId: string, userId: string, notificationId: string): Key => ({
  pk: `TENANT#${tenantId}#INBOX#${userId}`,
  sk: notificationId,
});

/** Consumer-side idempotency: one item per consumed `idempotency_key`. */
export const consumed = (idempotencyKey: string): Key => ({
  pk: `CONSUMED#${idempotencyKey}`,
  sk: 'CONSUMED',
});

/** HTTP `Idempotency-Key` records, scoped by tenant (or user) and operation. */
export const idempotency = (scope: string, operation: string, keyHash: string): Key => ({
  pk: `IDEMPOTENCY#${scope}#${operation}#${keyHash}`,
  sk: 'IDEMPOTENCY',
});

export const outbox = (eventId: string): Key => ({ pk: `OUTBOX#${eventId}`, sk: 'OUTBOX' });

export const outboxPendingIndex = (eventId: string, occurredAt: string, shard: number) => ({
  gsi3pk: `OUTBOX#PENDING#${shard}`,
  gsi3sk: `${occurredAt}#${eventId}`,
});
