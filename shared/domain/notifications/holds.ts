import { timerId } from '#shared/domain/timers/arming';
import type { Timer } from '#shared/domain/timers/ports';
import type { Attempt, DedupeClaim, Notification } from './ports';

/**
 * What holds a notification back from going at once (docs/api.md sections 7.3 and 7.4): quiet
 * hours (`scheduled`), a deduplication window (`suppressed`, a duplicate) and a digest
 * (`digesting`). Pure: the keys, timers and history entries the use cases write.
 */

export const DEFAULT_DEDUPE_WINDOW_MINUTES = 60;

/** The attempt reasons of a notification held back (the public delivery contract lists them). */
export const HOLD_REASONS = {
  muted: 'muted',
  duplicate: 'duplicate',
  quietHours: 'quiet_hours',
  quietHoursEnded: 'quiet_hours_ended',
  digest: 'digest',
} as const;

/** Stable per notification, so a re-queued notification (review retry) keeps its key. */
export const notificationIdempotencyKey = (tenantId: string, notificationId: string) =>
  `notification:${tenantId}:${notificationId}`;

/** A member is one recipient whichever address their contacts give; an address is itself. */
const recipientKey = (n: Pick<Notification, 'recipient' | 'recipient_user_id'>) =>
  n.recipient_user_id ? `user:${n.recipient_user_id}` : `to:${n.recipient}`;

/** The slot of a dedupe or digest key: one per key, channel and recipient. */
export const slotOf = (n: Pick<Notification, 'channel' | 'recipient' | 'recipient_user_id'>, key: string) =>
  `${n.channel}#${recipientKey(n)}#${key}`;

const plusMinutes = (iso: string, minutes: number) =>
  new Date(Date.parse(iso) + minutes * 60_000).toISOString();

/** The hold a notification with a `dedupe_key` takes on its window when accepted. */
export function dedupeClaim(
  n: Notification,
  key: string | undefined,
  windowMinutes: number | undefined,
): DedupeClaim | null {
  if (key === undefined) return null;
  return {
    tenant_id: n.tenant_id,
    slot: slotOf(n, key),
    notification_id: n.id,
    expires_at: plusMinutes(n.created_at, windowMinutes ?? DEFAULT_DEDUPE_WINDOW_MINUTES),
    now: n.created_at,
  };
}

export const digestClosesAt = (openedAt: string, windowMinutes: number) =>
  plusMinutes(openedAt, windowMinutes);

/** The timer that lets a `scheduled` notification go at the end of the quiet hours. */
export const releaseTimer = (n: Notification, at: string): Timer => ({
  id: timerId('notification_release', n.id),
  tenant_id: n.tenant_id,
  kind: 'notification_release',
  subject_type: 'notification',
  subject_id: n.id,
  due_at: at,
});

/** The timer that sends a digest when its window closes; the digest message gets the digest's id. */
export const digestTimer = (tenantId: string, digestId: string, closesAt: string): Timer => ({
  id: timerId('notification_digest', digestId),
  tenant_id: tenantId,
  kind: 'notification_digest',
  subject_type: 'digest',
  subject_id: digestId,
  due_at: closesAt,
});

/** The notification with one more step in its history (a step that sent nothing has no latency). */
export const withStep = (
  n: Notification,
  at: string,
  outcome: Attempt['outcome'],
  reason: string | null,
  change: Partial<Notification>,
): Notification => ({
  ...n,
  ...change,
  updated_at: at,
  attempts: [...n.attempts, { attempt: n.attempts.length + 1, at, outcome, reason, latency_ms: null }],
});
