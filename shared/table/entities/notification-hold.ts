import { type AccessDoc, entity } from '../entity';

/**
 * What holds notifications back (docs/api.md section 7.4), one slot per key, channel and
 * recipient (`slot`): a deduplication key's window (`DEDUPE#…`: the first notification's id
 * until `expires_at`, expiring through ttl) and a digest key's open digest (`DIGEST#…`: its
 * `digest_id` until `closes_at`; the digest's firing deletes it). Conditional writes on the slot
 * decide races: one notification holds a dedupe window, one opens a digest.
 */
export const notificationHold = /* @__PURE__ */ entity('notification_hold', {
  table: { pk: 'TENANT#{tenant_id}#NOTIFICATION_HOLD', sk: '{kind}#{slot}' },
});

export const access = {
  entity: notificationHold,
  labels: { slot: 'channel#recipient#key', kind: 'DEDUPE|DIGEST' },
  patterns: [
    {
      name: 'Dedupe window or open digest of a key (conditional put, condition check, delete)',
      sortKey: 'equals',
      notes: 'a dedupe window expires through ttl; a digest slot is deleted when its digest is sent',
    },
  ],
} satisfies AccessDoc<typeof notificationHold>;
