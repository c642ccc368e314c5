import type { WebhookEndpointRead } from '../../../../clients/typescript/index.js';

/** Why an endpoint is disabled, in the operator's words (docs/api.md, "Event subscriptions"). */
export const DISABLED_REASONS: Record<NonNullable<WebhookEndpointRead['disabled_reason']>, string> = {
  manual: 'disabled by a member',
  gone: 'the receiver answered 410 Gone',
  failing: 'every attempt failed for 5 days',
};

export const disabledReason = (e: Pick<WebhookEndpointRead, 'disabled_reason'>) =>
  e.disabled_reason ? DISABLED_REASONS[e.disabled_reason] : 'disabled';

/** For 24 hours after a rotation the secret before also signs (docs/api.md). */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

/** When the secret before the last rotation stops signing, or null when none signs now. */
export function previousSignsUntil(e: Pick<WebhookEndpointRead, 'secret_rotated_at'>, now = Date.now()) {
  if (!e.secret_rotated_at) return null;
  const until = Date.parse(e.secret_rotated_at) + ROTATION_OVERLAP_MS;
  return until > now ? new Date(until).toISOString() : null;
}
