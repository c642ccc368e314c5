import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { PLATFORM_AUDIT_TENANT } from '#shared/domain/audit';
import { authenticate, listSessions, login, me, revokeSession } from '#shared/domain/identity/sessions';
import { InvalidCredentialsError, NotFoundError } from '#shared/kernel/errors';
import { systemClock } from '#shared/kernel/ids';
import { hashPassword, tokenId } from '#shared/kernel/secrets';
import { freshDb } from '#tests/support/db';
import {
  audit,
  login as loginFixture,
  membership,
  principal,
  session,
  tenant,
} from '#tests/support/fixtures';

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const auditOf = (tenantId: string, entityType?: string, entityId?: string) =>
  stores.audit.list(tenantId, { entity_type: entityType, entity_id: entityId }, { limit: 100 });

describe('identity store', () => {
  it('createUser writes login and profile; a taken email (any case) is refused without writing', async () => {
    const l = loginFixture('Ada@Example.test');
    expect(await stores.identity.createUser(l, audit('_platform', 'user', l.user.id))).toBe(true);
    const found = await stores.identity.findLogin('ada@example.TEST');
    expect(found?.user).toEqual(l.user);
    expect(found?.password_hash).toBe(l.password_hash);

    const again = loginFixture('ADA@example.test');
    const a = audit('_platform', 'user', again.user.id);
    expect(await stores.identity.createUser(again, a)).toBe(false);
    expect(await stores.identity.userWithMemberships(again.user.id)).toBeUndefined();
    expect((await auditOf('_platform', 'user', again.user.id)).items).toEqual([]);
    expect((await auditOf('_platform', 'user', l.user.id)).items).toHaveLength(1);
  });

  it('findLogin of an unknown email is undefined', async () => {
    expect(await stores.identity.findLogin('nobody@example.test')).toBeUndefined();
  });

  it('userWithMemberships returns the user and only their memberships, not sessions', async () => {
    const l = loginFixture();
    await stores.identity.createUser(l, null);
    const t = tenant();
    await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
    await stores.tenants.addMember(membership(t, l, 'manager'), null, audit(t.id, 'member', l.user.id));
    await stores.identity.createSession(session(l.user.id), audit(PLATFORM_AUDIT_TENANT, 'session'));
    const found = await stores.identity.userWithMemberships(l.user.id);
    expect(found?.user.id).toBe(l.user.id);
    expect(found?.memberships.map((m) => [m.tenant_id, m.role])).toEqual([[t.id, 'manager']]);
    expect(await stores.identity.userWithMemberships('no-such-user')).toBeUndefined();
  });

  it('createSession, getSession, touchSession, listSessions (newest first)', async () => {
    const l = loginFixture();
    await stores.identity.createUser(l, null);
    const first = session(l.user.id, { created_at: '2030-01-01T00:00:00.000Z' });
    const second = session(l.user.id, { created_at: '2030-01-02T00:00:00.000Z' });
    await stores.identity.createSession(first, audit(PLATFORM_AUDIT_TENANT, 'session', first.token_id));
    await stores.identity.createSession(second, audit(PLATFORM_AUDIT_TENANT, 'session', second.token_id));
    expect(await stores.identity.getSession(first.token_id)).toEqual(first);
    expect((await auditOf(PLATFORM_AUDIT_TENANT, 'session', first.token_id)).items).toHaveLength(1);

    await stores.identity.touchSession(first.token_id, '2030-01-03T00:00:00.000Z');
    expect((await stores.identity.getSession(first.token_id))?.last_used_at).toBe('2030-01-03T00:00:00.000Z');
    await expect(
      stores.identity.touchSession('missing', '2030-01-03T00:00:00.000Z'),
    ).resolves.toBeUndefined();
    expect(await stores.identity.getSession('missing')).toBeUndefined();

    const listed = await stores.identity.listSessions(l.user.id);
    expect(listed.map((s) => s.token_id)).toEqual([second.token_id, first.token_id]);
  });

  it('createSession with a colliding token id throws and writes no second audit event', async () => {
    const l = loginFixture();
    const s = session(l.user.id);
    await stores.identity.createSession(s, audit(PLATFORM_AUDIT_TENANT, 'session', s.token_id));
    await expect(
      stores.identity.createSession(s, audit(PLATFORM_AUDIT_TENANT, 'session', s.token_id)),
    ).rejects.toThrow();
    expect((await auditOf(PLATFORM_AUDIT_TENANT, 'session', s.token_id)).items).toHaveLength(1);
  });

  it('revokeSession: only the owner, only once, with exactly one audit event', async () => {
    const l = loginFixture();
    const s = session(l.user.id);
    await stores.identity.createSession(s, audit(PLATFORM_AUDIT_TENANT, 'session', s.token_id));
    const revokeAudit = () => audit(PLATFORM_AUDIT_TENANT, 'revoke', s.token_id);
    expect(await stores.identity.revokeSession(s.token_id, 'someone-else', 'x', revokeAudit())).toBe(false);
    expect((await stores.identity.getSession(s.token_id))?.revoked_at).toBeNull();
    expect(
      await stores.identity.revokeSession(s.token_id, l.user.id, '2030-01-01T00:00:00.000Z', revokeAudit()),
    ).toBe(true);
    expect((await stores.identity.getSession(s.token_id))?.revoked_at).toBe('2030-01-01T00:00:00.000Z');
    expect(
      await stores.identity.revokeSession(s.token_id, l.user.id, '2031-01-01T00:00:00.000Z', revokeAudit()),
    ).toBe(false);
    expect(await stores.identity.revokeSession('missing', l.user.id, 'x', revokeAudit())).toBe(false);
    expect((await stores.identity.getSession(s.token_id))?.revoked_at).toBe('2030-01-01T00:00:00.000Z');
    expect((await auditOf(PLATFORM_AUDIT_TENANT, 'revoke', s.token_id)).items).toHaveLength(1);
  });
});

