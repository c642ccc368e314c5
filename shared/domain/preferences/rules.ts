import type { Preferences } from './ports';

/**
 * What a member's preferences make of a notification to them (docs/api.md section 7.3). Pure.
 */

/** Never muted, whatever the member's entries say. */
export const UNMUTABLE_CATEGORY = 'security';

/**
 * Whether an entry of `muted` covers the notification: an entry with a channel mutes that
 * channel, one with a category that category, one with both only the pair.
 */
export function isMuted(
  prefs: Pick<Preferences, 'muted'> | null,
  n: { channel: string; category: string },
): boolean {
  if (!prefs || n.category === UNMUTABLE_CATEGORY) return false;
  return prefs.muted.some(
    (m) =>
      (m.channel === undefined || m.channel === n.channel) &&
      (m.category === undefined || m.category === n.category),
  );
}
