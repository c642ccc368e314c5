import { type AccessDoc, entity } from '../entity';

/**
 * Consumer-side idempotency: one item per consumed `idempotency_key` (in the key only), with its
 * `state` (in_progress under a `lease_until`, then done at `done_at`).
 */
export const consumed = /* @__PURE__ */ entity('consumed', {
  table: { pk: 'CONSUMED#{idempotency_key}', sk: 'CONSUMED' },
});

export const access = {
  entity: consumed,
  patterns: [
    {
      name: 'Consumer idempotency claim',
      sortKey: 'equals',
      notes: 'conditional Put/Update: a redelivered or redriven message never sends twice',
    },
  ],
} satisfies AccessDoc<typeof consumed>;
