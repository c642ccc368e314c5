import { type AccessDoc, entity } from '../entity';

/** Pending outbox partitions are sharded so relay bursts do not heat one key. */
export const OUTBOX_PENDING_SHARDS = 4;

/**
 * An outbox event: the envelope of docs/api.md section 7 (OUTBOX_EVENT_FIELDS), written in the
 * transaction of the change it announces, then `relayed_at` once published. GSI3 is sparse: only
 * items not yet relayed carry its keys.
 */
export const outbox = /* @__PURE__ */ entity('outbox', {
  table: { pk: 'OUTBOX#{event_id}', sk: 'OUTBOX' },
  gsi3: { pk: 'OUTBOX#PENDING#{shard}', sk: '{occurred_at}#{event_id}' },
});

export const access = {
  entity: outbox,
  patterns: [
    {
      name: 'Outbox items not yet relayed (sweeper; operator metrics count them)',
      index: 'gsi3',
      sortKey: { lessThan: '<cutoff occurred_at>' },
      notes: 'sparse: the relay removes gsi3pk/gsi3sk when it has published the item',
    },
  ],
} satisfies AccessDoc<typeof outbox>;
