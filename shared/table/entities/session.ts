import { type AccessDoc, entity } from '../entity';

/** A bearer token's session, keyed by the token's hash; listed in its user's GSI1 partition. */
export const session = /* @__PURE__ */ entity('session', {
  table: { pk: 'SESSION#{token_id}', sk: 'SESSION' },
  gsi1: { pk: 'USER#{user_id}', sk: 'SESSION#{created_at}#{token_id}' },
});

/** The session record the stores read back (AuthSessionRead's stored fields). */
export const SESSION_FIELDS = [
  'token_id',
  'user_id',
  'user_email',
  'user_display_name',
  'expires_at',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

export const access = {
  entity: session,
  labels: { token_id: 'sha256(token)' },
  patterns: [
    { name: 'Check a bearer token', sortKey: 'equals' },
    { name: "List a user's sessions", index: 'gsi1', sortKey: 'begins_with' },
  ],
} satisfies AccessDoc<typeof session>;
