import { beforeAll, describe, expect, it } from 'vitest';
import type { createStores } from '#functions/adapters/stores';
import {
  addMember,
  createTenant,
  getTenant,
  listTenants,
  removeMember,
  updateMemberRole,
  updateTenant,
} from '#shared/domain/identity/tenants';
import { ConflictError, ValidationError } from '#shared/kernel/errors';
import { systemClock } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { audit, drain, login, membership, principal, tenant } from '#tests/support/fixtures';

let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ stores } = await freshDb());
});

const auditCount = async (tenantId: string) =>
  (await drain((cursor) => stores.audit.list(tenantId, {}, { limit: 100, cursor }))).length;

describe('tenant store', () => {
  it('createTenant writes the tenant with its audit event; a taken id writes nothing', async () => {
    const t = tenant();
    expect(await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id))).toBe(true);
    expect(await stores.tenants.getTenant(t.id)).toEqual(t);
    expect(await auditCount(t.id)).toBe(1);

    expect(await stores.tenants.createTenant({ ...t, name: 'Other' }, audit(t.id, 'tenant', t.id))).toBe(
      false,
    );
    expect((await stores.tenants.getTenant(t.id))?.name).toBe(t.name);
    expect(await auditCount(t.id)).toBe(1);
    expect(await stores.tenants.getTenant('no-such-tenant')).toBeUndefined();
  });

  it('listTenants pages through all tenants newest first; listTenantsOf only the user’s', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) {
      const t = { ...tenant(), created_at: new Date(Date.UTC(2031, 0, 1 + i)).toISOString() };
      await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
      created.push(t);
    }
    const all = await drain((cursor) => stores.tenants.listTenants({ limit: 2, cursor }));
    const ids = all.map((t) => t.id);
    const mine = created.map((t) => t.id).reverse();
    expect(ids.filter((id) => mine.includes(id))).toEqual(mine);
    expect(new Set(ids).size).toBe(ids.length);

    const u = login();
    await stores.identity.createUser(u, null);
    for (const t of created.slice(0, 3))
      await stores.tenants.addMember(membership(t, u, 'operator'), null, audit(t.id, 'member', u.user.id));
    const of = await drain((cursor) => stores.tenants.listTenantsOf(u.user.id, { limit: 2, cursor }));
    expect(of.map((t) => t.id).sort()).toEqual(
      created
        .slice(0, 3)
        .map((t) => t.id)
        .sort(),
    );
    expect(of[0]).toEqual({
      id: of[0]!.id,
      name: expect.any(String),
      timezone: 'UTC',
      status: 'active',
      created_at: expect.any(String),
    });
  });

  it('a listTenantsOf cursor is refused for another user and for the admin list', async () => {
    const t1 = tenant();
    const t2 = tenant();
    const u = login();
    for (const t of [t1, t2]) {
      await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
      await stores.tenants.addMember(membership(t, u, 'operator'), null, audit(t.id, 'member', u.user.id));
    }
    const page = await stores.tenants.listTenantsOf(u.user.id, { limit: 1 });
    expect(page.next_cursor).toEqual(expect.any(String));
    await expect(
      stores.tenants.listTenantsOf('other-user', { limit: 1, cursor: page.next_cursor! }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });
    await expect(stores.tenants.listTenants({ limit: 1, cursor: page.next_cursor! })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });

  it('addMember with a new user, getMember, listMembers with cursors; a duplicate writes nothing', async () => {
    const t = tenant();
    await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
    const users = [login(), login(), login()];
    expect(await stores.tenants.addMember(membership(t, users[0]!, 'owner'), users[0]!, audit(t.id))).toBe(
      'ok',
    );
    expect((await stores.identity.findLogin(users[0]!.user.email))?.user.id).toBe(users[0]!.user.id);
    for (const u of users.slice(1)) {
      await stores.identity.createUser(u, null);
      expect(await stores.tenants.addMember(membership(t, u, 'operator'), null, audit(t.id))).toBe('ok');
    }
    expect((await stores.tenants.getMember(t.id, users[1]!.user.id))?.role).toBe('operator');
    expect(await stores.tenants.getMember(t.id, 'nobody')).toBeUndefined();

    const first = await stores.tenants.listMembers(t.id, { limit: 2 });
    expect(first.items).toHaveLength(2);
    const all = await drain((cursor) => stores.tenants.listMembers(t.id, { limit: 2, cursor }));
    expect(all.map((m) => m.user_id).sort()).toEqual(users.map((u) => u.user.id).sort());
    await expect(
      stores.tenants.listMembers('other-tenant', { limit: 2, cursor: first.next_cursor! }),
    ).rejects.toMatchObject({ code: 'invalid_cursor' });

    const before = await auditCount(t.id);
    expect(await stores.tenants.addMember(membership(t, users[1]!, 'manager'), null, audit(t.id))).toBe(
      'duplicate',
    );
    expect((await stores.tenants.getMember(t.id, users[1]!.user.id))?.role).toBe('operator');
    expect(await auditCount(t.id)).toBe(before);
  });

  it('addMember of a new user whose email was taken meanwhile is email_taken and writes nothing', async () => {
    const t = tenant();
    await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
    const existing = login();
    await stores.identity.createUser(existing, null);
    const racer = login(existing.user.email);
    const before = await auditCount(t.id);
    expect(await stores.tenants.addMember(membership(t, racer, 'operator'), racer, audit(t.id))).toBe(
      'email_taken',
    );
    expect(await stores.tenants.getMember(t.id, racer.user.id)).toBeUndefined();
    expect(await auditCount(t.id)).toBe(before);
  });

  it('changeMember: role change, stale expectation, removal', async () => {
    const t = tenant();
    await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
    const o = login();
    const u = login();
    await stores.tenants.addMember(membership(t, o, 'owner'), o, audit(t.id));
    await stores.tenants.addMember(membership(t, u, 'operator'), u, audit(t.id));
    const current = (await stores.tenants.getMember(t.id, u.user.id))!;

    expect(await stores.tenants.changeMember(current, { ...current, role: 'manager' }, audit(t.id))).toBe(
      'ok',
    );
    expect((await stores.tenants.getMember(t.id, u.user.id))?.role).toBe('manager');

    const before = await auditCount(t.id);
    // `current` still says operator: the write is refused as stale.
    expect(await stores.tenants.changeMember(current, { ...current, role: 'support' }, audit(t.id))).toBe(
      'stale',
    );
    expect(await stores.tenants.changeMember(current, null, audit(t.id))).toBe('stale');
    expect((await stores.tenants.getMember(t.id, u.user.id))?.role).toBe('manager');
    expect(await auditCount(t.id)).toBe(before);

    const now = (await stores.tenants.getMember(t.id, u.user.id))!;
    expect(await stores.tenants.changeMember(now, null, audit(t.id))).toBe('ok');
    expect(await stores.tenants.getMember(t.id, u.user.id)).toBeUndefined();
    expect((await stores.identity.userWithMemberships(u.user.id))?.memberships).toEqual([]);
    expect(await auditCount(t.id)).toBe(before + 1);
  });
});

