/**
 * The role matrix of docs/api.md section 3, held in one table that every route consults through
 * `authorize`. Handlers never test roles themselves.
 */

export const ROLES = ['operator', 'accountant', 'manager', 'owner', 'support'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = {
  'tenant.read': ['operator', 'accountant', 'manager', 'owner', 'support'],
  'previews.run': ['operator', 'accountant', 'manager', 'owner', 'support'],
  'audit.read': ['manager', 'owner', 'support'],
  'exceptions.write': ['operator', 'manager', 'owner'],
  'tasks.write': ['operator', 'manager', 'owner'],
  'documents.create': ['operator', 'accountant', 'manager', 'owner'],
  'workflow_rules.manage': ['manager', 'owner'],
  'escalation_policies.manage': ['manager', 'owner'],
  /** Webhook endpoints: create, change, rotate, resend, recover, test (docs/api.md, "Event subscriptions"). */
  'webhooks.manage': ['manager', 'owner'],
  'integrations.manage': ['manager', 'owner'],
  'accounting_exports.create': ['accountant', 'manager', 'owner'],
  'notifications.send': ['operator', 'manager', 'owner'],
  'review_items.decide': ['operator', 'manager', 'owner'],
  'members.manage': ['owner'],
  /** The tenant's own settings: its name and time zone. */
  'tenant.manage': ['owner'],
  /** Only platform_admin: no tenant role grants it. */
  'platform.admin': [],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const PLATFORM_ADMIN = 'platform_admin';

export interface Principal {
  user_id: string;
  token_id: string;
  email: string;
  display_name: string;
  platform_roles: (typeof PLATFORM_ADMIN)[];
  /** tenant_id -> role, as read when the token was checked. */
  memberships: Record<string, Role>;
}

export const isPlatformAdmin = (p: Principal): boolean => p.platform_roles.includes(PLATFORM_ADMIN);

/**
 * The principal's role in a tenant, or undefined when it is not a member. An own property only:
 * the tenant id comes from the request path, and `__proto__`, `constructor` or `toString` would
 * otherwise find Object.prototype's members and read as a membership.
 */
export const roleIn = (p: Principal, tenantId: string): Role | undefined =>
  Object.hasOwn(p.memberships, tenantId) ? p.memberships[tenantId] : undefined;

export type Decision = 'allow' | 'not_found' | 'forbidden';

/**
 * Decides a tenant-scoped action. A caller that is not a member of the tenant gets `not_found`,
 * never `forbidden`, so the answer does not reveal that the tenant exists.
 */
export function authorize(principal: Principal, permission: Permission, tenantId?: string): Decision {
  if (isPlatformAdmin(principal)) return 'allow';
  if (tenantId === undefined)
    return (PERMISSIONS[permission] as readonly Role[]).length === 0 ? 'forbidden' : 'allow';
  const role = roleIn(principal, tenantId);
  if (role === undefined) return 'not_found';
  return (PERMISSIONS[permission] as readonly Role[]).includes(role) ? 'allow' : 'forbidden';
}
