import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { createStores } from '#functions/adapters/stores';
import { PLATFORM_AUDIT_TENANT } from '#shared/domain/audit';
import {
  authenticate,
  listSessions,
  login,
  LOGIN_FAILURE_LIMIT,
  LOGIN_WINDOW_SECONDS,
  me,
  revokeSession,
  TOUCH_INTERVAL_MS,
} from '#shared/domain/identity/sessions';
import {
  addMember,
  bootstrapAdmin,
  createTenant,
  getTenant,
  listMembers,
  listTenants,
  removeMember,
  updateMemberRole,
} from '#shared/domain/identity/tenants';
import {
  AppError,
  ConflictError,
  InvalidCredentialsError,
  NotFoundError,
  RateLimitedError,
} from '#shared/kernel/errors';
import { type Clock, newId } from '#shared/kernel/ids';
import { hashPassword, tokenId } from '#shared/kernel/secrets';
import { freshDb } from '#tests/support/db';
import { audit, login as loginFixture, principal, session } from '#tests/support/fixtures';

/**
 * The identity use cases (docs/api.md section 3) over the real store, with a clock the test
 * moves: the login throttle's window and Retry-After, the token check's bounds and touch
 * interval, session status at the expiry instant, and the audit event each tenant and member
 * change writes.
 */

let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ stores } = await freshDb());
});

/** A clock at a fixed instant that the test moves. */
const movable = (iso: string): Clock & { at: number } => {
  const c = { at: Date.parse(iso), now: () => new Date(c.at) };
  return c;
};

const PASSWORD = 'a long enough password';
const newLogin = async (email = `${newId()}@example.test`) => {
  const l = loginFixture(email);
  l.password_hash = await hashPassword(PASSWORD);
  await stores.identity.createUser(l, null);
  return l;
};

const auditOf = async (tenantId: string, entityType?: string, entityId?: string) =>
  (await stores.audit.list(tenantId, { entity_type: entityType, entity_id: entityId }, { limit: 100 })).items;

const retryAfter = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RateLimitedError);
  return Number((error as AppError).headers?.['retry-after']);
};

describe('login', () => {
  it('creates a session that expires after the TTL, audited as session.created by the user', async () => {
    const clock = movable('2031-05-01T10:00:00.000Z');
    const l = await newLogin();
    const token = await login(
      { identity: stores.identity, clock, sessionTtlSeconds: 7200 },
      { email: l.user.email, password: PASSWORD },
    );
    expect(token).toMatchObject({ token_type: 'bearer', expires_at: '2031-05-01T12:00:00.000Z' });
    expect(token.user).toEqual({
      id: l.user.id,
      email: l.user.email,
      display_name: l.user.display_name,
      created_at: l.user.created_at,
    });
    const stored = await stores.identity.getSession(tokenId(token.access_token));
    expect(stored).toMatchObject({
      user_id: l.user.id,
      created_at: '2031-05-01T10:00:00.000Z',
      last_used_at: null,
      revoked_at: null,
    });
    const events = await auditOf(PLATFORM_AUDIT_TENANT, 'session', stored!.token_id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event_type: 'session.created', actor_id: l.user.id });
  });

  it(`after ${LOGIN_FAILURE_LIMIT} failures in a window even the right password is 429 until the window ends; the next window starts afresh`, async () => {
    // 100 s into a 15-minute window.
    const windowStart = Math.ceil(Date.parse('2031-06-01T00:00:00.000Z') / 1000 / LOGIN_WINDOW_SECONDS);
    const clock = movable(new Date((windowStart * LOGIN_WINDOW_SECONDS + 100) * 1000).toISOString());
    const deps = { identity: stores.identity, clock, sessionTtlSeconds: 3600 };
    const l = await newLogin();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      await expect(login(deps, { email: l.user.email, password: 'wrong password!!' })).rejects.toThrow(
        InvalidCredentialsError,
      );
    }
    expect(await retryAfter(login(deps, { email: l.user.email, password: PASSWORD }))).toBe(
      LOGIN_WINDOW_SECONDS - 100,
    );
    clock.at += (LOGIN_WINDOW_SECONDS - 101) * 1000;
    expect(await retryAfter(login(deps, { email: l.user.email, password: PASSWORD }))).toBe(1);

    clock.at += 1000; // the first instant of the next window
    await expect(login(deps, { email: l.user.email, password: PASSWORD })).resolves.toMatchObject({
      user: { id: l.user.id },
    });
  });

  it('the failure that takes the count past the limit is itself 429', async () => {
    const clock = movable('2031-07-01T00:00:30.000Z');
    const deps = { identity: stores.identity, clock, sessionTtlSeconds: 3600 };
    const email = `${newId()}@example.test`;
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++)
      await stores.identity.recordLoginFailure(
        email,
        '2031-07-01T00:00:00.000Z',
        new Date('2031-07-01T00:15:00.000Z'),
      );
    // A racer read the count before the others were added: its own failure decides.
    const attempt = stores.identity.loginAttempt.bind(stores.identity);
    const spy = vi
      .spyOn(stores.identity, 'loginAttempt')
      .mockImplementationOnce(async (e, w) => ({ ...(await attempt(e, w)), failures: 0 }));
    try {
      expect(await retryAfter(login(deps, { email, password: 'wrong password!!' }))).toBe(
        LOGIN_WINDOW_SECONDS - 30,
      );
    } finally {
      spy.mockRestore();
    }
  });
});

