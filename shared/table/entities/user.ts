import { type AccessDoc, entity, record } from '../entity';

/**
 * A user's profile. The user's own GSI1 partition is an item collection: the user (`#USER`),
 * their memberships (`MEMBER#…`) and their sessions (`SESSION#…`).
 */
export const user = /* @__PURE__ */ entity('user', {
  table: { pk: 'USER#{id}', sk: 'USER' },
  gsi1: { pk: 'USER#{id}', sk: '#USER' },
});

/** The user record (UserRead derives from it); the platform roles are the token check's, not the API's. */
export const userRecord = /* @__PURE__ */ record(user, {
  id: 'string',
  email: 'string',
  display_name: 'string',
  created_at: 'datetime',
  platform_roles: { type: 'string[]?', hidden: true },
});

/** In the user's GSI1 partition the user and their memberships sort below this, sessions above it. */
export const MEMBERSHIPS_END = 'N';

export const access = {
  entity: user,
  labels: { id: 'user_id' },
  patterns: [
    { name: 'Get user by id', sortKey: 'equals' },
    {
      name: 'User with their memberships (identity, token check)',
      index: 'gsi1',
      // MEMBERSHIPS_END, written out: a reference would keep this literal in the bundles (a test ties them).
      sortKey: { lessThan: "'N'" },
      notes: "'#USER' and 'MEMBER#<tenant_id>' sort before 'N'; sessions ('SESSION#…') after it",
    },
  ],
} satisfies AccessDoc<typeof user>;
