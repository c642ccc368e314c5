import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { ROLES, type Role } from '#shared/kernel/policy';
import {
  isProblem,
  PASSWORD,
  SAMPLE_BODIES,
  type Seeded,
  seedTenant,
  tenantScoped,
} from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
});
afterAll(() => rt?.stop());

// docs/api.md section 3, written out independently of shared/kernel/policy.ts.
const ALLOWED: Record<string, Role[]> = {
  'tenants.get': [...ROLES],
  'tenants.update': ['owner'],
  'members.list': [...ROLES],
  'exceptions.list': [...ROLES],
  'exceptions.get': [...ROLES],
  'audit.list': ['manager', 'owner', 'support'],
  'timers.list': [...ROLES],
  'exceptions.create': ['operator', 'manager', 'owner'],
  'exceptions.changeStatus': ['operator', 'manager', 'owner'],
  'members.add': ['owner'],
  'members.update': ['owner'],
  'members.remove': ['owner'],
  'invitations.list': ['owner'],
  'invitations.revoke': ['owner'],
};

const newException = async (s: Seeded) => {
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/exceptions`, {
    token: s.adminToken,
    body: SAMPLE_BODIES['exceptions.create'],
  });
  expect(r.status).toBe(201);
  return r.body.id as string;
};

const newMember = async (s: Seeded, role: Role = 'operator') => {
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/members`, {
    token: s.adminToken,
    body: {
      email: `m-${Math.random().toString(36).slice(2)}@example.test`,
      display_name: 'M',
      role,
      password: PASSWORD,
    },
  });
  expect(r.status).toBe(201);
  return r.body.user_id as string;
};

