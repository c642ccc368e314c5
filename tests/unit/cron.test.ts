import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CronError, latestRunBy, nextRun, parseCron, shortestGapMinutes } from '#shared/kernel/cron';
import { offsetAt } from '#shared/kernel/time-zone';
import { WorkflowRuleCreate } from '#shared/api/schemas/workflows';
import { parse } from '#shared/api/issues';
import type { ValidationError } from '#shared/kernel/errors';

/** The next `n` firings after `from`. */
const runs = (cron: string, zone: string, from: string, n: number) => {
  const s = parseCron(cron);
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < n; i++) {
    const next = nextRun(s, zone, at);
    if (!next) break;
    out.push(next.toISOString());
    at = next;
  }
  return out;
};

describe('cron: parsing', () => {
  it('takes *, numbers, ranges, steps and lists; refuses anything else, naming the field', () => {
    const s = parseCron('0,30 8-10/2 1-31 */3 1-5');
    expect(s.minutes).toEqual([0, 30]);
    expect(s.hours).toEqual([8, 10]);
    expect([...s.months]).toEqual([1, 4, 7, 10]);
    expect(parseCron('0 0 * * 7').weekdays.has(0)).toBe(true);
    for (const [bad, field] of [
      ['60 * * * *', 'minute'],
      ['* 24 * * *', 'hour'],
      ['0 0 0 * *', 'day of month'],
      ['0 0 * 13 *', 'month'],
      ['0 0 * * 8', 'day of week'],
      ['0 0 * * MON', 'day of week'],
      ['5-1 * * * *', 'minute'],
      ['*/0 * * * *', 'minute'],
    ] as const)
      expect(() => parseCron(bad), bad).toThrow(new RegExp(field));
    for (const bad of ['* * * *', '0 0 * * * *', '']) expect(() => parseCron(bad), bad).toThrow(CronError);
  });

  it('the shortest gap between firings, erring short across hours', () => {
    expect(shortestGapMinutes(parseCron('*/15 * * * *'))).toBe(15);
    expect(shortestGapMinutes(parseCron('*/10 * * * *'))).toBe(10);
    expect(shortestGapMinutes(parseCron('* * * * *'))).toBe(1);
    expect(shortestGapMinutes(parseCron('0 * * * *'))).toBe(60);
    expect(shortestGapMinutes(parseCron('0 8 * * 1'))).toBe(Infinity);
    expect(shortestGapMinutes(parseCron('0,50 9 * * *'))).toBe(50);
    // 01:55 and 03:05 on a spring-forward night are ten minutes apart.
    expect(shortestGapMinutes(parseCron('5,55 1,3 * * *'))).toBe(10);
  });
});