describe('authenticate', () => {
  const setup = async (token: string, overrides: Parameters<typeof session>[1] = {}) => {
    const l = await newLogin();
    await stores.identity.createSession(
      session(l.user.id, { token_id: tokenId(token), last_used_at: null, ...overrides }),
      audit(PLATFORM_AUDIT_TENANT, 'session'),
    );
    return l;
  };

  it('refuses a token shorter than 16 or longer than 128 characters without reading the table', async () => {
    const clock = movable('2031-01-01T00:00:00.000Z');
    const getSession = vi.spyOn(stores.identity, 'getSession');
    try {
      for (const token of ['x'.repeat(15), 'x'.repeat(129)]) {
        await setup(token, { expires_at: '2032-01-01T00:00:00.000Z' });
        getSession.mockClear();
        expect(await authenticate({ identity: stores.identity, clock }, token)).toBeUndefined();
        expect(getSession).not.toHaveBeenCalled();
      }
      for (const token of ['y'.repeat(16), 'y'.repeat(128)]) {
        const l = await setup(token, { expires_at: '2032-01-01T00:00:00.000Z' });
        expect((await authenticate({ identity: stores.identity, clock }, token))?.user_id).toBe(l.user.id);
      }
    } finally {
      getSession.mockRestore();
    }
  });

  it('a session is expired at its expiry instant, active one millisecond before', async () => {
    const token = `tok-${newId()}`;
    await setup(token, { expires_at: '2031-03-01T00:00:00.000Z' });
    const clock = movable('2031-02-28T23:59:59.999Z');
    expect(await authenticate({ identity: stores.identity, clock }, token)).toBeDefined();
    clock.at += 1;
    expect(await authenticate({ identity: stores.identity, clock }, token)).toBeUndefined();
  });

  it('refreshes last_used_at when never used or older than the interval, not more often', async () => {
    const token = `tok-${newId()}`;
    await setup(token, { expires_at: '2032-01-01T00:00:00.000Z' });
    const clock = movable('2031-01-01T00:00:00.000Z');
    const deps = { identity: stores.identity, clock };
    const lastUsed = async () => (await stores.identity.getSession(tokenId(token)))?.last_used_at;

    await authenticate(deps, token);
    expect(await lastUsed()).toBe('2031-01-01T00:00:00.000Z');
    clock.at += TOUCH_INTERVAL_MS;
    await authenticate(deps, token);
    expect(await lastUsed()).toBe('2031-01-01T00:00:00.000Z');
    clock.at += 1;
    await authenticate(deps, token);
    expect(await lastUsed()).toBe(new Date(clock.at).toISOString());
  });

  it("the principal carries the user's memberships by tenant and only the platform_admin role", async () => {
    const clock = movable('2031-01-01T00:00:00.000Z');
    const admin = principal('root', {}, true);
    const deps = { tenants: stores.tenants, identity: stores.identity, clock };
    const t1 = await createTenant(deps, admin, { id: `p1-${newId().slice(-8)}`, name: 'P1' });
    const t2 = await createTenant(deps, admin, { id: `p2-${newId().slice(-8)}`, name: 'P2' });
    const email = `${newId()}@example.test`;
    const m = await addMember(deps, admin, t1.id, {
      email,
      display_name: 'M',
      role: 'manager',
      password: PASSWORD,
    });
    await addMember(deps, admin, t2.id, { email, display_name: 'M', role: 'support' });

    const token = `tok-${newId()}`;
    await stores.identity.createSession(
      session(m.user_id, { token_id: tokenId(token), expires_at: '2032-01-01T00:00:00.000Z' }),
      audit(PLATFORM_AUDIT_TENANT, 'session'),
    );
    const p = await authenticate({ identity: stores.identity, clock }, token);
    expect(p).toMatchObject({
      user_id: m.user_id,
      token_id: tokenId(token),
      email,
      platform_roles: [],
      memberships: { [t1.id]: 'manager', [t2.id]: 'support' },
    });
    const sessions = await listSessions({ identity: stores.identity, clock, sessionTtlSeconds: 1 }, p!);
    expect(sessions.items[0]!.tenant_ids).toEqual([t1.id, t2.id].sort());

    const adminLogin = loginFixture(`${newId()}@example.test`, true);
    await stores.identity.createUser(adminLogin, null);
    const adminToken = `tok-${newId()}`;
    await stores.identity.createSession(
      session(adminLogin.user.id, { token_id: tokenId(adminToken), expires_at: '2032-01-01T00:00:00.000Z' }),
      audit(PLATFORM_AUDIT_TENANT, 'session'),
    );
    expect((await authenticate({ identity: stores.identity, clock }, adminToken))?.platform_roles).toEqual([
      'platform_admin',
    ]);
  });

  it('a session whose user is gone does not authenticate; me of an unknown user is 404', async () => {
    const token = `tok-${newId()}`;
    const clock = movable('2031-01-01T00:00:00.000Z');
    await stores.identity.createSession(
      session('no-such-user', { token_id: tokenId(token), expires_at: '2032-01-01T00:00:00.000Z' }),
      audit(PLATFORM_AUDIT_TENANT, 'session'),
    );
    expect(await authenticate({ identity: stores.identity, clock }, token)).toBeUndefined();
    await expect(
      me({ identity: stores.identity, clock, sessionTtlSeconds: 1 }, principal('no-such-user')),
    ).rejects.toThrow(NotFoundError);
  });

  it('revokeSession writes session.revoked by the caller; an unknown id is 404', async () => {
    const clock = movable('2031-01-01T00:00:00.000Z');
    const deps = { identity: stores.identity, clock, sessionTtlSeconds: 3600 };
    const l = await newLogin();
    const token = await login(deps, { email: l.user.email, password: PASSWORD });
    const id = tokenId(token.access_token);
    await revokeSession(deps, principal(l.user.id), id);
    const events = await auditOf(PLATFORM_AUDIT_TENANT, 'session', id);
    expect(events.map((e) => [e.event_type, e.actor_id])).toEqual([
      ['session.revoked', l.user.id],
      ['session.created', l.user.id],
    ]);
    expect((await stores.identity.getSession(id))?.revoked_at).toBe('2031-01-01T00:00:00.000Z');
    await expect(revokeSession(deps, principal(l.user.id), 'no-such-token')).rejects.toThrow(NotFoundError);
  });
});

