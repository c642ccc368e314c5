import { firstAtOrAfterLocal, offsetAt } from '#shared/kernel/time-zone';
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

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const DAY_MINUTES = 1440;

/**
 * When the member's quiet hours around `now` end, or null when `now` is outside them. The window
 * runs from `start` (included) to `end` (excluded) in local time of `zone`; an `end` before
 * `start` spans midnight. On a day the clocks change, the end is the first instant its local
 * time is reached.
 */
export function quietUntil(
  quiet: { start: string; end: string } | null | undefined,
  zone: string,
  now: Date,
): Date | null {
  if (!quiet) return null;
  const t = now.getTime();
  const local = t + offsetAt(zone, t);
  const localMidnight = local - (((local % 86_400_000) + 86_400_000) % 86_400_000);
  const m = Math.floor((local - localMidnight) / 60_000);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const spans = end < start;
  const inside = spans ? m >= start || m < end : m >= start && m < end;
  if (!inside) return null;
  const endDay = spans && m >= start ? localMidnight + DAY_MINUTES * 60_000 : localMidnight;
  return new Date(firstAtOrAfterLocal(endDay + end * 60_000, zone));
}
