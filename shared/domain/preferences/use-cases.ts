import type { Clock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { auditEvent } from '#shared/domain/audit';
import { DEFAULT_PREFERENCES, type Preferences, type PreferencesInput, type PreferencesStore } from './ports';

/**
 * A member's own notification preferences (docs/api.md section 7.3). No operation takes a user
 * id: the caller reads and replaces their own document, so nobody can read another's addresses.
 */

export interface PreferencesDeps {
  preferences: PreferencesStore;
  clock: Clock;
}

const ownerOf = (caller: Principal, tenantId: string) => ({ tenant_id: tenantId, user_id: caller.user_id });

/**
 * The document as the member reads it: `contacts.email` defaults to the account's email (docs/api.md
 * section 7.3), as the delivery to a member uses it. The default is shown, never stored, so a
 * change of the account's email is what the next read shows and what the next email goes to.
 */
const shown = (caller: Principal, prefs: Preferences): Preferences => ({
  ...prefs,
  contacts: { ...prefs.contacts, email: prefs.contacts.email ?? caller.email },
});

export async function getPreferences(deps: PreferencesDeps, caller: Principal, tenantId: string) {
  return shown(caller, (await deps.preferences.get(ownerOf(caller, tenantId))) ?? DEFAULT_PREFERENCES);
}

/**
 * Replace the whole document (the schema has checked the addresses, the mutes and the quiet
 * hours), audited `preferences.updated` in the same transaction. The audit event says which
 * channels have a contact, never the addresses: the audit log is read by every member.
 */
export async function putPreferences(
  deps: PreferencesDeps,
  caller: Principal,
  tenantId: string,
  input: PreferencesInput,
): Promise<Preferences> {
  const next: Preferences = { ...input, updated_at: deps.clock.now().toISOString() };
  const audit = auditEvent(deps.clock, {
    tenant_id: tenantId,
    event_type: 'preferences.updated',
    actor_id: caller.user_id,
    entity_type: 'preferences',
    entity_id: caller.user_id,
    summary: 'notification preferences replaced',
    metadata: {
      contact_channels: Object.keys(input.contacts).sort(),
      muted: input.muted,
      quiet_hours: input.quiet_hours,
    },
  });
  await deps.preferences.put(ownerOf(caller, tenantId), next, audit);
  return shown(caller, next);
}
