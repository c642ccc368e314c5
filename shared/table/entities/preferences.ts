import { type AccessDoc, entity, record } from '../entity';

/**
 * A member's notification preferences in one tenant (docs/api.md section 7.3): their contact
 * addresses, what they muted, their quiet hours. One item per member and tenant, read with the
 * membership when a notification names the member, replaced whole by `PUT .../me/preferences`.
 */
export const preferences = /* @__PURE__ */ entity('preferences', {
  table: { pk: 'TENANT#{tenant_id}#PREFERENCES', sk: '{user_id}' },
});

/** The preferences record (PreferencesRead derives from it). */
export const preferencesRecord = /* @__PURE__ */ record(preferences, {
  tenant_id: { type: 'string', hidden: true },
  user_id: { type: 'string', hidden: true },
  contacts: 'json',
  muted: 'json',
  quiet_hours: 'json|null',
  updated_at: 'datetime|null',
});

export const access = {
  entity: preferences,
  labels: { user_id: 'member user_id' },
  patterns: [
    {
      name: "Get a member's preferences (the member's PUT and GET, every notification to them)",
      sortKey: 'equals',
    },
  ],
} satisfies AccessDoc<typeof preferences>;
