import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearerOperations,
  isProblem,
  PASSWORD,
  SAMPLE_BODIES,
  type Seeded,
  seedTenant,
  createSampleException,
} from '#tests/support/e2e';
import { client } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

let rt: TestRuntime;
let seeded: Seeded;
let exceptionId: string;
beforeAll(async () => {
  rt = await startRuntime();
  seeded = await seedTenant(rt);
  exceptionId = await createSampleException(seeded);
});
afterAll(() => rt?.stop());

describe('sessions over HTTP', () => {
  it('login -> me -> sessions -> revoke -> 401 on next use', async () => {
    const api = client(rt.baseUrl);
    const email = seeded.members.operator.email;
    const login = await api.call('POST', '/auth/sessions', {
      body: { email: email.toUpperCase(), password: PASSWORD },
    });
    expect(login.status).toBe(201);
    expect(login.body).toMatchObject({ token_type: 'bearer', user: { email } });
    const token: string = login.body.access_token;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(Date.parse(login.body.expires_at) - Date.now()).toBeGreaterThan(11.9 * 3600 * 1000);
    expect(Date.parse(login.body.expires_at) - Date.now()).toBeLessThanOrEqual(12 * 3600 * 1000);

    const me = await api.call('GET', '/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.user).toEqual({
      id: seeded.members.operator.user_id,
      email,
      display_name: expect.any(String),
      created_at: expect.any(String),
    });
    expect(me.body.memberships).toEqual([
      {
        tenant_id: seeded.tenantId,
        tenant_name: `Tenant ${seeded.tenantId}`,
        role: 'operator',
        created_at: expect.any(String),
      },
    ]);

    const sessions = await api.call('GET', '/auth/sessions', { token });
    expect(sessions.status).toBe(200);
    expect(sessions.body.items).toHaveLength(2); // seedTenant's login and this one
    for (const s of sessions.body.items) {
      expect(s).toMatchObject({
        user_id: seeded.members.operator.user_id,
        user_email: email,
        status: 'active',
        tenant_ids: [seeded.tenantId],
      });
      expect(JSON.stringify(s)).not.toContain(token);
    }
    const mine = sessions.body.items[0].token_id as string;

    // Another user cannot revoke it.
    const foreign = await api.call('DELETE', `/auth/sessions/${mine}`, { token: seeded.members.owner.token });
    expect(foreign.status).toBe(404);
    expect((await api.call('GET', '/auth/me', { token })).status).toBe(200);

    const revoke = await api.call('DELETE', `/auth/sessions/${mine}`, { token });
    expect(revoke.status).toBe(204);
    const after = await api.call('GET', '/auth/me', { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthenticated');
    expect(after.headers.get('www-authenticate')).toBe('Bearer');

    const viaOther = await api.call('GET', '/auth/sessions', { token: seeded.members.operator.token });
    expect(viaOther.body.items.find((s: { token_id: string }) => s.token_id === mine)).toMatchObject({
      status: 'revoked',
      revoked_at: expect.any(String),
    });
    // The other session of the same user still works.
    expect((await api.call('GET', '/auth/me', { token: seeded.members.operator.token })).status).toBe(200);
  });

  it('wrong password and unknown email answer with the identical 401 invalid_credentials', async () => {
    const api = client(rt.baseUrl);
    const wrong = await api.call('POST', '/auth/sessions', {
      body: { email: seeded.members.owner.email, password: 'nope nope nope' },
    });
    const unknown = await api.call('POST', '/auth/sessions', {
      body: { email: 'ghost@example.test', password: 'nope nope nope' },
    });
    for (const r of [wrong, unknown]) {
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('invalid_credentials');
      expect(isProblem(r)).toBe(true);
    }
    const strip = ({ request_id: _, ...rest }: Record<string, unknown>) => rest;
    expect(strip(wrong.body)).toEqual(strip(unknown.body));
    expect([...wrong.headers.keys()].sort()).toEqual([...unknown.headers.keys()].sort());
  });

  it('the token is never written to the audit log; the login password never either', async () => {
    const r = await seeded.api.call('GET', `/tenants/${seeded.tenantId}/audit-events?limit=100`, {
      token: seeded.adminToken,
    });
    expect(r.status).toBe(200);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain(PASSWORD);
    for (const m of Object.values(seeded.members)) expect(text).not.toContain(m.token);
  });
});

describe('every bearer route refuses a missing or revoked token', () => {
  let revoked: string;
  beforeAll(async () => {
    revoked = await seeded.api.login(seeded.members.owner.email, PASSWORD);
    const list = await seeded.api.call('GET', '/auth/sessions', { token: revoked });
    const newest = list.body.items[0].token_id;
    expect((await seeded.api.call('DELETE', `/auth/sessions/${newest}`, { token: revoked })).status).toBe(
      204,
    );
  });

  const params = () => ({
    tenant_id: seeded.tenantId,
    exception_id: exceptionId,
    user_id: seeded.members.operator.user_id,
    token_id: 'some-token-id',
  });

  it('covers the manifest', () => {
    const ids = bearerOperations(params()).map((o) => o.id);
    expect(ids.length).toBeGreaterThanOrEqual(15);
    expect(ids).toContain('exceptions.changeStatus');
  });

  for (const variant of ['no token', 'revoked token', 'garbage token'] as const) {
    it(`${variant} -> 401 problem+json with WWW-Authenticate: Bearer, nothing changed`, async () => {
      const tokenFor = { 'no token': undefined, 'revoked token': revoked, 'garbage token': 'x'.repeat(43) }[
        variant
      ];
      const auditBefore = await seeded.api.call('GET', `/tenants/${seeded.tenantId}/audit-events?limit=100`, {
        token: seeded.adminToken,
      });
      for (const { id, op, path } of bearerOperations(params())) {
        const r = await seeded.api.call(op.method, path, { token: tokenFor, body: SAMPLE_BODIES[id] });
        expect([id, r.status]).toEqual([id, 401]);
        expect([id, r.headers.get('www-authenticate')]).toEqual([id, 'Bearer']);
        expect([id, r.body.code]).toEqual([id, 'unauthenticated']);
        expect(isProblem(r)).toBe(true);
      }
      const auditAfter = await seeded.api.call('GET', `/tenants/${seeded.tenantId}/audit-events?limit=100`, {
        token: seeded.adminToken,
      });
      expect(auditAfter.body.items).toEqual(auditBefore.body.items);
    });
  }
});
