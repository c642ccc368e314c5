/**
 * The single-table design, defined once. The local runtime and the CDK stack both build the
 * table from `TABLE`; the repositories build every key through shared/table/keys.ts. The access patterns those keys serve are
 * listed in shared/table/access-patterns.ts and documented in docs/data-model.md (a test keeps the two
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
