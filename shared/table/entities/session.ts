import { type AccessDoc, entity, record } from '../entity';

/** A bearer token's session, keyed by the token's hash; listed in its user's GSI1 partition. */
export const session = /* @__PURE__ */ entity('session', {
  table: { pk: 'SESSION#{token_id}', sk: 'SESSION' },
  gsi1: { pk: 'USER#{user_id}', sk: 'SESSION#{created_at}#{token_id}' },
});

/** The session record (AuthSessionRead derives from it; its status and tenants the domain computes). */
export const sessionRecord = /* @__PURE__ */ record(session, {
  token_id: 'string',
  user_id: 'string',
  user_email: 'string',
  user_display_name: 'string',
  status: { type: 'enum', derived: true },
  expires_at: 'datetime',
  tenant_ids: { type: 'string[]', derived: true },
  created_at: 'datetime|null?',
  last_used_at: 'datetime|null?',
  revoked_at: 'datetime|null?',
});

export const access = {
  entity: session,
  labels: { token_id: 'sha256(token)' },
  patterns: [
    { name: 'Check a bearer token', sortKey: 'equals' },
    { name: "List a user's sessions", index: 'gsi1', sortKey: 'begins_with' },
  ],
} satisfies AccessDoc<typeof session>;
