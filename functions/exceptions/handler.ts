import {
  changeExceptionStatus,
  createException,
  getException,
  listExceptions,
} from '#shared/domain/exceptions/use-cases';
import {
  createPolicy,
  deletePolicy,
  getPolicy,
  listPolicies,
  updatePolicy,
} from '#shared/domain/escalation/use-cases';
import { EXCEPTIONS_OPERATIONS } from '#shared/api/operations/exceptions';
import { ESCALATION_POLICIES_OPERATIONS } from '#shared/api/operations/escalation-policies';
import { dbFor } from '#functions/adapters/dynamo';
import { escalationPolicyStore, memberDirectory } from '#functions/adapters/escalation-policy-store';
import { exceptionStore } from '#functions/adapters/exception-store';
import { idempotencyStore } from '#functions/adapters/idempotency-store';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { clock, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { idempotencyWith } from '#functions/http/idempotency';

const db = dbFor(tableConfig());
const policies = escalationPolicyStore(db);
const deps = { exceptions: exceptionStore(db), policies, clock };
const policyDeps = { policies, members: memberDirectory(db), clock };

export const handler = httpHandler(
  { ...EXCEPTIONS_OPERATIONS, ...ESCALATION_POLICIES_OPERATIONS },
  {
    'exceptions.create': ({ principal, params, body }) =>
      createException(deps, principal, params.tenant_id, body),
    'exceptions.list': ({ params, query: { limit, cursor, ...filter } }) =>
      listExceptions(deps, params.tenant_id, filter, { limit, cursor }),
    'exceptions.get': ({ params }) => getException(deps, params.tenant_id, params.exception_id),
    'exceptions.changeStatus': ({ principal, params, body }) =>
      changeExceptionStatus(deps, principal, params.tenant_id, params.exception_id, body),
    'escalationPolicies.create': ({ principal, params, body }) =>
      createPolicy(policyDeps, principal, params.tenant_id, body),
    'escalationPolicies.list': ({ params, query }) => listPolicies(policyDeps, params.tenant_id, query),
    'escalationPolicies.get': ({ params }) => getPolicy(policyDeps, params.tenant_id, params.policy_id),
    'escalationPolicies.update': ({ principal, params, body }) =>
      updatePolicy(policyDeps, principal, params.tenant_id, params.policy_id, body),
    'escalationPolicies.delete': ({ principal, params }) =>
      deletePolicy(policyDeps, principal, params.tenant_id, params.policy_id),
  },
  { tenantExists: tenantExistsIn(db), idempotency: idempotencyWith(idempotencyStore(db)) },
);
