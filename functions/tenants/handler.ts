import {
  addMember,
  createTenant,
  getTenant,
  listMembers,
  listTenants,
  removeMember,
  updateMemberRole,
} from '../../shared/domain/tenants';
import { storesFromEnv } from '../adapters/stores';
import { clock } from '../config';
import { httpHandler } from '../lib/http';
import { tenantExists } from '../lib/tenant-exists';

const { identity, tenants } = storesFromEnv();
const deps = { identity, tenants, clock };

export const handler = httpHandler(
  'tenants',
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
  { tenantExists: tenantExists(tenants) },
);
