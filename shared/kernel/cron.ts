import { firstAtOrAfterLocal, offsetAt } from './time-zone';

/**
 * Five-field cron (minute hour day-of-month month day-of-week) in an IANA time zone, docs/api.md
 * section 9.1 ("Scheduled rules"). Fields take `*`, numbers, ranges `a-b`, steps `*\/s`, `a-b/s`,
 * `a/s` and lists of those. Day of week is 0-7 (0 and 7 are Sunday); when both day fields are
 * restricted, a day matching either one matches (the classic cron rule). Our own parser, not a
 * library: see docs/decisions.md ("Scheduled workflow rules").
 *
 * Daylight-saving changes: a local time that does not exist that day is skipped; one that occurs
 * twice fires once, the first time.
 */

export interface CronSchedule {
  minutes: number[];
  hours: number[];
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Whether each day field is restricted (not `*`): both restricted means either matches. */
  domRestricted: boolean;
  dowRestricted: boolean;
}

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day of week', min: 0, max: 7 },
] as const;

const PART = /^(\*|\d{1,2}(?:-\d{1,2})?)(?:\/(\d{1,2}))?$/;

export class CronError extends Error {}

function parseField(text: string, { name, min, max }: (typeof FIELDS)[number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(',')) {
    const m = PART.exec(part);
    if (!m) throw new CronError(`${name}: "${part}" is not a number, range, step or *`);
    const [, range, stepText] = m;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) throw new CronError(`${name}: a step must be at least 1`);
    let from: number = min;
    let to: number = max;
    if (range !== '*') {
      const [a, b] = range!.split('-').map(Number) as [number, number | undefined];
      from = a;
      to = b ?? (stepText === undefined ? a : max);
    }
    if (from < min || to > max || from > to)
      throw new CronError(`${name}: ${part} is outside ${min}-${max} or runs backwards`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

/** Parses a 5-field cron; throws CronError naming the field that is wrong. */
export function parseCron(cron: string): CronSchedule {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5)
    throw new CronError('a cron has five fields: minute hour day-of-month month day-of-week');
  const [minutes, hours, days, months, weekdays] = fields.map((f, i) => parseField(f, FIELDS[i]!));
  if (weekdays!.has(7)) weekdays!.add(0);
  return {
    minutes: [...minutes!].sort((a, b) => a - b),
    hours: [...hours!].sort((a, b) => a - b),
    days: days!,
    months: months!,
    weekdays: weekdays!,
    domRestricted: fields[2] !== '*',
    dowRestricted: fields[4] !== '*',
  };
}

/**
 * The shortest time in minutes between two firings the pattern's minutes and hours allow, on
 * the local clock, erring short: two firings in different hours are counted as if those hours
 * could be adjacent (a daylight-saving gap brings 01:55 and 03:05 ten minutes apart).
 */
export function shortestGapMinutes(s: CronSchedule): number {
  const m = s.minutes;
  let gap = Infinity;
  for (let i = 1; i < m.length; i++) gap = Math.min(gap, m[i]! - m[i - 1]!);
  // One hour a day: the wrap is a day long.
  if (s.hours.length > 1) gap = Math.min(gap, 60 - m[m.length - 1]! + m[0]!);
  return gap;
}

const dayMatches = (s: CronSchedule, y: number, month: number, day: number) => {
  if (!s.months.has(month)) return false;
  const dom = s.days.has(day);
  const dow = s.weekdays.has(new Date(Date.UTC(y, month - 1, day)).getUTCDay());
  if (s.domRestricted && s.dowRestricted) return dom || dow;
  return dom && dow;
};

const DAY = 86_400_000;
/** How far ahead a pattern is searched: `0 0 29 2 1` may wait years; `0 0 31 2 *` never fires. */
const HORIZON_DAYS = 366 * 8;

/**
 * The first firing strictly after `after`: a matching local wall time that exists in `zone`,
 * at its first occurrence. Null when the pattern never fires within eight years.
 */
export function nextRun(s: CronSchedule, zone: string, after: Date): Date | null {
  const t0 = after.getTime();
  // Start from the local date of `after` (a day early, for safety around offsets).
  const startLocal = t0 + offsetAt(zone, t0) - DAY;
  const start = new Date(startLocal);
  for (let d = 0; d < HORIZON_DAYS; d++) {
    const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + d));
    const [y, mo, da] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
    if (!dayMatches(s, y, mo, da)) continue;
    for (const h of s.hours)
      for (const m of s.minutes) {
        const local = Date.UTC(y, mo - 1, da, h, m);
        const t = firstAtOrAfterLocal(local, zone);
        // A local time inside a gap does not exist: the first instant after it shows another time.
        if (t + offsetAt(zone, t) !== local) continue;
        if (t > t0) return new Date(t);
      }
  }
  return null;
}

/** The latest firing at or before `now`, searching from the firing `from` (itself one): the catch-up of a missed schedule. */
export function latestRunBy(s: CronSchedule, zone: string, from: Date, now: Date): Date {
  const end = now.getTime();
  // Found back from now in doubling windows: one step per missed firing cost 7.6 s for three weeks
  // of `*/15` (about 4 ms a step), and a long outage would outlast the worker. The first window
  // holding a firing is at most twice the last gap wide, so few steps are left to walk.
  let latest = from;
  for (let width = 60_000; end - width > from.getTime(); width *= 2) {
    const first = nextRun(s, zone, new Date(end - width));
    if (first && first.getTime() <= end) {
      latest = first;
      break;
    }
  }
  for (;;) {
    const next = nextRun(s, zone, latest);
    if (!next || next.getTime() > now.getTime()) return latest;
    latest = next;
  }
}
