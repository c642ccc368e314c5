import {
  createPolicy,
  deletePolicy,
  getPolicy,
  listPolicies,
  updatePolicy,
} from '#shared/domain/escalation/use-cases';
import { ESCALATION_POLICIES_OPERATIONS } from '#shared/api/operations/escalation-policies';
import { dbFor } from '#functions/adapters/dynamo';
import { escalationPolicyStore, memberDirectory } from '#functions/adapters/escalation-policy-store';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const deps = { policies: escalationPolicyStore(db), members: memberDirectory(db), clock };

export const handler = httpHandler(
  ESCALATION_POLICIES_OPERATIONS,
  {
    'escalationPolicies.create': ({ principal, params, body }) =>
      createPolicy(deps, principal, params.tenant_id, body),
    'escalationPolicies.list': ({ params, query }) => listPolicies(deps, params.tenant_id, query),
    'escalationPolicies.get': ({ params }) => getPolicy(deps, params.tenant_id, params.policy_id),
    'escalationPolicies.update': ({ principal, params, body }) =>
      updatePolicy(deps, principal, params.tenant_id, params.policy_id, body),
    'escalationPolicies.delete': ({ principal, params }) =>
      deletePolicy(deps, principal, params.tenant_id, params.policy_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
