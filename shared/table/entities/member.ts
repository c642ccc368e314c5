import { type AccessDoc, entity } from '../entity';

/**
 * A membership. It copies the tenant's name and creation time and the user's email and display
 * name, so "my tenants" (the user's GSI1 partition) and "members" are one Query each.
 */
export const member = /* @__PURE__ */ entity('member', {
  table: { pk: 'TENANT#{tenant_id}#MEMBER', sk: '{user_id}' },
  gsi1: { pk: 'USER#{user_id}', sk: 'MEMBER#{tenant_id}' },
});

/** The membership record the stores read back (MemberRead's and MembershipRead's fields). */
export const MEMBER_FIELDS = [
  'tenant_id',
  'tenant_name',
  'tenant_created_at',
  'user_id',
  'email',
  'display_name',
  'role',
  'created_at',
  'updated_at',
] as const;

export const access = {
  entity: member,
  patterns: [{ name: 'Get a membership', sortKey: 'equals' }, { name: "List a tenant's members" }],
} satisfies AccessDoc<typeof member>;
