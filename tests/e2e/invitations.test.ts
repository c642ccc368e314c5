import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '#shared/kernel/policy';
import { isProblem, PASSWORD, type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** docs/api.md section 3: an owner invites; no answer tells whether the email has an account. */

let rt: TestRuntime;
let s: Seeded;
let other: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  [s, other] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
});
afterAll(() => rt?.stop());

const base = () => `/tenants/${s.tenantId}`;
let n = 0;
const freshEmail = () => `invitee-${Date.now()}-${++n}@example.test`;

const invite = (email: string, extra: Record<string, unknown> = {}, token = s.members.owner.token) =>
  s.api.call('POST', `${base()}/members`, {
    token,
    body: { email, display_name: 'Someone', role: 'operator', ...extra },
  });

/** A new user with an account, not a member of `s`, signed in. */
async function outsider() {
  const email = freshEmail();
  const r = await other.api.call('POST', `/tenants/${other.tenantId}/members`, {
    token: other.adminToken,
    body: { email, display_name: 'Outsider', role: 'support', password: PASSWORD },
  });
  expect(r.status).toBe(201);
  return { email, user_id: r.body.user_id as string, token: await s.api.login(email, PASSWORD) };
}

/** The answer without what differs by nature: the id, the email and the times. */
const shape = ({ id, email, created_at, expires_at, ...rest }: Record<string, unknown>) => {
  for (const v of [id, email, created_at, expires_at]) expect(typeof v).toBe('string');
  return rest;
};

describe('no account-existence oracle', () => {
  it('an existing account, a new email and a member get the same status and body (no display name, no user id)', async () => {
    const existing = await outsider();
    const answers = [
      await invite(existing.email),
      await invite(freshEmail()),
      await invite(s.members.operator.email),
      await invite(freshEmail(), { password: PASSWORD }),
      await invite((await outsider()).email, { password: PASSWORD }),
    ];
    for (const r of answers) {
      expect(r.status).toBe(202);
      expect(Object.keys(r.body).sort()).toEqual(
        [
          'created_at',
          'email',
          'expires_at',
          'id',
          'invited_by',
          'role',
          'status',
          'tenant_id',
          'tenant_name',
        ].sort(),
      );
      expect(JSON.stringify(r.body)).not.toContain('Outsider');
      expect(JSON.stringify(r.body)).not.toContain(existing.user_id);
      expect(shape(r.body)).toEqual(shape(answers[0]!.body));
    }
    expect(answers[0]!.body).toMatchObject({
      tenant_id: s.tenantId,
      email: existing.email,
      status: 'pending',
      invited_by: s.members.owner.user_id,
    });
    expect(Date.parse(answers[0]!.body.expires_at) - Date.parse(answers[0]!.body.created_at)).toBe(
      7 * 24 * 3600 * 1000,
    );
  });

  it('the tenant log an owner reads says the same for both, and no account is a member yet', async () => {
    const existing = await outsider();
    const fresh = freshEmail();
    const chosen = 'the owner chose this password';
    const a = await invite(existing.email, { password: chosen });
    const b = await invite(fresh, { password: chosen });
    const log = await s.api.call('GET', `${base()}/audit-events?entity_type=invitation&limit=100`, {
      token: s.members.owner.token,
    });
    const created = (id: string) =>
      log.body.items.find((e: { entity_id: string }) => e.entity_id === id) as Record<string, unknown>;
    const strip = ({
      id: _,
      entity_id: __,
      summary: ___,
      created_at: ____,
      ...rest
    }: Record<string, unknown>) => rest;
    expect(strip(created(a.body.id))).toEqual(strip(created(b.body.id)));
    // The owner's password was not set on the existing account; the new email's account has it.
    const refused = await s.api.call('POST', '/auth/sessions', {
      body: { email: existing.email, password: chosen },
    });
    expect(refused.status).toBe(401);
    await s.api.login(existing.email, PASSWORD);
    const token = await s.api.login(fresh, chosen);
    expect((await s.api.call('GET', base(), { token })).status).toBe(404);
    expect((await s.api.call('GET', base(), { token: existing.token })).status).toBe(404);
  });

  it('a pending invitation is answered again (202, same id) without a second one', async () => {
    const email = freshEmail();
    const first = await invite(email);
    const again = await invite(email.toUpperCase(), { role: 'manager' });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    const listed = await s.api.call('GET', `${base()}/invitations?limit=100`, {
      token: s.members.owner.token,
    });
    expect(listed.body.items.filter((i: { email: string }) => i.email === email)).toHaveLength(1);
  });
});

