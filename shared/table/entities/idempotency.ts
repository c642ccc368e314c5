import { type AccessDoc, entity } from '../entity';

/**
 * HTTP `Idempotency-Key` records, scoped by tenant (or user) and operation: the request's
 * `fingerprint`, its `state` (in_progress under a `lease_until`, then completed) and the
 * `response` to replay.
 */
export const idempotency = /* @__PURE__ */ entity('idempotency', {
  table: { pk: 'IDEMPOTENCY#{scope}#{operation}#{key_hash}', sk: 'IDEMPOTENCY' },
});

export const access = {
  entity: idempotency,
  labels: { key_hash: 'sha256(key)' },
  patterns: [
    {
      name: 'HTTP Idempotency-Key record',
      sortKey: 'equals',
      notes:
        'scope is the tenant id, or user:<user_id> on tenant-less routes; expires through ttl after 24 hours',
    },
  ],
} satisfies AccessDoc<typeof idempotency>;
