import {
  addMember,
  createTenant,
  getTenant,
  listMembers,
  listTenants,
  removeMember,
  updateMemberRole,
} from '#shared/domain/identity/tenants';
import { TENANTS_OPERATIONS } from '#shared/api/operations/tenants';
import { dbFromEnv } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { tenantStore } from '#functions/adapters/tenant-store';
import { clock } from '#functions/config';
import { httpHandler } from '#functions/lib/http';
import { idempotencyIn } from '#functions/lib/idempotency';
import { tenantExistsIn } from '#functions/lib/tenant-exists';

const db = dbFromEnv();
const deps = { identity: identityStore(db), tenants: tenantStore(db), clock };

export const handler = httpHandler(
  TENANTS_OPERATIONS,
  {
    'tenants.create': ({ principal, body }) => createTenant(deps, principal, body),
    'tenants.list': ({ principal, query }) => listTenants(deps, principal, query),
    'tenants.get': ({ params }) => getTenant(deps, params.tenant_id),
    'members.list': ({ params, query }) => listMembers(deps, params.tenant_id, query),
    'members.add': ({ principal, params, body }) => addMember(deps, principal, params.tenant_id, body),
    'members.update': ({ principal, params, body }) =>
      updateMemberRole(deps, principal, params.tenant_id, params.user_id, body.role),
    'members.remove': ({ principal, params }) =>
      removeMember(deps, principal, params.tenant_id, params.user_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyIn(db) },
);
