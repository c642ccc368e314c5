import { type AccessDoc, entity, record } from '../entity';

/**
 * An invitation to a tenant (docs/api.md section 3). One item per tenant and email, keyed by
 * the email: its conditional Put keeps at most one invitation pending, and a new invitation
 * replaces one that is no longer pending. The owner's list (GSI2, newest first) and the
 * invitee's (GSI1, by the email, since the invitee may have no account yet) find it by id. It
 * copies the tenant's name and creation time, which the membership made on acceptance needs.
 */
export const invitation = /* @__PURE__ */ entity('invitation', {
  table: { pk: 'TENANT#{tenant_id}#INVITATION', sk: '{email:lower}' },
  gsi1: { pk: 'INVITEE#{email:lower}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#INVITATION', sk: '{id}' },
});

/** The invitation record (MemberInvitationRead derives from it), with the tenant's creation time for the membership it becomes. */
export const invitationRecord = /* @__PURE__ */ record(invitation, {
  id: 'string',
  tenant_id: 'string',
  tenant_name: 'string',
  tenant_created_at: { type: 'datetime', hidden: true },
  email: 'string',
  role: 'enum',
  status: 'enum',
  invited_by: 'string',
  created_at: 'datetime',
  expires_at: 'datetime',
});

export const access = {
  entity: invitation,
  labels: { id: 'invitation_id' },
  patterns: [
    {
      name: "A tenant's invitation of an email",
      sortKey: 'equals',
      notes: 'its conditional Put keeps one invitation pending per tenant and email',
    },
    {
      name: "List a tenant's invitations, newest first",
      index: 'gsi2',
      notes: 'status is a filter expression',
    },
    { name: "Find a tenant's invitation by id", index: 'gsi2', sortKey: 'equals' },
    {
      name: "List an invitee's invitations, newest first",
      index: 'gsi1',
      notes: 'read whole: one item per tenant that invited the email; the pending ones are kept',
    },
    { name: "Find an invitee's invitation by id", index: 'gsi1', sortKey: 'equals' },
  ],
} satisfies AccessDoc<typeof invitation>;
