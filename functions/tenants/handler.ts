import { listInvitations, revokeInvitation } from '#shared/domain/identity/invitations';
import {
  addOrInviteMember,
  createTenant,
  getTenant,
  listMembers,
  listTenants,
  removeMember,
  updateMemberRole,
  updateTenant,
} from '#shared/domain/identity/tenants';
import { TENANTS_OPERATIONS } from '#shared/api/operations/tenants';
import { dbFor } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { invitationStore } from '#functions/adapters/invitation-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { tenantStore } from '#functions/adapters/tenant-store';
import { clock, tableConfig } from '#functions/config';
import { HttpResult } from '#functions/http/dispatch';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

/** platform_admin's direct add (the operation's `alternative` status). */
const ADDED = TENANTS_OPERATIONS['members.add'].alternative.status;

const db = dbFor(tableConfig());
const deps = {
  identity: identityStore(db),
  tenants: tenantStore(db),
  invitations: invitationStore(db),
  clock,
};

export const handler = httpHandler(
  TENANTS_OPERATIONS,
  {
    'tenants.create': ({ principal, body }) => createTenant(deps, principal, body),
    'tenants.list': ({ principal, query }) => listTenants(deps, principal, query),
    'tenants.get': ({ params }) => getTenant(deps, params.tenant_id),
    'tenants.update': ({ principal, params, body }) => updateTenant(deps, principal, params.tenant_id, body),
    'members.list': ({ params, query }) => listMembers(deps, params.tenant_id, query),
    'members.add': async ({ principal, params, body }) => {
      const out = await addOrInviteMember(deps, principal, params.tenant_id, body);
      return 'member' in out ? new HttpResult(out.member, {}, ADDED) : out.invitation;
    },
    'members.update': ({ principal, params, body }) =>
      updateMemberRole(deps, principal, params.tenant_id, params.user_id, body.role),
    'members.remove': ({ principal, params }) =>
      removeMember(deps, principal, params.tenant_id, params.user_id),
    'invitations.list': ({ params, query }) => listInvitations(deps, params.tenant_id, query),
    'invitations.revoke': ({ principal, params }) =>
      revokeInvitation(deps, principal, params.tenant_id, params.invitation_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
