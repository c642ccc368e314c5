/**
 * The single-table design, defined once. The local runtime and the CDK stack both build the
 * table from `TABLE`; the repositories build every key through `keys`. The access patterns those keys serve are
 * listed in shared/access-patterns.ts and documented in docs/data-model.md (a test keeps the two
 * in step).
 *
 * Rules: every key attribute is a string; entity partitions are per tenant and per entity kind
 * (`TENANT#<id>#EXCEPTION`), so one busy kind never throttles another; sort keys that list
 * newest first are UUIDv7 ids, which sort by creation time.
 */

export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after. */
  ttlAttribute: 'ttl',
  indexes: {
    gsi1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    gsi2: { partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /** Sparse: only outbox items not yet relayed carry its keys. */
    gsi3: { partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  },
} as const;

export type IndexName = keyof typeof TABLE.indexes;

export interface Key {
  pk: string;
  sk: string;
}

/** Outbox partitions of the pending index are sharded so relay bursts do not heat one key. */
export const OUTBOX_PENDING_SHARDS = 4;

export const keys = {
  user: (userId: string): Key => ({ pk: `USER#${userId}`, sk: 'USER' }),
  /** The user's own GSI1 partition holds the user, their memberships and their sessions. */
  userIndex: (userId: string) => ({ gsi1pk: `USER#${userId}`, gsi1sk: '#USER' }),
  email: (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  session: (tokenId: string): Key => ({ pk: `SESSION#${tokenId}`, sk: 'SESSION' }),
  sessionIndex: (userId: string, createdAt: string, tokenId: string) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `SESSION#${createdAt}#${tokenId}`,
  }),
  /** Failed logins of one email in one throttle window; the email is hashed, not stored. */
  loginFailures: (emailHash: string, windowStart: string): Key => ({
    pk: `LOGIN_FAILURES#${emailHash}`,
    sk: windowStart,
  }),
  tenant: (tenantId: string): Key => ({ pk: `TENANT#${tenantId}`, sk: 'TENANT' }),
  tenantIndex: (createdAt: string, tenantId: string) => ({
    gsi1pk: 'TENANTS',
    gsi1sk: `${createdAt}#${tenantId}`,
  }),
  member: (tenantId: string, userId: string): Key => ({ pk: `TENANT#${tenantId}#MEMBER`, sk: userId }),
  memberIndex: (userId: string, tenantId: string) => ({
    gsi1pk: `USER#${userId}`,
    gsi1sk: `MEMBER#${tenantId}`,
  }),
  exception: (tenantId: string, id: string): Key => ({ pk: `TENANT#${tenantId}#EXCEPTION`, sk: id }),
  exceptionStatusIndex: (tenantId: string, status: string, id: string) => ({
    gsi1pk: `TENANT#${tenantId}#EXCEPTION#STATUS#${status}`,
    gsi1sk: id,
  }),
  exceptionSubjectIndex: (tenantId: string, subjectType: string, subjectId: string, id: string) => ({
    gsi2pk: `TENANT#${tenantId}#EXCEPTION#SUBJECT#${subjectType}#${subjectId}`,
    gsi2sk: id,
  }),
  audit: (tenantId: string, id: string): Key => ({ pk: `TENANT#${tenantId}#AUDIT`, sk: id }),
  auditEntityIndex: (tenantId: string, entityType: string, entityId: string, id: string) => ({
    gsi1pk: `TENANT#${tenantId}#AUDIT#ENTITY#${entityType}#${entityId}`,
    gsi1sk: id,
  }),
  auditEntityTypeIndex: (tenantId: string, entityType: string, id: string) => ({
    gsi2pk: `TENANT#${tenantId}#AUDIT#TYPE#${entityType}`,
    gsi2sk: id,
  }),
  notification: (tenantId: string, id: string): Key => ({ pk: `TENANT#${tenantId}#NOTIFICATION`, sk: id }),
  notificationStatusIndex: (tenantId: string, status: string, id: string) => ({
    gsi1pk: `TENANT#${tenantId}#NOTIFICATION#STATUS#${status}`,
    gsi1sk: id,
  }),
  notificationChannelIndex: (tenantId: string, channel: string, id: string) => ({
    gsi2pk: `TENANT#${tenantId}#NOTIFICATION#CHANNEL#${channel}`,
    gsi2sk: id,
  }),
  reviewItem: (tenantId: string, id: string): Key => ({ pk: `TENANT#${tenantId}#REVIEW`, sk: id }),
  reviewItemStatusIndex: (tenantId: string, status: string, id: string) => ({
    gsi1pk: `TENANT#${tenantId}#REVIEW#STATUS#${status}`,
    gsi1sk: id,
  }),
  /** A tenant's switch for one notification channel (written by the integration hub). */
  channelConnection: (tenantId: string, channel: string): Key => ({
    pk: `TENANT#${tenantId}#CHANNEL`,
    sk: channel,
  }),
  inboxItem: (tenantId: string, userId: string, notificationId: string): Key => ({
    pk: `TENANT#${tenantId}#INBOX#${userId}`,
    sk: notificationId,
  }),
  /** Consumer-side idempotency: one item per consumed `idempotency_key`. */
  consumed: (idempotencyKey: string): Key => ({ pk: `CONSUMED#${idempotencyKey}`, sk: 'CONSUMED' }),
  /** HTTP `Idempotency-Key` records, scoped by tenant (or user) and operation. */
  idempotency: (scope: string, operation: string, keyHash: string): Key => ({
    pk: `IDEMPOTENCY#${scope}#${operation}#${keyHash}`,
    sk: 'IDEMPOTENCY',
  }),
  outbox: (eventId: string): Key => ({ pk: `OUTBOX#${eventId}`, sk: 'OUTBOX' }),
  outboxPendingIndex: (eventId: string, occurredAt: string, shard: number) => ({
    gsi3pk: `OUTBOX#PENDING#${shard}`,
    gsi3sk: `${occurredAt}#${eventId}`,
  }),
} as const;

/** Entity type written in every item's `entity` attribute (used by stream filters and debugging). */
export const ENTITY = {
  user: 'user',
  email: 'email',
  session: 'session',
  loginFailures: 'login_failures',
  tenant: 'tenant',
  member: 'member',
  exception: 'exception',
  audit: 'audit_event',
  outbox: 'outbox',
  notification: 'notification',
  reviewItem: 'review_item',
  channelConnection: 'channel_connection',
  inboxItem: 'inbox_item',
  consumed: 'consumed',
  idempotency: 'idempotency',
} as const;
