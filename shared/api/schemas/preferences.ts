import * as z from 'zod/mini';
import { CHANNEL_ADDRESS } from '#shared/kernel/addresses';
import { isTimeZone } from '#shared/kernel/time-zone';
import { named, text } from './common';
import { NotificationCategory } from './inbox';
import { NotificationChannel } from './notifications';

/** docs/api.md section 7.3: a member's own notification preferences in a tenant. */

export const MAX_MUTED = 50;

const address = (format: RegExp, what: string) => text(1, 254).check(z.regex(format, `must be ${what}`));

export const PreferenceContacts = named(
  z.strictObject({
    email: z.optional(address(CHANNEL_ADDRESS.email, 'a single mailbox address (local@domain)')),
    sms: z.optional(address(CHANNEL_ADDRESS.sms, 'an E.164 number: + and 8 to 15 digits')),
    telegram: z.optional(address(CHANNEL_ADDRESS.telegram, 'a numeric Telegram chat id')),
  }),
  'PreferenceContacts',
);

/** An entry mutes a channel, a category, or the pair; `security` is never muted. */
export const MutedEntry = named(
  z
    .strictObject({
      channel: z.optional(NotificationChannel),
      category: z.optional(NotificationCategory),
    })
    .check(
      z.refine((m) => m.channel !== undefined || m.category !== undefined, {
        path: ['channel'],
        message: 'a muted entry names a channel, a category or both',
        params: { code: 'empty_mute' },
      }),
      z.refine((m) => m.category !== 'security', {
        path: ['category'],
        message: 'security notifications cannot be muted',
        params: { code: 'unmutable_category' },
      }),
    ),
  'MutedEntry',
);

const HH_MM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const clockTime = () => z.string().check(z.regex(HH_MM, 'must be HH:MM, 00:00 to 23:59'));

export const TimeZone = text(1, 64).check(
  z.refine(isTimeZone, {
    message: 'must be an IANA time zone such as Europe/Berlin',
    params: { code: 'invalid_timezone' },
  }),
);

/** From `start` to `end` in local time; an `end` before `start` spans midnight. */
export const QuietHours = named(
  z.strictObject({ start: clockTime(), end: clockTime(), timezone: z.optional(TimeZone) }).check(
    z.refine((q) => q.start !== q.end, {
      path: ['end'],
      message: 'end must differ from start',
      params: { code: 'empty_window' },
    }),
  ),
  'QuietHours',
);

export const PreferencesPut = named(
  z.strictObject({
    contacts: z._default(PreferenceContacts, {}),
    muted: z._default(z.array(MutedEntry).check(z.maxLength(MAX_MUTED)), []),
    quiet_hours: z._default(z.nullable(QuietHours), null),
  }),
  'PreferencesPut',
);
