import { beforeAll, describe, expect, it } from 'vitest';
import type { createStores } from '#functions/adapters/stores';
import { PLATFORM_AUDIT_TENANT } from '#shared/domain/audit';
import {
  acceptInvitation,
  declineInvitation,
  INVITATION_LIFETIME_MS,
  inviteMember,
  listInvitations,
  myInvitations,
  revokeInvitation,
} from '#shared/domain/identity/invitations';
import type { Invitation } from '#shared/domain/identity/ports';
import { createTenant } from '#shared/domain/identity/tenants';
import { ConflictError, InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import { newId } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { verifyPassword } from '#shared/kernel/secrets';
import { freshDb } from '#tests/support/db';
import { audit, drain, login, membership, principal } from '#tests/support/fixtures';

let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ stores } = await freshDb());
});

/** A clock the test moves: invitations expire after a week. */
let now = Date.now();
const clock = { now: () => new Date(now) };
const owners = () => ({
  invitations: stores.invitations,
  tenants: stores.tenants,
  identity: stores.identity,
  clock,
});
const invitees = () => ({ invitations: stores.invitees, clock });

const auditOf = async (tenantId: string) =>
  drain((cursor) => stores.audit.list(tenantId, {}, { limit: 100, cursor }));

/** A tenant with an owner (the inviting principal). */
async function ownedTenant() {
  const t = await createTenant(owners(), principal('admin', {}, true), {
    id: `inv-${newId().slice(-12)}`,
    name: 'Inv',
  });
  return { tenantId: t.id, owner: principal(`owner-${newId()}`, { [t.id]: 'owner' }) };
}

/** A user with an account, signed in. */
async function user(): Promise<Principal> {
  const l = login();
  await stores.identity.createUser(l, null);
  return { ...principal(l.user.id), email: l.user.email, display_name: l.user.display_name };
}

const invite = (
  tenantId: string,
  owner: Principal,
  email: string,
  extra: { password?: string; role?: 'operator' | 'owner' } = {},
) =>
  inviteMember(owners(), owner, tenantId, {
    email,
    display_name: 'Invitee',
    role: extra.role ?? 'operator',
    password: extra.password,
  });

