import type { AuditEvent } from '#shared/domain/audit';
import { newId } from '#shared/kernel/ids';
import { CHANNEL_PROFILES } from './channels';
import { digestClosesAt, digestTimer, HOLD_REASONS, notificationIdempotencyKey, slotOf } from './holds';
import type { DedupeClaim, DigestEntry, DigestStore, DigestSlot, Notification } from './ports';

/**
 * Digests (docs/api.md section 7.4), the API's side: a notification with a `digest` joins the
 * open digest of its key, channel and recipient, or opens one whose window starts with it. The
 * slot of the key holds the open digest's id; opening is a conditional put on it and joining a
 * condition on it, so of concurrent notifications exactly one opens the digest and the others
 * join it, and none joins once the firing has closed it.
 */

/** Attempts at opening or joining before the draft fails (5xx: the client retries). */
export const DIGEST_TRIES = 8;

/** The most held notifications a digest message lists; the rest are counted. */
export const DIGEST_LISTED = 50;

/**
 * Holds `base` (an accepted draft) in its digest: `digesting` with the digest's id, written with
 * its audit event (and the dedupe claim, when it has one). Another notification holding the
 * dedupe window answers `{duplicate_of}` and nothing is written.
 */
export async function holdForDigest(
  store: DigestStore,
  base: Notification,
  windowMinutes: number,
  dedupe: DedupeClaim | null,
  auditOf: (n: Notification) => AuditEvent,
): Promise<Notification | { duplicate_of: string }> {
  const slot = slotOf(base, base.digest_key!);
  const now = base.created_at;
  const held = (digestId: string): Notification => ({
    ...base,
    status: 'digesting',
    queued_at: null,
    digest_id: digestId,
    attempts: [{ attempt: 1, at: now, outcome: 'digesting', reason: HOLD_REASONS.digest, latency_ms: null }],
  });
  for (let i = 0; i < DIGEST_TRIES; i++) {
    const open = await store.slot(base.tenant_id, slot);
    let result;
    let n: Notification;
    if (open && open.closes_at > now) {
      n = held(open.digest_id);
      result = await store.join(n, auditOf(n), open, dedupe);
    } else {
      const fresh: DigestSlot = {
        tenant_id: base.tenant_id,
        slot,
        digest_id: newId(),
        closes_at: digestClosesAt(now, windowMinutes),
      };
      n = held(fresh.digest_id);
      const timer = digestTimer(base.tenant_id, fresh.digest_id, fresh.closes_at);
      result = await store.open(n, auditOf(n), fresh, timer, dedupe);
    }
    if (result === 'ok') return n;
    if (typeof result === 'object') return result;
  }
  throw new Error(`digest slot ${slot} stayed contended`);
}

const line = (e: DigestEntry) => {
  const text = (e.subject ?? e.body).split('\n')[0]!.trim();
  return `- ${text.length > 120 ? `${text.slice(0, 119)}…` : text}`;
};

/**
 * The digest message: one notification to the held ones' recipient on their channel, under the
 * digest's id, listing at most DIGEST_LISTED of them (oldest first, as many as the channel's
 * body limit takes) and counting the rest.
 */
export function digestMessage(first: Notification, entries: DigestEntry[], now: string): Notification {
  const categories = new Set(entries.map((e) => e.category));
  const profile = CHANNEL_PROFILES[first.channel];
  const head = `${entries.length} notification${entries.length === 1 ? '' : 's'}:`;
  // As many lines as the channel's body limit leaves room for, the count of the rest after them.
  const room = profile.maxBodyChars - head.length - ` and ${entries.length} more`.length - 1;
  const lines: string[] = [];
  let used = 0;
  for (const e of entries.slice(0, DIGEST_LISTED)) {
    const l = line(e);
    if (used + l.length + 1 > room) break;
    lines.push(l);
    used += l.length + 1;
  }
  const listed = entries.slice(0, lines.length);
  const rest = entries.length - lines.length;
  const body = [head, ...lines, ...(rest > 0 ? [`and ${rest} more`] : [])].join('\n');
  return {
    id: first.digest_id!,
    tenant_id: first.tenant_id,
    channel: first.channel,
    recipient: first.recipient,
    recipient_user_id: first.recipient_user_id,
    category: categories.size === 1 ? first.category : 'general',
    priority: 'normal',
    subject: profile.subject === 'not used' ? null : `Digest: ${entries.length} notifications`,
    body,
    metadata_json: JSON.stringify({
      digest_key: first.digest_key,
      count: entries.length,
      notification_ids: listed.map((e) => e.notification_id),
    }),
    status: 'queued',
    policy_reasons: [],
    idempotency_key: notificationIdempotencyKey(first.tenant_id, first.digest_id!),
    attempts: [],
    review_item_id: null,
    created_by: null,
    created_at: now,
    updated_at: now,
    queued_at: now,
    delivered_at: null,
    deliver_after: null,
    dedupe_key: null,
    duplicate_of: null,
    digest_key: null,
    digest_id: null,
  };
}
