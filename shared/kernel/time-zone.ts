/**
 * IANA time zones and wall-clock times in them, with the runtime's own zone data (Intl): no
 * library, and the same answers in Lambda and the local runtime.
 */

/** Whether `name` is an IANA time zone the runtime knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
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

/** The zone's offset from UTC at `at`, in minutes (Berlin in summer: 120). */
export function offsetMinutes(zone: string, at: Date): number {
  const parts = Object.fromEntries(
    formatFor(zone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** Minutes since local midnight in `zone` at `at` (0 to 1439). */
export function localMinuteOfDay(zone: string, at: Date): number {
  const local = at.getTime() + offsetMinutes(zone, at) * 60_000;
  return Math.floor((((local / 60_000) % 1440) + 1440) % 1440);
}
