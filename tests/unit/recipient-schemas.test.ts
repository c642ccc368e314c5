import { describe, expect, it } from 'vitest';
import { parse } from '#shared/api/issues';
import { NotificationCreate } from '#shared/api/schemas/notifications';
import { PreferencesPut } from '#shared/api/schemas/preferences';
import { quietUntil } from '#shared/domain/preferences/rules';
import { ValidationError } from '#shared/kernel/errors';

/**
 * The recipient features' bad input (docs/api.md sections 7.2 to 7.4): each a 422 naming the
 * field (the handlers parse before any use case runs, so nothing is stored), and the quiet
 * hours' window arithmetic, time zones and midnight included.
 */

const errorsOf = (schema: Parameters<typeof parse>[0], body: unknown) => {
  try {
    parse(schema, body);
    return [];
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    return (e.errors ?? []).map((f) => f.path);
  }
};
const sms = { channel: 'sms', recipient: '+4915112345678', body: 'b' };

describe('422s naming the field', () => {
  it('preferences: contact formats, HH:MM, unknown or unmutable mutes', () => {
    expect(errorsOf(PreferencesPut, { contacts: { sms: '0151 1234' } })).toEqual(['contacts.sms']);
    expect(errorsOf(PreferencesPut, { contacts: { email: 'no-at-sign' } })).toEqual(['contacts.email']);
    expect(errorsOf(PreferencesPut, { contacts: { telegram: '@someone' } })).toEqual(['contacts.telegram']);
    expect(errorsOf(PreferencesPut, { quiet_hours: { start: '7:00', end: '22:00' } })).toEqual([
      'quiet_hours.start',
    ]);
    expect(errorsOf(PreferencesPut, { quiet_hours: { start: '22:00', end: '24:00' } })).toEqual([
      'quiet_hours.end',
    ]);
    expect(errorsOf(PreferencesPut, { muted: [{ channel: 'pager' }] })).toEqual(['muted.0.channel']);
    expect(errorsOf(PreferencesPut, { muted: [{ category: 'spam' }] })).toEqual(['muted.0.category']);
    expect(errorsOf(PreferencesPut, { muted: [{ channel: 'sms', category: 'security' }] })).toEqual([
      'muted.0.category',
    ]);
  });

  it('notifications: dedupe and digest windows within 1 to 1440 minutes, keys within 1 to 128', () => {
    expect(errorsOf(NotificationCreate, { ...sms, dedupe_key: 'k', dedupe_window_minutes: 1440 })).toEqual(
      [],
    );
    expect(errorsOf(NotificationCreate, { ...sms, dedupe_key: 'k', dedupe_window_minutes: 0 })).toEqual([
      'dedupe_window_minutes',
    ]);
    expect(errorsOf(NotificationCreate, { ...sms, dedupe_key: 'k', dedupe_window_minutes: 1441 })).toEqual([
      'dedupe_window_minutes',
    ]);
    expect(errorsOf(NotificationCreate, { ...sms, dedupe_key: 'k'.repeat(129) })).toEqual(['dedupe_key']);
    expect(errorsOf(NotificationCreate, { ...sms, digest: { key: 'd', window_minutes: 1 } })).toEqual([]);
    expect(errorsOf(NotificationCreate, { ...sms, digest: { key: 'd', window_minutes: 1441 } })).toEqual([
      'digest.window_minutes',
    ]);
    expect(errorsOf(NotificationCreate, { ...sms, digest: { key: '', window_minutes: 5 } })).toEqual([
      'digest.key',
    ]);
    expect(errorsOf(NotificationCreate, { ...sms, digest: { key: 'd', window_minutes: 2.5 } })).toEqual([
      'digest.window_minutes',
    ]);
  });
});

describe('quietUntil', () => {
  const at = (iso: string) => new Date(iso);
  it('a window across midnight ends the next local morning; outside it, null', () => {
    const q = { start: '22:00', end: '07:00' };
    expect(quietUntil(q, 'UTC', at('2031-01-14T23:59:00Z'))?.toISOString()).toBe('2031-01-15T07:00:00.000Z');
    expect(quietUntil(q, 'UTC', at('2031-01-15T06:59:00Z'))?.toISOString()).toBe('2031-01-15T07:00:00.000Z');
    expect(quietUntil(q, 'UTC', at('2031-01-15T07:00:00Z'))).toBeNull();
    expect(quietUntil(q, 'UTC', at('2031-01-15T21:59:59Z'))).toBeNull();
    expect(quietUntil(null, 'UTC', at('2031-01-15T23:00:00Z'))).toBeNull();
  });

  it('a window within a day, in the zone given, across a change of the clocks', () => {
    expect(
      quietUntil(
        { start: '12:00', end: '13:30' },
        'America/New_York',
        at('2031-06-10T16:15:00Z'),
      )?.toISOString(),
    ).toBe('2031-06-10T17:30:00.000Z');
    // Berlin moves to summer time on 2031-03-30: the night starts at UTC+1 and ends at UTC+2.
    expect(
      quietUntil(
        { start: '22:00', end: '07:00' },
        'Europe/Berlin',
        at('2031-03-29T22:00:00Z'),
      )?.toISOString(),
    ).toBe('2031-03-30T05:00:00.000Z');
  });
});
