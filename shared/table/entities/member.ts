import { type AccessDoc, entity, record } from '../entity';
import { editable } from '../editable';

/**
 * A membership. It copies the tenant's name and creation time and the user's email and display
 * name, so "my tenants" (the user's GSI1 partition) and "members" are one Query each.
 */
export const member = /* @__PURE__ */ entity('member', {
  table: { pk: 'TENANT#{tenant_id}#MEMBER', sk: '{user_id}' },
  gsi1: { pk: 'USER#{user_id}', sk: 'MEMBER#{tenant_id}' },
});

/** The membership record: the tenant's and the user's names beside the role, so that both lists
 * read one item (MemberRead and MembershipRead are views of it). */
export const memberRecord = /* @__PURE__ */ record(member, {
  tenant_id: 'string',
  tenant_name: 'string',
  tenant_created_at: 'datetime',
  user_id: 'string',
  email: 'string',
  display_name: 'string',
  role: 'enum',
  created_at: 'datetime',
  updated_at: 'datetime|null?',
});

/**
 * What a membership's PATCH changes: its role, which every PATCH names. MemberUpdate and
 * updateMember derive from it.
 */
export const memberEditable = /* @__PURE__ */ editable(memberRecord, ['role'], {
  required: ['role'],
});

export const access = {
  entity: member,
  patterns: [{ name: 'Get a membership', sortKey: 'equals' }, { name: "List a tenant's members" }],
} satisfies AccessDoc<typeof member>;