describe('the invitee', () => {
  it('lists, accepts (201 MembershipRead) and then can read the tenant', async () => {
    const u = await outsider();
    const sent = await invite(u.email.toUpperCase(), { role: 'manager' });
    const mine = await s.api.call('GET', '/auth/invitations', { token: u.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ items: [sent.body] });
    expect((await s.api.call('GET', base(), { token: u.token })).status).toBe(404);

    const accepted = await s.api.call('POST', `/auth/invitations/${sent.body.id}/accept`, { token: u.token });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toEqual({
      tenant_id: s.tenantId,
      tenant_name: `Tenant ${s.tenantId}`,
      role: 'manager',
      created_at: expect.any(String),
    });
    expect((await s.api.call('GET', base(), { token: u.token })).status).toBe(200);
    const me = await s.api.call('GET', '/auth/me', { token: u.token });
    expect(me.body.memberships.map((m: { tenant_id: string }) => m.tenant_id)).toContain(s.tenantId);
    expect((await s.api.call('GET', '/auth/invitations', { token: u.token })).body).toEqual({ items: [] });

    const twice = await s.api.call('POST', `/auth/invitations/${sent.body.id}/accept`, { token: u.token });
    expect([twice.status, twice.body.code]).toEqual([409, 'invalid_transition']);
    const events = await s.api.call(
      'GET',
      `${base()}/audit-events?entity_type=member&entity_id=${u.user_id}`,
      {
        token: s.adminToken,
      },
    );
    expect(events.body.items.map((e: { event_type: string }) => e.event_type)).toEqual(['member.added']);
    expect(JSON.parse(events.body.items[0].metadata_json)).toMatchObject({ via: 'invitation' });
  });

  it("someone else's invitation is 404, exactly like an unknown id, and stays pending", async () => {
    const invitee = await outsider();
    const intruder = await outsider();
    const sent = await invite(invitee.email);
    const strip = ({ request_id: _, ...rest }: Record<string, unknown>) => rest;
    const unknown = await s.api.call('POST', '/auth/invitations/no-such-invitation/accept', {
      token: intruder.token,
    });
    for (const verb of ['accept', 'decline']) {
      const r = await s.api.call('POST', `/auth/invitations/${sent.body.id}/${verb}`, {
        token: intruder.token,
      });
      expect([r.status, isProblem(r)]).toEqual([404, true]);
      expect(strip(r.body)).toEqual(strip(unknown.body));
    }
    // Neither does an owner of the tenant, who is not the invitee.
    const owner = await s.api.call('POST', `/auth/invitations/${sent.body.id}/accept`, {
      token: s.members.owner.token,
    });
    expect(owner.status).toBe(404);
    expect((await s.api.call('GET', '/auth/invitations', { token: intruder.token })).body).toEqual({
      items: [],
    });
    expect((await s.api.call('GET', '/auth/invitations', { token: invitee.token })).body.items).toHaveLength(
      1,
    );
  });

  it('declines (204); then it is gone from both lists and cannot be accepted (409)', async () => {
    const u = await outsider();
    const sent = await invite(u.email);
    const declined = await s.api.call('POST', `/auth/invitations/${sent.body.id}/decline`, {
      token: u.token,
    });
    expect(declined.status).toBe(204);
    expect((await s.api.call('GET', '/auth/invitations', { token: u.token })).body).toEqual({ items: [] });
    const listed = await s.api.call('GET', `${base()}/invitations?limit=100`, {
      token: s.members.owner.token,
    });
    expect(listed.body.items.map((i: { id: string }) => i.id)).not.toContain(sent.body.id);
    const late = await s.api.call('POST', `/auth/invitations/${sent.body.id}/accept`, { token: u.token });
    expect([late.status, late.body.code]).toEqual([409, 'invalid_transition']);
  });
});

describe("the owners' side", () => {
  it('lists pending invitations and revokes one (204); a revoked one cannot be accepted or revoked again', async () => {
    const u = await outsider();
    const sent = await invite(u.email);
    const listed = await s.api.call('GET', `${base()}/invitations?limit=100`, {
      token: s.members.owner.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual(sent.body);
    expect(listed.body.next_cursor === null || typeof listed.body.next_cursor === 'string').toBe(true);

    const path = `${base()}/invitations/${sent.body.id}`;
    expect((await s.api.call('DELETE', path, { token: s.members.owner.token })).status).toBe(204);
    const again = await s.api.call('DELETE', path, { token: s.members.owner.token });
    expect([again.status, again.body.code]).toEqual([409, 'invalid_transition']);
    const accept = await s.api.call('POST', `/auth/invitations/${sent.body.id}/accept`, { token: u.token });
    expect([accept.status, accept.body.code]).toEqual([409, 'invalid_transition']);
    expect((await s.api.call('GET', '/auth/invitations', { token: u.token })).body).toEqual({ items: [] });
    const events = await s.api.call(
      'GET',
      `${base()}/audit-events?entity_type=invitation&entity_id=${sent.body.id}`,
      {
        token: s.adminToken,
      },
    );
    expect(events.body.items.map((e: { event_type: string }) => e.event_type)).toEqual([
      'invitation.revoked',
      'invitation.created',
    ]);
    // Revoked, the email may be invited again.
    const fresh = await invite(u.email);
    expect([fresh.status, fresh.body.id === sent.body.id]).toEqual([202, false]);
  });

  it("an invitation id of another tenant is 404 under this tenant's path", async () => {
    const u = await outsider();
    const sent = await invite(u.email);
    const r = await other.api.call('DELETE', `/tenants/${other.tenantId}/invitations/${sent.body.id}`, {
      token: other.members.owner.token,
    });
    expect(r.status).toBe(404);
    expect((await s.api.call('GET', '/auth/invitations', { token: u.token })).body.items).toHaveLength(1);
  });
});

describe('/auth/invitations for any signed-in user', () => {
  it('every role may list its own invitations; without a token it is 401', async () => {
    for (const role of ROLES) {
      const r = await s.api.call('GET', '/auth/invitations', { token: s.members[role].token });
      expect([role, r.status]).toEqual([role, 200]);
    }
    expect((await s.api.call('GET', '/auth/invitations', { token: s.adminToken })).status).toBe(200);
    expect((await s.api.call('GET', '/auth/invitations')).status).toBe(401);
    expect((await s.api.call('POST', '/auth/invitations/x/accept')).status).toBe(401);
  });
});