/** An invitation of a fresh email, by the tenant's owner (platform_admin would add at once). */
const newInvitation = async (s: Seeded) => {
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/members`, {
    token: s.members.owner.token,
    body: {
      email: `i-${Math.random().toString(36).slice(2)}@example.test`,
      display_name: 'I',
      role: 'support',
    },
  });
  expect(r.status).toBe(202);
  return r.body.id as string;
};

/** One request for (operation, role): fresh targets so that allowed calls succeed. */
async function attempt(s: Seeded, id: string, role: Role) {
  const token = s.members[role].token;
  const base = `/tenants/${s.tenantId}`;
  const call = s.api.call;
  switch (id) {
    case 'tenants.get':
      return call('GET', base, { token });
    case 'tenants.update':
      return call('PATCH', base, { token, body: { timezone: 'Europe/Berlin' } });
    case 'members.list':
      return call('GET', `${base}/members`, { token });
    case 'exceptions.list':
      return call('GET', `${base}/exceptions`, { token });
    case 'exceptions.get':
      return call('GET', `${base}/exceptions/${await newException(s)}`, { token });
    case 'audit.list':
      return call('GET', `${base}/audit-events`, { token });
    case 'timers.list':
      return call('GET', `${base}/timers`, { token });
    case 'exceptions.create':
      return call('POST', `${base}/exceptions`, { token, body: SAMPLE_BODIES['exceptions.create'] });
    case 'exceptions.changeStatus':
      return call('POST', `${base}/exceptions/${await newException(s)}/status`, {
        token,
        body: { status: 'acknowledged' },
      });
    case 'members.add':
      return call('POST', `${base}/members`, {
        token,
        body: {
          email: `new-${role}-${Date.now()}@example.test`,
          display_name: 'N',
          role: 'support',
          password: PASSWORD,
        },
      });
    case 'members.update':
      return call('PATCH', `${base}/members/${await newMember(s)}`, { token, body: { role: 'support' } });
    case 'members.remove':
      return call('DELETE', `${base}/members/${await newMember(s)}`, { token });
    case 'invitations.list':
      return call('GET', `${base}/invitations`, { token });
    case 'invitations.revoke':
      return call('DELETE', `${base}/invitations/${await newInvitation(s)}`, { token });
    default:
      throw new Error(id);
  }
}

describe('role matrix over HTTP', () => {
  it('covers every foundation tenant-scoped operation of the manifest', () => {
    const foundation = (Object.entries(OPERATIONS) as [string, Operation][])
      .filter(([, op]) => tenantScoped(op) && ['tenants', 'exceptions', 'audit'].includes(op.group))
      .map(([id]) => id)
      .sort();
    expect(foundation).toEqual(Object.keys(ALLOWED).sort());
  });

  for (const [id, allowed] of Object.entries(ALLOWED)) {
    it(`${id}: ${allowed.join(', ')} may; the others get 403`, async () => {
      const success = (OPERATIONS as Record<string, Operation>)[id]!.status;
      for (const role of ROLES) {
        const r = await attempt(a, id, role);
        if (allowed.includes(role)) {
          expect([role, r.status]).toEqual([role, success]);
        } else {
          expect([role, r.status, r.body.code]).toEqual([role, 403, 'forbidden']);
          expect(isProblem(r)).toBe(true);
        }
      }
    });
  }

  it('a refused call changes nothing', async () => {
    const before = await a.api.call('GET', `/tenants/${a.tenantId}/audit-events?limit=100`, {
      token: a.adminToken,
    });
    const exceptionId = await newException(a);
    const r = await a.api.call('POST', `/tenants/${a.tenantId}/exceptions/${exceptionId}/status`, {
      token: a.members.support.token,
      body: { status: 'resolved' },
    });
    expect(r.status).toBe(403);
    const e = await a.api.call('GET', `/tenants/${a.tenantId}/exceptions/${exceptionId}`, {
      token: a.adminToken,
    });
    expect(e.body.status).toBe('open');
    const after = await a.api.call('GET', `/tenants/${a.tenantId}/audit-events?limit=100`, {
      token: a.adminToken,
    });
    expect(after.body.items.length).toBe(before.body.items.length + 1); // only the admin's create
  });

  it('non-admins cannot create tenants (403) and see only their own tenants', async () => {
    const r = await a.api.call('POST', '/tenants', {
      token: a.members.owner.token,
      body: { id: 'sneaky', name: 'Sneaky' },
    });
    expect(r.status).toBe(403);
    const list = await a.api.call('GET', '/tenants', { token: a.members.owner.token });
    expect(list.body.items.map((t: { id: string }) => t.id)).toEqual([a.tenantId]);
    const all = await a.api.call('GET', '/tenants', { token: a.adminToken });
    expect(all.body.items.map((t: { id: string }) => t.id)).toEqual(
      expect.arrayContaining([a.tenantId, b.tenantId]),
    );
  });
});

describe('another tenant is invisible', () => {
  // Every tenant-scoped route of tenant A, with real records behind its ids, called by every
  // member of tenant B: tests/e2e/isolation.test.ts.

  it('an unknown tenant answers exactly like a foreign one, and admin gets 404 for it too', async () => {
    const foreign = await b.api.call('GET', `/tenants/${a.tenantId}/exceptions`, {
      token: b.members.owner.token,
    });
    const missing = await b.api.call('GET', '/tenants/no-such-tenant/exceptions', {
      token: b.members.owner.token,
    });
    const strip = ({ request_id: _, ...rest }: Record<string, unknown>) => rest;
    expect(strip(foreign.body)).toEqual(strip(missing.body));
    const admin = await a.api.call('GET', '/tenants/no-such-tenant/exceptions', { token: a.adminToken });
    expect(admin.status).toBe(404);
    const adminPost = await a.api.call('POST', '/tenants/no-such-tenant/exceptions', {
      token: a.adminToken,
      body: SAMPLE_BODIES['exceptions.create'],
    });
    expect(adminPost.status).toBe(404);
  });

  it('an exception id of tenant A read through tenant B (where the caller is a member) is 404', async () => {
    const exceptionId = await newException(a);
    const r = await b.api.call('GET', `/tenants/${b.tenantId}/exceptions/${exceptionId}`, {
      token: b.members.owner.token,
    });
    expect(r.status).toBe(404);
    const s = await b.api.call('POST', `/tenants/${b.tenantId}/exceptions/${exceptionId}/status`, {
      token: b.members.owner.token,
      body: { status: 'resolved' },
    });
    expect(s.status).toBe(404);
    const m = await b.api.call('PATCH', `/tenants/${b.tenantId}/members/${a.members.operator.user_id}`, {
      token: b.members.owner.token,
      body: { role: 'owner' },
    });
    expect(m.status).toBe(404);
  });
});