describe('identity domain over the real store', () => {
  const deps = () => ({ identity: stores.identity, clock: systemClock, sessionTtlSeconds: 3600 });

  it('login -> authenticate -> me -> listSessions -> revoke -> authenticate refuses', async () => {
    const l = loginFixture('grace@example.test');
    l.password_hash = await hashPassword('a long enough password');
    await stores.identity.createUser(l, null);

    await expect(
      login(deps(), { email: 'grace@example.test', password: 'wrong password!!' }),
    ).rejects.toThrow(InvalidCredentialsError);
    await expect(login(deps(), { email: 'nobody@example.test', password: 'x' })).rejects.toThrow(
      InvalidCredentialsError,
    );

    const token = await login(deps(), { email: 'GRACE@example.test', password: 'a long enough password' });
    expect(token.user.id).toBe(l.user.id);
    const stored = await stores.identity.getSession(tokenId(token.access_token));
    expect(stored?.user_id).toBe(l.user.id);
    // The token itself is never stored.
    expect(JSON.stringify(stored)).not.toContain(token.access_token);

    const p = await authenticate(deps(), token.access_token);
    expect(p?.user_id).toBe(l.user.id);
    expect((await me(deps(), p!)).user.email).toBe('grace@example.test');
    expect((await listSessions(deps(), p!)).items.map((s) => s.status)).toEqual(['active']);

    await expect(revokeSession(deps(), principal('intruder'), p!.token_id)).rejects.toThrow(NotFoundError);
    await revokeSession(deps(), p!, p!.token_id);
    expect(await authenticate(deps(), token.access_token)).toBeUndefined();
    expect((await listSessions(deps(), p!)).items.map((s) => s.status)).toEqual(['revoked']);
    expect(
      (await auditOf(PLATFORM_AUDIT_TENANT, 'session', p!.token_id)).items.map((e) => e.event_type),
    ).toEqual(['session.revoked', 'session.created']);
  });

  it('an expired session does not authenticate', async () => {
    const l = loginFixture();
    await stores.identity.createUser(l, null);
    const token = 'expired-token-0123456789abcdef';
    await stores.identity.createSession(
      session(l.user.id, { token_id: tokenId(token), expires_at: new Date(Date.now() - 1000).toISOString() }),
      audit(PLATFORM_AUDIT_TENANT, 'session'),
    );
    expect(await authenticate(deps(), token)).toBeUndefined();
  });

  it('the table name is never part of what the store returns', async () => {
    const l = loginFixture();
    await stores.identity.createUser(l, null);
    expect(JSON.stringify(await stores.identity.userWithMemberships(l.user.id))).not.toContain(db.tableName);
  });
});
