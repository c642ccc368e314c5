/**
 * Time zones (docs/api.md section 9.7): IANA names checked with the runtime's own Intl data, and
 * the one conversion the service needs from a local calendar date to an instant. No library:
 * Intl knows every zone's rules, and the Lambda runtime carries full ICU.
 */

export const DEFAULT_TIME_ZONE = 'UTC';

/** A zone name: letters first, then segments; never a UTC offset like `+01:00` (Intl takes those). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * Whether `name` is an IANA time zone name as it is spelled (`Europe/Berlin`, `UTC`, links such
 * as `US/Eastern`). Intl also accepts offsets and any letter case (`europe/berlin`): an offset has
 * no daylight-saving rules, and a name stored in another case would read back unlike the zone.
 */
export function isTimeZone(name: string): boolean {
  if (name.length > 64 || !ZONE_NAME.test(name)) return false;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
}

const formats = new Map<string, Intl.DateTimeFormat>();
const formatFor = (zone: string) => {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
};

/** The zone's offset from UTC at instant `t` (ms), whole seconds. */
export function offsetAt(zone: string, t: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatFor(zone).formatToParts(new Date(t)))
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const local = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return local - Math.floor(t / 1000) * 1000;
}

/**
 * The first instant whose local time in `zone` is at or after local midnight starting the day
 * after `date` (`YYYY-MM-DD`): when a date without a time ends (a document's `due_on`). A
 * midnight that occurs twice counts the first time; one that does not exist (a zone that moves
 * its clocks at midnight) ends the day when the gap does.
 */
export function endOfLocalDate(date: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(firstAtOrAfterLocal(Date.UTC(y, m - 1, d + 1), zone));
}

const DAY = 86_400_000;

/** The first instant whose local wall time in `zone` (`local`, as if UTC) has been reached. */
export function firstAtOrAfterLocal(local: number, zone: string): number {
  const reached = (t: number) => t + offsetAt(zone, t) >= local;
  const candidates = [offsetAt(zone, local - DAY), offsetAt(zone, local + DAY)].map((o) => local - o);
  const exact = candidates.filter((t) => t + offsetAt(zone, t) === local);
  if (exact.length) return Math.min(...exact);
  // In a gap: the change itself lies between the two candidates.
  let lo = Math.min(...candidates);
  let hi = Math.max(...candidates);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (reached(mid)) hi = mid;
    else lo = mid;
  }
  return reached(lo) ? lo : hi;
}
