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
import { dbFor } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { tenantStore } from '#functions/adapters/tenant-store';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
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
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