describe('cron: time zones and daylight saving', () => {
  it('Europe/Berlin spring forward: 02:30 does not exist on 2026-03-29 and is skipped', () => {
    expect(runs('30 2 * * *', 'Europe/Berlin', '2026-03-27T00:00:00Z', 3)).toEqual([
      '2026-03-27T01:30:00.000Z',
      '2026-03-28T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });

  it('Europe/Berlin fall back: 02:00 and 02:30 occur twice on 2026-10-25 and fire once', () => {
    expect(runs('*/30 2 * * *', 'Europe/Berlin', '2026-10-24T23:59:00Z', 4)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:00:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('America/New_York spring forward: 02:30 does not exist on 2026-03-08 and is skipped', () => {
    expect(runs('30 2 * * *', 'America/New_York', '2026-03-07T00:00:00Z', 3)).toEqual([
      '2026-03-07T07:30:00.000Z',
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
  });

  it('America/New_York fall back: 01:30 occurs twice on 2026-11-01 and fires once', () => {
    expect(runs('30 1 * * *', 'America/New_York', '2026-10-31T00:00:00Z', 3)).toEqual([
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('a schedule across both changes keeps its local time: Monday 08:00 in Berlin and in New York', () => {
    expect(runs('0 8 * * 1', 'Europe/Berlin', '2026-03-16T00:00:00Z', 3)).toEqual([
      '2026-03-16T07:00:00.000Z',
      '2026-03-23T07:00:00.000Z',
      '2026-03-30T06:00:00.000Z',
    ]);
    expect(runs('0 8 * * 1', 'Europe/Berlin', '2026-10-19T00:00:00Z', 2)).toEqual([
      '2026-10-19T06:00:00.000Z',
      '2026-10-26T07:00:00.000Z',
    ]);
    expect(runs('0 8 * * 1', 'America/New_York', '2026-03-02T00:00:00Z', 2)).toEqual([
      '2026-03-02T13:00:00.000Z',
      '2026-03-09T12:00:00.000Z',
    ]);
    expect(runs('0 8 * * 1', 'America/New_York', '2026-10-26T00:00:00Z', 2)).toEqual([
      '2026-10-26T12:00:00.000Z',
      '2026-11-02T13:00:00.000Z',
    ]);
  });

  it('either day field matches when both are restricted; a date that never comes never fires', () => {
    // The 1st of the month or any Friday, March 2026 (Friday the 6th).
    expect(runs('0 12 1 * 5', 'UTC', '2026-02-28T00:00:00Z', 3)).toEqual([
      '2026-03-01T12:00:00.000Z',
      '2026-03-06T12:00:00.000Z',
      '2026-03-13T12:00:00.000Z',
    ]);
    expect(nextRun(parseCron('0 0 31 2 *'), 'UTC', new Date('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it('a missed schedule catches up to its latest firing only', () => {
    const s = parseCron('0 8 * * 1');
    const from = new Date('2026-03-02T07:00:00Z');
    expect(latestRunBy(s, 'Europe/Berlin', from, new Date('2026-03-25T00:00:00Z')).toISOString()).toBe(
      '2026-03-23T07:00:00.000Z',
    );
    expect(latestRunBy(s, 'Europe/Berlin', from, from).toISOString()).toBe(from.toISOString());
  });
});

describe('cron: properties', () => {
  const zones = fc.constantFrom(
    'UTC',
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
  );
  const pattern = fc.record({
    minute: fc.constantFrom('*/15', '0', '30', '0,45', '5-50/15'),
    hour: fc.constantFrom('*', '0-3', '2', '8,20', '*/5'),
    dom: fc.constantFrom('*', '1', '1-15', '28-31'),
    month: fc.constantFrom('*', '3', '10,11', '*/2'),
    dow: fc.constantFrom('*', '0', '1-5', '6,7'),
  });
  // 2024-2027, where the daylight-saving changes are.
  const instant = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2027, 11, 31) });

  it('every firing is later than asked, shows a matching local time, and is the first instant showing it', () => {
    fc.assert(
      fc.property(pattern, zones, instant, (p, zone, t) => {
        const cron = `${p.minute} ${p.hour} ${p.dom} ${p.month} ${p.dow}`;
        const s = parseCron(cron);
        const next = nextRun(s, zone, new Date(t));
        if (!next) return;
        const n = next.getTime();
        expect(n).toBeGreaterThan(t);
        const local = new Date(n + offsetAt(zone, n));
        expect(s.minutes).toContain(local.getUTCMinutes());
        expect(s.hours).toContain(local.getUTCHours());
        expect(s.months.has(local.getUTCMonth() + 1)).toBe(true);
        // Fires once: no earlier instant (within the largest offset change) showed the same local time.
        for (let back = 15 * 60_000; back <= 2 * 3_600_000; back += 15 * 60_000)
          expect(n - back + offsetAt(zone, n - back)).not.toBe(n + offsetAt(zone, n));
      }),
      { numRuns: 300 },
    );
  });

  it('the catch-up finds the latest firing the walk from firing to firing finds', () => {
    // The walk is the definition (one nextRun per missed firing); latestRunBy searches back from now.
    const walk = (s: ReturnType<typeof parseCron>, zone: string, from: Date, now: Date) => {
      let latest = from;
      for (let next = nextRun(s, zone, from); next && next <= now; next = nextRun(s, zone, next))
        latest = next;
      return latest;
    };
    fc.assert(
      fc.property(pattern, zones, instant, fc.integer({ min: 0, max: 86_400_000 }), (p, zone, t, span) => {
        const s = parseCron(`${p.minute} ${p.hour} ${p.dom} ${p.month} ${p.dow}`);
        const from = nextRun(s, zone, new Date(t));
        if (!from) return;
        const now = new Date(from.getTime() + span);
        expect(latestRunBy(s, zone, from, now).toISOString()).toBe(walk(s, zone, from, now).toISOString());
      }),
      { numRuns: 25 },
    );
  });

  it('nothing matching is skipped: no matching minute lies between a time and its next firing', () => {
    fc.assert(
      fc.property(zones, instant, (zone, t) => {
        const s = parseCron('*/15 * * * *');
        const next = nextRun(s, zone, new Date(t))!.getTime();
        // Every 15 minutes on the local clock: the next firing is at most 15 minutes away,
        // except right after a backward change, where repeated local times are not fired again.
        expect(next - t).toBeLessThanOrEqual(15 * 60_000 + 3_600_000);
        for (let u = Math.floor(t / 60_000) * 60_000 + 60_000; u < next; u += 60_000) {
          const local = u + offsetAt(zone, u);
          const matches = new Date(local).getUTCMinutes() % 15 === 0;
          const first = !Array.from({ length: 8 }, (_, k) => (k + 1) * 15 * 60_000).some(
            (back) => u - back + offsetAt(zone, u - back) === local,
          );
          expect(matches && first).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('cron: the rule trigger', () => {
  const rule = (schedule: Record<string, unknown>) => ({
    name: 'Weekly',
    trigger: { schedule },
    actions: [{ type: 'create_task', title: 'Check' }],
  });
  const paths = (body: unknown) => {
    try {
      parse(WorkflowRuleCreate, body);
      return [];
    } catch (err) {
      return (err as ValidationError).errors!.map((e) => e.path);
    }
  };

  it('takes a cron every 15 minutes or less often, in an IANA zone', () => {
    expect(paths(rule({ cron: '*/15 * * * *' }))).toEqual([]);
    expect(paths(rule({ cron: '0 8 * * 1', timezone: 'Europe/Berlin' }))).toEqual([]);
  });

  it('refuses a cron that can fire more often, a malformed one, an unknown zone and unknown fields, naming the path', () => {
    expect(paths(rule({ cron: '*/10 * * * *' }))).toEqual(['trigger.schedule.cron']);
    expect(paths(rule({ cron: '5,55 1,3 * * *' }))).toEqual(['trigger.schedule.cron']);
    expect(paths(rule({ cron: '0 8 * * MON' }))).toEqual(['trigger.schedule.cron']);
    expect(paths(rule({ cron: '0 8 * * 1', timezone: 'Mars/Olympus' }))).toEqual([
      'trigger.schedule.timezone',
    ]);
    expect(paths(rule({ cron: '0 8 * * 1', every: 2 })).length).toBeGreaterThan(0);
  });
});
