import type * as z from 'zod/mini';
import type { PreferencesPut } from '#shared/api/schemas/preferences';
import type { PreferencesRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';

/**
 * A member's notification preferences in a tenant (docs/api.md section 7.3): the addresses a
 * notification to the member goes to, what they muted and their quiet hours.
 */

export type Preferences = z.output<typeof PreferencesRead>;
export type PreferencesInput = z.output<typeof PreferencesPut>;
export type Contacts = Preferences['contacts'];
export type QuietHours = NonNullable<Preferences['quiet_hours']>;

/** Whose preferences: the caller's own, in one tenant. */
export interface PreferencesOwner {
  tenant_id: string;
  user_id: string;
}

export interface PreferencesStore {
  get(owner: PreferencesOwner): Promise<Preferences | undefined>;
  /** Replaces the document and writes its audit event, in one transaction. */
  put(owner: PreferencesOwner, preferences: Preferences, audit: AuditEvent): Promise<void>;
}

/** No preferences stored: no contact but the account's email, nothing muted, no quiet hours. */
export const DEFAULT_PREFERENCES: Preferences = {
  contacts: {},
  muted: [],
  quiet_hours: null,
  updated_at: null,
};
