import { describe, expect, it } from 'vitest';
import { authorize, PERMISSIONS, type Principal, roleIn, ROLES } from '#shared/kernel/policy';

const principal = (memberships: Principal['memberships'], admin = false): Principal => ({
  user_id: 'u1',
  token_id: 't1',
  email: 'u@example.test',
  display_name: 'U',
  platform_roles: admin ? ['platform_admin'] : [],
  memberships,
});

// docs/api.md section 3, written out independently of shared/kernel/policy.ts.
const MATRIX: Record<string, string[]> = {
  'tenant.read': ['operator', 'accountant', 'manager', 'owner', 'support'],
  'previews.run': ['operator', 'accountant', 'manager', 'owner', 'support'],
  'audit.read': ['manager', 'owner', 'support'],
  'exceptions.write': ['operator', 'manager', 'owner'],
  'tasks.write': ['operator', 'manager', 'owner'],
  'documents.create': ['operator', 'accountant', 'manager', 'owner'],
  'workflow_rules.manage': ['manager', 'owner'],
  'escalation_policies.manage': ['manager', 'owner'],
  'webhooks.manage': ['manager', 'owner'],
  'integrations.manage': ['manager', 'owner'],
  'accounting_exports.create': ['accountant', 'manager', 'owner'],
  'notifications.send': ['operator', 'manager', 'owner'],
  'review_items.decide': ['operator', 'manager', 'owner'],
  'members.manage': ['owner'],
  'tenant.manage': ['owner'],
  'platform.admin': [],
};

describe('role matrix', () => {
  it('covers exactly the contract actions', () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [permission, allowed] of Object.entries(MATRIX)) {
    for (const role of ROLES) {
      const expected = allowed.includes(role) ? 'allow' : 'forbidden';
      it(`${role} ${permission} -> ${expected}`, () => {
        expect(authorize(principal({ acme: role }), permission as keyof typeof PERMISSIONS, 'acme')).toBe(
          expected,
        );
      });
    }
  }

  it('answers not_found for a tenant the caller is not a member of, whatever the role elsewhere', () => {
    expect(authorize(principal({ acme: 'owner' }), 'tenant.read', 'globex')).toBe('not_found');
    expect(authorize(principal({ acme: 'owner' }), 'members.manage', 'globex')).toBe('not_found');
  });

  it('lets platform_admin do everything on every tenant', () => {
    for (const permission of Object.keys(MATRIX)) {
      expect(authorize(principal({}, true), permission as keyof typeof PERMISSIONS, 'any')).toBe('allow');
    }
  });

  it('refuses platform-only actions to tenant owners', () => {
    expect(authorize(principal({ acme: 'owner' }), 'platform.admin')).toBe('forbidden');
  });

  it("never reads Object.prototype's members as memberships (tenant ids come from the path)", () => {
    const member = principal({ acme: 'owner' });
    // As the authorizer hands it over: parsed from JSON.
    const parsed = JSON.parse(JSON.stringify(member)) as Principal;
    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const p of [member, parsed]) {
        expect(roleIn(p, id), id).toBeUndefined();
        expect(authorize(p, 'tenant.read', id), id).toBe('not_found');
      }
    }
    expect(roleIn(parsed, 'acme')).toBe('owner');
  });
});
