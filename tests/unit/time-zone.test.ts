import { describe, expect, it } from 'vitest';
import { endOfLocalDate, isTimeZone } from '#shared/kernel/time-zone';
import { TenantUpdate } from '#shared/api/schemas/tenants';

describe('time zones', () => {
  it('takes IANA names as spelled, refuses offsets, other cases and unknown names', () => {
    for (const zone of [
      'UTC',
      'Europe/Berlin',
      'America/New_York',
      'America/Argentina/Buenos_Aires',
      'Etc/GMT+5',
      'US/Eastern',
    ])
      expect([zone, isTimeZone(zone)]).toEqual([zone, true]);
    for (const zone of [
      '',
      'europe/berlin',
      'EUROPE/BERLIN',
      '+01:00',
      '-05:00',
      'Mars/Olympus',
      'Europe/Berlin ',
      '../etc',
      'Z',
    ])
      expect([zone, isTimeZone(zone)]).toEqual([zone, false]);
  });

  it('a tenant PATCH names the field of an unknown zone', () => {
    const r = TenantUpdate.safeParse({ timezone: 'Mars/Olympus' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['timezone']);
    expect(TenantUpdate.safeParse({ timezone: 'Europe/Berlin' }).success).toBe(true);
  });

  it('a date ends at the midnight that starts the next local day', () => {
    expect(endOfLocalDate('2026-07-01', 'UTC').toISOString()).toBe('2026-07-02T00:00:00.000Z');
    expect(endOfLocalDate('2026-07-01', 'Europe/Berlin').toISOString()).toBe('2026-07-01T22:00:00.000Z');
    expect(endOfLocalDate('2026-01-15', 'Europe/Berlin').toISOString()).toBe('2026-01-15T23:00:00.000Z');
    expect(endOfLocalDate('2026-01-15', 'America/New_York').toISOString()).toBe('2026-01-16T05:00:00.000Z');
    // The days of a daylight-saving change: their midnights are ordinary on either side.
    expect(endOfLocalDate('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(endOfLocalDate('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
    // Santiago moves its clocks at midnight: 2026-09-06 starts at 01:00 local (-03).
    expect(endOfLocalDate('2026-09-05', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
    // Month and year ends roll over.
    expect(endOfLocalDate('2026-12-31', 'Asia/Tokyo').toISOString()).toBe('2026-12-31T15:00:00.000Z');
  });
});
