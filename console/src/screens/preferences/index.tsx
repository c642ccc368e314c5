import { useState } from 'preact/hooks';
import {
  type MutedEntry,
  type NotificationCategory,
  type NotificationChannel,
  type PreferencesRead,
  preferencesGet,
  preferencesPut,
} from '../../../../clients/typescript/index.js';
import { useConsole } from '../../app-context.js';
import { useLoad } from '../../ui/load.js';
import { FieldError, Problem } from '../../ui/problem.js';
import { Loading, Time } from '../../ui/table.js';

const CATEGORIES: NotificationCategory[] = [
  'exceptions',
  'tasks',
  'documents',
  'integrations',
  'accounting',
  'general',
];
const CHANNELS: NotificationChannel[] = ['email', 'sms', 'telegram', 'in_app'];
const CONTACTS = [
  { key: 'email', label: 'Email', type: 'email', hint: 'else your sign-in email' },
  { key: 'sms', label: 'SMS', type: 'tel', hint: 'E.164, e.g. +4915112345678' },
  { key: 'telegram', label: 'Telegram chat id', type: 'text', hint: '' },
] as const;

/** The member's own contacts, mutes and quiet hours (the security category can never be muted). */
export function PreferencesScreen() {
  const { client, tenant } = useConsole();
  const prefs = useLoad(
    async () => (await preferencesGet({ client, path: { tenant_id: tenant } })).data,
    [tenant],
  );
  if (prefs.state === 'loading') return <Loading />;
  if (prefs.state === 'error')
    return (
      <section>
        <h1 id="title">Preferences</h1>
        <Problem error={prefs.error} />
      </section>
    );
  // Keyed by tenant, not by the saved version: saving must not remount the form (and lose its
  // "Saved."), another tenant's preferences must.
  return <PreferencesForm key={tenant} prefs={prefs.data} onSaved={prefs.reload} />;
}

function PreferencesForm({ prefs, onSaved }: { prefs: PreferencesRead; onSaved: () => void }) {
  const { client, tenant } = useConsole();
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState(false);
  const [quiet, setQuiet] = useState(prefs.quiet_hours !== null);
  const only = (m: MutedEntry) => (m.channel === undefined) !== (m.category === undefined);
  const pairs = prefs.muted.filter((m) => !only(m));

  const submit = async (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const contacts = Object.fromEntries(CONTACTS.map((c) => [c.key, text(c.key)]).filter(([, v]) => v));
    const muted: MutedEntry[] = [
      ...CATEGORIES.filter((c) => form.has(`mute-category-${c}`)).map((category) => ({ category })),
      ...CHANNELS.filter((c) => form.has(`mute-channel-${c}`)).map((channel) => ({ channel })),
      ...pairs,
    ];
    const tz = text('timezone');
    setError(undefined);
    setSaved(false);
    try {
      await preferencesPut({
        client,
        path: { tenant_id: tenant },
        body: {
          contacts,
          muted,
          quiet_hours: quiet
            ? { start: text('start'), end: text('end'), ...(tz ? { timezone: tz } : {}) }
            : null,
        },
      });
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(err);
    }
  };

  const mutedCategory = (c: NotificationCategory) => prefs.muted.some((m) => m.category === c && !m.channel);
  const mutedChannel = (c: NotificationChannel) => prefs.muted.some((m) => m.channel === c && !m.category);
  return (
    <section aria-labelledby="title">
      <h1 id="title">My preferences</h1>
      <p class="muted">
        Yours, in this tenant only.{' '}
        {prefs.updated_at ? (
          <>
            Last saved <Time at={prefs.updated_at} />.
          </>
        ) : (
          'Never saved: the defaults apply.'
        )}
      </p>
      <form class="prefs" onSubmit={submit} noValidate>
        <fieldset>
          <legend>Contacts</legend>
          {CONTACTS.map((c) => (
            <div class="field" key={c.key}>
              <label for={`contact-${c.key}`}>{c.label}</label>
              <input
                id={`contact-${c.key}`}
                name={c.key}
                type={c.type as 'text'}
                defaultValue={prefs.contacts[c.key] ?? ''}
                placeholder={c.hint}
                aria-describedby={`contact-${c.key}-error`}
              />
              <FieldError error={error} path={`contacts.${c.key}`} id={`contact-${c.key}-error`} />
            </div>
          ))}
        </fieldset>
        <fieldset>
          <legend>Mute categories</legend>
          {CATEGORIES.map((c) => (
            <label class="check" key={c}>
              <input type="checkbox" name={`mute-category-${c}`} defaultChecked={mutedCategory(c)} /> {c}
            </label>
          ))}
          <label class="check">
            <input type="checkbox" disabled checked={false} aria-describedby="security-note" /> security
          </label>
          <span class="muted" id="security-note">
            (always delivered: security notifications cannot be muted)
          </span>
          <FieldError error={error} path="muted" id="muted-error" />
        </fieldset>
        <fieldset>
          <legend>Mute channels</legend>
          {CHANNELS.map((c) => (
            <label class="check" key={c}>
              <input type="checkbox" name={`mute-channel-${c}`} defaultChecked={mutedChannel(c)} />{' '}
              {c.replace('_', '-')}
            </label>
          ))}
          {pairs.length ? (
            <p class="muted">
              Also muted (kept): {pairs.map((m) => `${m.category} on ${m.channel}`).join(', ')}
            </p>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>Quiet hours</legend>
          <label class="check">
            <input
              type="checkbox"
              name="quiet"
              checked={quiet}
              onChange={(e) => setQuiet(e.currentTarget.checked)}
            />{' '}
            Hold normal email, SMS and Telegram messages during these hours
          </label>
          {quiet ? (
            <div class="row">
              <div class="field">
                <label for="start">From</label>
                <input
                  id="start"
                  name="start"
                  defaultValue={prefs.quiet_hours?.start ?? '22:00'}
                  size={5}
                  placeholder="HH:MM"
                  aria-describedby="start-error"
                />
                <FieldError error={error} path="quiet_hours.start" id="start-error" />
              </div>
              <div class="field">
                <label for="end">To</label>
                <input
                  id="end"
                  name="end"
                  defaultValue={prefs.quiet_hours?.end ?? '07:00'}
                  size={5}
                  placeholder="HH:MM"
                  aria-describedby="end-error"
                />
                <FieldError error={error} path="quiet_hours.end" id="end-error" />
              </div>
              <div class="field">
                <label for="timezone">Time zone</label>
                <input
                  id="timezone"
                  name="timezone"
                  defaultValue={prefs.quiet_hours?.timezone ?? ''}
                  placeholder="the tenant's"
                  size={18}
                  aria-describedby="timezone-error"
                />
                <FieldError error={error} path="quiet_hours.timezone" id="timezone-error" />
              </div>
            </div>
          ) : null}
        </fieldset>
        {error ? <Problem error={error} /> : null}
        {saved ? (
          <p role="status" class="ok">
            Saved.
          </p>
        ) : null}
        <button type="submit" class="primary">
          Save preferences
        </button>
      </form>
    </section>
  );
}