describe('invitations (store and use cases, DynamoDB Local)', () => {
  it('accept creates the membership, marks the invitation accepted and writes member.added, in one transaction', async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const sent = await invite(tenantId, owner, invitee.email.toUpperCase(), { role: 'owner' });
    expect(sent).toMatchObject({
      tenant_id: tenantId,
      email: invitee.email,
      role: 'owner',
      status: 'pending',
    });
    expect(await stores.tenants.getMember(tenantId, invitee.user_id)).toBeUndefined();
    expect((await myInvitations(invitees(), invitee)).items.map((i) => i.id)).toEqual([sent.id]);

    const joined = await acceptInvitation(invitees(), invitee, sent.id);
    expect(joined).toMatchObject({ tenant_id: tenantId, role: 'owner' });
    expect((await stores.tenants.getMember(tenantId, invitee.user_id))?.role).toBe('owner');
    expect((await stores.invitations.getInvitation(tenantId, invitee.email))?.status).toBe('accepted');
    const added = (await auditOf(tenantId)).find((e) => e.event_type === 'member.added');
    expect(added?.entity_id).toBe(invitee.user_id);
    expect(JSON.parse(added!.metadata_json!)).toMatchObject({ via: 'invitation', role: 'owner' });
    expect((await myInvitations(invitees(), invitee)).items).toEqual([]);
    expect((await listInvitations(owners(), tenantId, { limit: 10 })).items).toEqual([]);

    // The owner count moved with it: with a second owner, the invited one may leave.
    const second = await user();
    const t = (await stores.tenants.getTenant(tenantId))!;
    const secondOwner = { ...membership(t, login(second.email), 'owner'), user_id: second.user_id };
    await stores.tenants.addMember(secondOwner, null, audit(tenantId, 'member'));
    const joinedMember = (await stores.tenants.getMember(tenantId, invitee.user_id))!;
    expect(await stores.tenants.changeMember(joinedMember, null, audit(tenantId, 'member'))).toBe('ok');
  });

  it('a second accept is 409 and writes nothing', async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const sent = await invite(tenantId, owner, invitee.email);
    await acceptInvitation(invitees(), invitee, sent.id);
    const before = (await auditOf(tenantId)).length;
    await expect(acceptInvitation(invitees(), invitee, sent.id)).rejects.toThrow(InvalidTransitionError);
    expect((await auditOf(tenantId)).length).toBe(before);
  });

  it('two accepts racing: exactly one wins, one membership and one member.added', async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const sent = await invite(tenantId, owner, invitee.email);
    const results = await Promise.allSettled(
      [1, 2].map(() => acceptInvitation(invitees(), invitee, sent.id)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect((await stores.tenants.listMembers(tenantId, { limit: 10 })).items.map((m) => m.user_id)).toEqual([
      invitee.user_id,
    ]);
    expect((await auditOf(tenantId)).filter((e) => e.event_type === 'member.added')).toHaveLength(1);
  });

  it('an expired invitation cannot be accepted, declined or revoked (409) and is listed nowhere', async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const sent = await invite(tenantId, owner, invitee.email);
    const before = (await auditOf(tenantId)).length;
    now += INVITATION_LIFETIME_MS;
    try {
      await expect(acceptInvitation(invitees(), invitee, sent.id)).rejects.toThrow(
        new InvalidTransitionError('The invitation has expired.'),
      );
      await expect(declineInvitation(invitees(), invitee, sent.id)).rejects.toThrow(InvalidTransitionError);
      await expect(revokeInvitation(owners(), owner, tenantId, sent.id)).rejects.toThrow(
        InvalidTransitionError,
      );
      expect(await stores.tenants.getMember(tenantId, invitee.user_id)).toBeUndefined();
      expect((await auditOf(tenantId)).length).toBe(before);
      expect((await myInvitations(invitees(), invitee)).items).toEqual([]);
      expect((await listInvitations(owners(), tenantId, { limit: 10 })).items).toEqual([]);
      // Expired, the email may be invited again: a new invitation replaces it.
      const again = await invite(tenantId, owner, invitee.email);
      expect(again.id).not.toBe(sent.id);
    } finally {
      now -= INVITATION_LIFETIME_MS;
    }
  });

  it('the store refuses an accept past expiry even when the invitation was read before it', async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const sent = await invite(tenantId, owner, invitee.email);
    const record = (await stores.invitations.getInvitation(tenantId, invitee.email))!;
    const late = new Date(Date.parse(sent.expires_at) + 1).toISOString();
    const t = (await stores.tenants.getTenant(tenantId))!;
    const member = { ...membership(t, login(invitee.email), 'operator'), user_id: invitee.user_id };
    expect(await stores.invitees.acceptInvitation(record, member, audit(tenantId, 'member'), late)).toBe(
      'stale',
    );
    expect(await stores.invitees.endInvitation(record, 'declined', audit(tenantId, 'invitation'), late)).toBe(
      false,
    );
    expect(await stores.tenants.getMember(tenantId, invitee.user_id)).toBeUndefined();
    expect((await stores.invitations.getInvitation(tenantId, invitee.email))?.status).toBe('pending');
  });

  it('accepting as a member already is 409 conflict and leaves the invitation pending, with no event', async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const sent = await invite(tenantId, owner, invitee.email);
    const t = (await stores.tenants.getTenant(tenantId))!;
    await stores.tenants.addMember(
      { ...membership(t, login(invitee.email), 'support'), user_id: invitee.user_id },
      null,
      audit(tenantId, 'member'),
    );
    const before = (await auditOf(tenantId)).length;
    await expect(acceptInvitation(invitees(), invitee, sent.id)).rejects.toThrow(ConflictError);
    expect((await stores.tenants.getMember(tenantId, invitee.user_id))?.role).toBe('support');
    expect((await stores.invitations.getInvitation(tenantId, invitee.email))?.status).toBe('pending');
    expect((await auditOf(tenantId)).length).toBe(before);
  });

  it("someone else's invitation is 404 to accept or decline, and stays pending", async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const other = await user();
    const sent = await invite(tenantId, owner, invitee.email);
    await expect(acceptInvitation(invitees(), other, sent.id)).rejects.toThrow(NotFoundError);
    await expect(declineInvitation(invitees(), other, sent.id)).rejects.toThrow(NotFoundError);
    // An owner of another tenant cannot revoke it through theirs.
    const elsewhere = await ownedTenant();
    await expect(revokeInvitation(owners(), elsewhere.owner, elsewhere.tenantId, sent.id)).rejects.toThrow(
      NotFoundError,
    );
    expect((await stores.invitations.getInvitation(tenantId, invitee.email))?.status).toBe('pending');
  });

  it('a pending invitation of the same email is answered again and nothing is written', async () => {
    const { tenantId, owner } = await ownedTenant();
    const email = `fresh-${newId()}@example.test`;
    const first = await invite(tenantId, owner, email);
    const before = (await auditOf(tenantId)).length;
    const again = await invite(tenantId, owner, email.toUpperCase(), {
      role: 'owner',
      password: 'a long enough password',
    });
    expect(again).toEqual(first);
    expect((await auditOf(tenantId)).length).toBe(before);
    // The repeat's password created no account either.
    expect(await stores.identity.findLogin(email)).toBeUndefined();
    const listed = await drain((cursor) => listInvitations(owners(), tenantId, { limit: 1, cursor }));
    expect(listed.map((i) => i.id)).toEqual([first.id]);
  });

  it('two invitations of one email racing: one pending invitation, both answered with it', async () => {
    const { tenantId, owner } = await ownedTenant();
    const email = `race-${newId()}@example.test`;
    const both = await Promise.allSettled([invite(tenantId, owner, email), invite(tenantId, owner, email)]);
    const created = (await auditOf(tenantId)).filter((e) => e.event_type === 'invitation.created');
    expect(created).toHaveLength(1);
    for (const r of both) if (r.status === 'fulfilled') expect(r.value.id).toBe(created[0]!.entity_id);
    expect(both.some((r) => r.status === 'fulfilled')).toBe(true);
  });

  it('a password creates the account of a new email (not a member), audited under _platform only', async () => {
    const { tenantId, owner } = await ownedTenant();
    const email = `prov-${newId()}@example.test`;
    const sent = await invite(tenantId, owner, email, { password: 'a long enough password' });
    const account = (await stores.identity.findLogin(email))!;
    expect(await verifyPassword('a long enough password', account.password_hash)).toBe(true);
    expect(await stores.tenants.getMember(tenantId, account.user.id)).toBeUndefined();
    const tenantLog = await auditOf(tenantId);
    expect(tenantLog.find((e) => e.entity_id === sent.id)?.metadata_json).toBe(
      JSON.stringify({ role: 'operator' }),
    );
    expect(JSON.stringify(tenantLog)).not.toContain(account.user.id);
    const platform = await auditOf(PLATFORM_AUDIT_TENANT);
    expect(platform.find((e) => e.entity_id === account.user.id)?.event_type).toBe('user.created');
  });

  it("a password never changes an existing account's password", async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const hash = (await stores.identity.findLogin(invitee.email))!.password_hash;
    await invite(tenantId, owner, invitee.email, { password: 'the owner chose this one' });
    expect((await stores.identity.findLogin(invitee.email))!.password_hash).toBe(hash);
  });

  it("the store writes nothing when a new account's email was registered meanwhile (email_taken)", async () => {
    const { tenantId } = await ownedTenant();
    const email = `late-${newId()}@example.test`;
    await stores.identity.createUser(login(email), null);
    const record: Invitation = {
      id: newId(),
      tenant_id: tenantId,
      tenant_name: 'Inv',
      tenant_created_at: new Date(now).toISOString(),
      email,
      role: 'operator',
      status: 'pending',
      invited_by: 'o',
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + INVITATION_LIFETIME_MS).toISOString(),
    };
    const before = (await auditOf(tenantId)).length;
    expect(
      await stores.invitations.createInvitation(record, login(email), [audit(tenantId, 'invitation')]),
    ).toBe('email_taken');
    expect(await stores.invitations.getInvitation(tenantId, email)).toBeUndefined();
    expect((await auditOf(tenantId)).length).toBe(before);
  });

  it('an account registered between the read and the write: the invitation is sent, its password untouched', async () => {
    const { tenantId, owner } = await ownedTenant();
    const racer = await user();
    const hash = (await stores.identity.findLogin(racer.email))!.password_hash;
    // The login was read before the account existed.
    const stale = { ...owners(), identity: { ...stores.identity, findLogin: async () => undefined } };
    const sent = await inviteMember(stale, owner, tenantId, {
      email: racer.email,
      display_name: 'Racer',
      role: 'operator',
      password: 'the owner chose this one',
    });
    expect(sent.status).toBe('pending');
    expect((await stores.identity.findLogin(racer.email))!.password_hash).toBe(hash);
    expect((await myInvitations(invitees(), racer)).items.map((i) => i.id)).toEqual([sent.id]);
  });

  it('decline and revoke end the invitation with their audit events; a second time is 409', async () => {
    const { tenantId, owner } = await ownedTenant();
    const invitee = await user();
    const declined = await invite(tenantId, owner, invitee.email);
    await declineInvitation(invitees(), invitee, declined.id);
    await expect(declineInvitation(invitees(), invitee, declined.id)).rejects.toThrow(InvalidTransitionError);
    await expect(acceptInvitation(invitees(), invitee, declined.id)).rejects.toThrow(InvalidTransitionError);

    const revoked = await invite(tenantId, owner, invitee.email);
    expect(revoked.id).not.toBe(declined.id);
    await revokeInvitation(owners(), owner, tenantId, revoked.id);
    await expect(revokeInvitation(owners(), owner, tenantId, revoked.id)).rejects.toThrow(
      InvalidTransitionError,
    );
    await expect(acceptInvitation(invitees(), invitee, revoked.id)).rejects.toThrow(InvalidTransitionError);

    const events = (await auditOf(tenantId)).filter((e) => e.entity_type === 'invitation');
    expect(events.map((e) => [e.event_type, e.entity_id, e.actor_id])).toEqual([
      ['invitation.revoked', revoked.id, owner.user_id],
      ['invitation.created', revoked.id, owner.user_id],
      ['invitation.declined', declined.id, invitee.user_id],
      ['invitation.created', declined.id, owner.user_id],
    ]);
    expect(await stores.tenants.getMember(tenantId, invitee.user_id)).toBeUndefined();
  });
});
