/**
 * The single-table design, defined once. The local runtime and the CDK stack both build the
 * table from `TABLE`; each entity declares its keys over it (shared/table/entities/), and the
 * repositories build every key and item through those declarations. The access patterns they
 * serve are derived in shared/table/access-patterns.ts and documented in docs/data-model.md (a
 * test keeps the two in step).
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
    /** Sparse for outbox items, review items, inbox items and timers; every exception carries its type key. */
    gsi3: { partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  },
} as const;

export type IndexName = keyof typeof TABLE.indexes;

/** The key attribute names of the table (`'table'`) or of an index. */
export const keyAttributes = (index: 'table' | IndexName) =>
  index === 'table' ? TABLE : TABLE.indexes[index];

export interface Key {
  pk: string;
  sk: string;
}