describe('the last-owner guard', () => {
  const deps = () => ({ tenants: stores.tenants, identity: stores.identity, clock: systemClock });
  const admin = principal('admin', {}, true);

  it('refuses to remove or demote the last owner, allows it once there is a second owner', async () => {
    const t = await createTenant(deps(), admin, { id: `lo-${Date.now()}`, name: 'Last owner' });
    const owner = await addMember(deps(), admin, t.id, {
      email: `owner-${Date.now()}@example.test`,
      display_name: 'Owner',
      role: 'owner',
      password: 'a long enough password',
    });
    const before = await auditCount(t.id);
    await expect(removeMember(deps(), admin, t.id, owner.user_id)).rejects.toThrow(ConflictError);
    await expect(updateMemberRole(deps(), admin, t.id, owner.user_id, 'manager')).rejects.toThrow(
      ConflictError,
    );
    expect((await stores.tenants.getMember(t.id, owner.user_id))?.role).toBe('owner');
    expect(await auditCount(t.id)).toBe(before);

    const second = await addMember(deps(), admin, t.id, {
      email: `second-${Date.now()}@example.test`,
      display_name: 'Second',
      role: 'operator',
      password: 'a long enough password',
    });
    await updateMemberRole(deps(), admin, t.id, second.user_id, 'owner');
    await updateMemberRole(deps(), admin, t.id, owner.user_id, 'manager');
    expect((await stores.tenants.getMember(t.id, owner.user_id))?.role).toBe('manager');
    // Now `second` is the last owner.
    await expect(removeMember(deps(), admin, t.id, second.user_id)).rejects.toThrow(ConflictError);
    await removeMember(deps(), admin, t.id, owner.user_id);
    expect(await stores.tenants.getMember(t.id, owner.user_id)).toBeUndefined();
  });

  it('two owners removing each other concurrently: exactly one removal wins', async () => {
    const t = await createTenant(deps(), admin, { id: `race-${Date.now()}`, name: 'Race' });
    const ids = [];
    for (const n of [1, 2]) {
      const m = await addMember(deps(), admin, t.id, {
        email: `o${n}-${Date.now()}@example.test`,
        display_name: `O${n}`,
        role: 'owner',
        password: 'a long enough password',
      });
      ids.push(m.user_id);
    }
    const results = await Promise.allSettled(ids.map((id) => removeMember(deps(), admin, t.id, id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const members = await stores.tenants.listMembers(t.id, { limit: 10 });
    expect(members.items.map((m) => m.role)).toEqual(['owner']);
  });

  it('a new user without password is a 422 on password and writes nothing', async () => {
    const t = await createTenant(deps(), admin, { id: `np-${Date.now()}`, name: 'No password' });
    const before = await auditCount(t.id);
    const attempt = addMember(deps(), admin, t.id, {
      email: `nopw-${Date.now()}@example.test`,
      display_name: 'N',
      role: 'operator',
    });
    await expect(attempt).rejects.toThrow(ValidationError);
    await expect(attempt).rejects.toMatchObject({ errors: [{ path: 'password' }] });
    expect(await auditCount(t.id)).toBe(before);
  });

  it('updateTenant sets the time zone and the name with one audit event; the user list and memberships read them', async () => {
    const deps = { tenants: stores.tenants, identity: stores.identity, clock: systemClock };
    const t = tenant();
    await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
    const u = login();
    await stores.identity.createUser(u, null);
    await stores.tenants.addMember(membership(t, u, 'owner'), null, audit(t.id, 'member', u.user.id));
    const owner = principal(u.user.id, { [t.id]: 'owner' });
    const before = await auditCount(t.id);

    const read = await updateTenant(deps, owner, t.id, { timezone: 'Europe/Berlin', name: 'Renamed Ltd' });
    expect(read).toMatchObject({ id: t.id, name: 'Renamed Ltd', timezone: 'Europe/Berlin' });
    expect(await getTenant(deps, t.id)).toEqual(read);
    expect(await auditCount(t.id)).toBe(before + 1);
    const mine = await listTenants(deps, owner, { limit: 10 });
    expect(mine.items).toEqual([read]);
    const me = await stores.identity.userWithMemberships(u.user.id);
    expect(me?.memberships.map((m) => m.tenant_name)).toEqual(['Renamed Ltd']);

    // Nothing to change: no write, no audit event.
    expect(await updateTenant(deps, owner, t.id, { timezone: 'Europe/Berlin' })).toEqual(read);
    expect(await auditCount(t.id)).toBe(before + 1);

    // Written against a tenant that changed meanwhile: refused, nothing written.
    const stale = { ...read, status: 'active' as const, created_at: t.created_at };
    expect(
      await stores.tenants.updateTenant(
        { ...stale, timezone: 'UTC' },
        { ...stale, timezone: 'Asia/Tokyo' },
        audit(t.id),
      ),
    ).toBe(false);
    expect((await getTenant(deps, t.id)).timezone).toBe('Europe/Berlin');
    expect(await auditCount(t.id)).toBe(before + 1);
    await expect(updateTenant(deps, owner, 'no-such-tenant', { timezone: 'UTC' })).rejects.toBeInstanceOf(
      Error,
    );
  });

  it('a tenant written before time zones existed reads as UTC, and its first zone is written on that condition', async () => {
    const deps = { tenants: stores.tenants, identity: stores.identity, clock: systemClock };
    const t = tenant();
    const { timezone: _, ...old } = t;
    await stores.tenants.createTenant(old as typeof t, audit(t.id, 'tenant', t.id));
    expect((await getTenant(deps, t.id)).timezone).toBe('UTC');
    const admin = principal('admin', {}, true);
    expect((await updateTenant(deps, admin, t.id, { timezone: 'America/New_York' })).timezone).toBe(
      'America/New_York',
    );
  });
});
