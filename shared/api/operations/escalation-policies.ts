import { TenantPath } from '#shared/api/schemas/common';
import {
  EscalationPolicyCreate,
  EscalationPolicyListQuery,
  EscalationPolicyPath,
  EscalationPolicyUpdate,
} from '#shared/api/schemas/escalation-policies';
import { op } from './operation';

/**
 * Escalation policies (docs/api.md, "Escalation policies"): a route group of its own. In the
 * exceptions group, whose create must read the policies anyway, their schemas and use cases took
 * that function from 1.275x to 1.312x its SDK floor, over the 1.30x budget
 * (tests/unit/budgets/bundle-size.test.ts); the exceptions group keeps only what attaching needs.
 */
export const ESCALATION_POLICIES_OPERATIONS = {
  'escalationPolicies.create': op({
    group: 'escalation',
    method: 'POST',
    path: '/tenants/{tenant_id}/escalation-policies',
    summary: 'Create an escalation policy',
    auth: 'bearer',
    permission: 'escalation_policies.manage',
    params: TenantPath,
    body: EscalationPolicyCreate,
    idempotent: true,
    status: 201,
  }),
  'escalationPolicies.list': op({
    group: 'escalation',
    method: 'GET',
    path: '/tenants/{tenant_id}/escalation-policies',
    summary: 'List escalation policies, newest first',
    auth: 'bearer',
    permission: 'tenant.read',
    params: TenantPath,
    query: EscalationPolicyListQuery,
    status: 200,
  }),
  'escalationPolicies.get': op({
    group: 'escalation',
    method: 'GET',
    path: '/tenants/{tenant_id}/escalation-policies/{policy_id}',
    summary: 'Get an escalation policy',
    auth: 'bearer',
    permission: 'tenant.read',
    params: EscalationPolicyPath,
    status: 200,
  }),
  'escalationPolicies.update': op({
    group: 'escalation',
    method: 'PATCH',
    path: '/tenants/{tenant_id}/escalation-policies/{policy_id}',
    summary: 'Change an escalation policy (naming its current version)',
    auth: 'bearer',
    permission: 'escalation_policies.manage',
    params: EscalationPolicyPath,
    body: EscalationPolicyUpdate,
    status: 200,
  }),
  'escalationPolicies.delete': op({
    group: 'escalation',
    method: 'DELETE',
    path: '/tenants/{tenant_id}/escalation-policies/{policy_id}',
    summary: 'Delete an escalation policy (its escalations stop)',
    auth: 'bearer',
    permission: 'escalation_policies.manage',
    params: EscalationPolicyPath,
    status: 204,
  }),
} as const;