describe('tenants and members', () => {
  const clock = movable('2031-09-01T08:00:00.000Z');
  const deps = () => ({ tenants: stores.tenants, identity: stores.identity, clock });
  const admin = principal('platform-root', {}, true);

  it('createTenant: active, audited as tenant.created by the actor; a taken id is 409 and writes nothing', async () => {
    const id = `ct-${newId().slice(-8)}`;
    const t = await createTenant(deps(), admin, { id, name: 'Created' });
    expect(t).toEqual({
      id,
      name: 'Created',
      status: 'active',
      timezone: 'UTC',
      created_at: '2031-09-01T08:00:00.000Z',
    });
    expect(await getTenant(deps(), id)).toEqual(t);
    const events = await auditOf(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_type: 'tenant.created',
      actor_id: 'platform-root',
      entity_type: 'tenant',
      entity_id: id,
    });
    await expect(createTenant(deps(), admin, { id, name: 'Again' })).rejects.toThrow(ConflictError);
    expect((await getTenant(deps(), id)).name).toBe('Created');
    expect(await auditOf(id)).toHaveLength(1);
    await expect(getTenant(deps(), `missing-${id}`)).rejects.toThrow(NotFoundError);
  });

  it('listTenants: the platform admin sees every tenant, a member only theirs', async () => {
    const mine = await createTenant(deps(), admin, { id: `lt-${newId().slice(-8)}`, name: 'Mine' });
    const other = await createTenant(deps(), admin, { id: `lo-${newId().slice(-8)}`, name: 'Other' });
    const m = await addMember(deps(), admin, mine.id, {
      email: `${newId()}@example.test`,
      display_name: 'M',
      role: 'operator',
      password: PASSWORD,
    });
    const all = await listTenants(deps(), admin, { limit: 100 });
    expect(all.items.map((t) => t.id)).toEqual(expect.arrayContaining([mine.id, other.id]));
    const own = await listTenants(deps(), principal(m.user_id, { [mine.id]: 'operator' }), { limit: 100 });
    expect(own).toEqual({ items: [mine], next_cursor: null });
  });

  it('addMember: a new user gets a lower-cased email and no platform role, audited member.added with new_user', async () => {
    const t = await createTenant(deps(), admin, { id: `am-${newId().slice(-8)}`, name: 'Add' });
    const local = newId();
    const m = await addMember(deps(), admin, t.id, {
      email: `Mixed.${local}@Example.TEST`,
      display_name: 'Mixed',
      role: 'accountant',
      password: PASSWORD,
    });
    expect(m).toMatchObject({
      tenant_id: t.id,
      email: `mixed.${local}@example.test`,
      display_name: 'Mixed',
      role: 'accountant',
      created_at: '2031-09-01T08:00:00.000Z',
      updated_at: null,
    });
    const found = await stores.identity.findLogin(`mixed.${local}@example.test`);
    expect(found?.user.platform_roles).toEqual([]);
    const events = await auditOf(t.id, 'member', m.user_id);
    expect(events.map((e) => [e.event_type, e.actor_id, JSON.parse(e.metadata_json ?? '{}')])).toEqual([
      ['member.added', 'platform-root', { role: 'accountant', new_user: true }],
    ]);

    // A known email joins a second tenant as the same user: no password needed, new_user false.
    const t2 = await createTenant(deps(), admin, { id: `am2-${newId().slice(-8)}`, name: 'Add 2' });
    const again = await addMember(deps(), admin, t2.id, {
      email: `mixed.${local}@example.test`,
      display_name: 'Ignored',
      role: 'operator',
    });
    expect(again).toMatchObject({ user_id: m.user_id, display_name: 'Mixed' });
    expect(JSON.parse((await auditOf(t2.id, 'member', m.user_id))[0]!.metadata_json ?? '{}')).toEqual({
      role: 'operator',
      new_user: false,
    });

    // The same user twice in one tenant: 409, nothing written.
    await expect(
      addMember(deps(), admin, t.id, {
        email: `mixed.${local}@example.test`,
        display_name: 'M',
        role: 'owner',
      }),
    ).rejects.toThrow(ConflictError);
    expect((await stores.tenants.getMember(t.id, m.user_id))?.role).toBe('accountant');
    expect(await auditOf(t.id, 'member', m.user_id)).toHaveLength(1);
    await expect(
      addMember(deps(), admin, `missing-${t.id}`, {
        email: `${newId()}@example.test`,
        display_name: 'X',
        role: 'owner',
        password: PASSWORD,
      }),
    ).rejects.toThrow(NotFoundError);
  });

  it('a role change is audited from and to; the same role writes nothing; removal is member.removed', async () => {
    const t = await createTenant(deps(), admin, { id: `rc-${newId().slice(-8)}`, name: 'Roles' });
    await addMember(deps(), admin, t.id, {
      email: `${newId()}@example.test`,
      display_name: 'Owner',
      role: 'owner',
      password: PASSWORD,
    });
    const m = await addMember(deps(), admin, t.id, {
      email: `${newId()}@example.test`,
      display_name: 'Op',
      role: 'operator',
      password: PASSWORD,
    });
    const events = async () =>
      (await auditOf(t.id, 'member', m.user_id)).map((e) => [
        e.event_type,
        JSON.parse(e.metadata_json ?? '{}'),
      ]);

    expect(await updateMemberRole(deps(), admin, t.id, m.user_id, 'operator')).toMatchObject({
      role: 'operator',
      updated_at: null,
    });
    expect(await events()).toHaveLength(1);

    clock.at += 60_000;
    expect(await updateMemberRole(deps(), admin, t.id, m.user_id, 'manager')).toMatchObject({
      role: 'manager',
      updated_at: '2031-09-01T08:01:00.000Z',
    });
    await removeMember(deps(), admin, t.id, m.user_id);
    expect(await events()).toEqual([
      ['member.removed', { role: 'manager' }],
      ['member.role_changed', { from: 'operator', to: 'manager' }],
      ['member.added', { role: 'operator', new_user: true }],
    ]);
    expect((await listMembers(deps(), t.id, { limit: 10 })).items.map((x) => x.role)).toEqual(['owner']);
    await expect(updateMemberRole(deps(), admin, t.id, m.user_id, 'owner')).rejects.toThrow(NotFoundError);
    await expect(removeMember(deps(), admin, t.id, m.user_id)).rejects.toThrow(NotFoundError);
  });

  it('a role change against a membership that changed meanwhile is 409 and writes nothing', async () => {
    const t = await createTenant(deps(), admin, { id: `st-${newId().slice(-8)}`, name: 'Stale' });
    const m = await addMember(deps(), admin, t.id, {
      email: `${newId()}@example.test`,
      display_name: 'Op',
      role: 'operator',
      password: PASSWORD,
    });
    const read = stores.tenants.getMember.bind(stores.tenants);
    const stale = await read(t.id, m.user_id);
    await updateMemberRole(deps(), admin, t.id, m.user_id, 'support');
    const spy = vi.spyOn(stores.tenants, 'getMember').mockResolvedValueOnce(stale);
    try {
      await expect(updateMemberRole(deps(), admin, t.id, m.user_id, 'manager')).rejects.toThrow(
        ConflictError,
      );
    } finally {
      spy.mockRestore();
    }
    expect((await read(t.id, m.user_id))?.role).toBe('support');
  });

  it('bootstrapAdmin creates one platform admin with a lower-cased email, once', async () => {
    const local = newId();
    expect(await bootstrapAdmin(deps(), `Root.${local}@Example.TEST`, PASSWORD)).toBe(true);
    const found = await stores.identity.findLogin(`root.${local}@example.test`);
    expect(found?.user).toMatchObject({
      email: `root.${local}@example.test`,
      display_name: 'Platform admin',
      platform_roles: ['platform_admin'],
    });
    expect(await bootstrapAdmin(deps(), `root.${local}@example.test`, PASSWORD)).toBe(false);
  });
});
