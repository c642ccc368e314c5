import { TenantPath } from '#shared/api/schemas/common';
import {
  EscalationPolicyCreate,
  EscalationPolicyListQuery,
  EscalationPolicyPath,
  EscalationPolicyUpdate,
} from '#shared/api/schemas/escalation-policies';
import { op } from './operation';

/**
 * Escalation policies (docs/api.md, "Escalation policies"). Served by the exceptions group's
 * function: an exception's create reads the policies to attach one, so that function bundles
 * their record and store already; the CRUD adds its schemas and five small use cases to it
 * rather than a route group of its own (a cold start, alarms and a bundle floor more).
 */
export const ESCALATION_POLICIES_OPERATIONS = {
  'escalationPolicies.create': op({
    group: 'exceptions',
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
    group: 'exceptions',
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
    group: 'exceptions',
    method: 'GET',
    path: '/tenants/{tenant_id}/escalation-policies/{policy_id}',
    summary: 'Get an escalation policy',
    auth: 'bearer',
    permission: 'tenant.read',
    params: EscalationPolicyPath,
    status: 200,
  }),
  'escalationPolicies.update': op({
    group: 'exceptions',
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
    group: 'exceptions',
    method: 'DELETE',
    path: '/tenants/{tenant_id}/escalation-policies/{policy_id}',
    summary: 'Delete an escalation policy (its escalations stop)',
    auth: 'bearer',
    permission: 'escalation_policies.manage',
    params: EscalationPolicyPath,
    status: 204,
  }),
} as const;
