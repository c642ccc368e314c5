import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { invitationStore, inviteeStore } from '#functions/adapters/invitation-store';
import { tenantStore } from '#functions/adapters/tenant-store';
import type { Invitation, Tenant } from '#shared/domain/identity/ports';
import { newId } from '#shared/kernel/ids';
import { invitation } from '#shared/table/entities/invitation';
import { tenant as tenantEntity } from '#shared/table/entities/tenant';
import type { Key } from '#shared/table/table';
import { freshDb } from '#tests/support/db';
import { audit, login, membership, tenant } from '#tests/support/fixtures';

/**
 * The invitation stores' answers over DynamoDB Local (functions/adapters/invitation-store.ts):
 * each outcome by its exact name, what the accepting transaction adds to the tenant, how long the
 * item is kept, and that a condition failure nobody expects is an error rather than an answer.
 * The use cases over them are in invitations.test.ts. Each test makes its stores (a store built
 * before the test would hide a broken store from it).
 */

let db: Db;
beforeAll(async () => {
  ({ db } = await freshDb());
});

const WEEK_MS = 7 * 24 * 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** A tenant as createTenant writes it (owner_count 0). */
async function newTenant(): Promise<Tenant> {
  const t = tenant(`inv-${newId().slice(-12)}`);
  expect(await tenantStore(db).createTenant(t, audit(t.id, 'tenant'))).toBe(true);
  return t;
}

const invitationOf = (
  t: Tenant,
  email: string,
  { role = 'operator', created = Date.now() }: { role?: Invitation['role']; created?: number } = {},
): Invitation => ({
  id: newId(),
  tenant_id: t.id,
  tenant_name: t.name,
  tenant_created_at: t.created_at,
  email,
  role,
  status: 'pending',
  invited_by: 'owner-1',
  created_at: iso(created),
  expires_at: iso(created + WEEK_MS),
});

const email = () => `${newId()}@example.test`;
const stored = async (key: Key) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key }))).Item;
const ownerCount = async (t: Tenant) => (await stored(tenantEntity.key({ id: t.id })))?.owner_count;

describe('createInvitation', () => {
  it('ok; pending while an unexpired invitation of the email is pending; kept a week past its expiry', async () => {
    const owners = invitationStore(db);
    const t = await newTenant();
    const to = email();
    const first = invitationOf(t, to);
    expect(await owners.createInvitation(first, null, [audit(t.id, 'invitation')])).toBe('ok');
    const item = await stored(invitation.key(first));
    expect(item?.ttl).toBe(Math.floor(Date.parse(first.expires_at) / 1000) + 7 * 24 * 3600);

    const second = invitationOf(t, to);
    expect(await owners.createInvitation(second, null, [audit(t.id, 'invitation')])).toBe('pending');
    expect((await owners.getInvitation(t.id, to))?.id).toBe(first.id);

    // Once the first has expired, a new one replaces it.
    const later = invitationOf(t, to, { created: Date.parse(first.expires_at) });
    expect(await owners.createInvitation(later, null, [audit(t.id, 'invitation')])).toBe('ok');
    expect(await owners.getInvitation(t.id, to)).toEqual(later);
  });

  it('a new account whose email was registered meanwhile is email_taken; another condition failure is an error', async () => {
    const owners = invitationStore(db);
    const t = await newTenant();
    const account = login();
    const event = audit(t.id, 'invitation');
    expect(await owners.createInvitation(invitationOf(t, account.user.email), account, [event])).toBe('ok');

    // Another tenant invites the same email with a new account: the account exists since.
    const elsewhere = await newTenant();
    const second = { ...login(), user: { ...login().user, email: account.user.email } };
    expect(await owners.createInvitation(invitationOf(elsewhere, account.user.email), second, [])).toBe(
      'email_taken',
    );
    expect(await owners.getInvitation(elsewhere.id, account.user.email)).toBeUndefined();

    // The same audit event again (a replayed request, a bug): not a pending invitation nor a taken email.
    const replay = invitationOf(t, email());
    await expect(owners.createInvitation(replay, null, [event])).rejects.toThrow(
      'createInvitation: unexpected condition failure at 1',
    );
    expect(await owners.getInvitation(t.id, replay.email)).toBeUndefined();
  });
});

describe('acceptInvitation', () => {
  it('ok adds the membership; only an owner adds to the owner count; then stale, member, or an error', async () => {
    const invitees = inviteeStore(db);
    const owners = invitationStore(db);
    const t = await newTenant();
    const now = iso(Date.now());

    const operator = login();
    const asOperator = invitationOf(t, operator.user.email);
    expect(await owners.createInvitation(asOperator, null, [])).toBe('ok');
    const joined = membership(t, operator, 'operator');
    expect(await invitees.acceptInvitation(asOperator, joined, audit(t.id, 'member'), now)).toBe('ok');
    expect(await ownerCount(t)).toBe(0);
    expect(await invitees.acceptInvitation(asOperator, joined, audit(t.id, 'member'), now)).toBe('stale');

    const owner = login();
    const asOwner = invitationOf(t, owner.user.email, { role: 'owner' });
    expect(await owners.createInvitation(asOwner, null, [])).toBe('ok');
    expect(
      await invitees.acceptInvitation(asOwner, membership(t, owner, 'owner'), audit(t.id, 'member'), now),
    ).toBe('ok');
    expect(await ownerCount(t)).toBe(1);

    // Invited again after joining: the invitation stays pending, the membership as it was.
    const again = invitationOf(t, operator.user.email);
    expect(await owners.createInvitation(again, null, [])).toBe('ok');
    expect(await invitees.acceptInvitation(again, joined, audit(t.id, 'member'), now)).toBe('member');
    expect((await owners.getInvitation(t.id, operator.user.email))?.status).toBe('pending');

    // A replayed audit event: an error, and nothing written.
    const event = audit(t.id, 'member');
    const third = login();
    const first = invitationOf(t, third.user.email);
    expect(await owners.createInvitation(first, null, [event])).toBe('ok');
    await expect(
      invitees.acceptInvitation(first, membership(t, third, 'operator'), event, now),
    ).rejects.toThrow('acceptInvitation: unexpected condition failure at 2');
    expect((await owners.getInvitation(t.id, third.user.email))?.status).toBe('pending');
  });
});

describe('the lookups', () => {
  it("find an invitation by id from the owners' side and the invitee's, and end it once", async () => {
    const owners = invitationStore(db);
    const invitees = inviteeStore(db);
    const t = await newTenant();
    const to = email();
    const record = invitationOf(t, to);
    expect(await owners.createInvitation(record, null, [])).toBe('ok');
    expect(await owners.findInvitation({ tenant_id: t.id }, record.id)).toEqual(record);
    expect(await invitees.findInvitation({ email: to }, record.id)).toEqual(record);
    expect(await invitees.invitationsOf(to)).toEqual([record]);
    expect(await owners.findInvitation({ tenant_id: t.id }, newId())).toBeUndefined();
    const now = iso(Date.now());
    expect(await invitees.endInvitation(record, 'declined', audit(t.id, 'invitation'), now)).toBe(true);
    expect(await owners.endInvitation(record, 'revoked', audit(t.id, 'invitation'), now)).toBe(false);
    expect(await invitees.invitationsOf(to)).toEqual([]);
    expect((await owners.getInvitation(t.id, to))?.status).toBe('declined');
  });

  it("read the tenant's invitation consistently; a list cursor serves only its tenant", async () => {
    const reads: Record<string, unknown>[] = [];
    const recording: Db = {
      ...db,
      doc: {
        send: (c: { constructor: { name: string }; input: Record<string, unknown> }) => {
          if (c.constructor.name === 'GetCommand') reads.push(c.input);
          return db.doc.send(c as never);
        },
      } as unknown as Db['doc'],
    };
    const owners = invitationStore(recording);
    const t = await newTenant();
    const [a, b] = [invitationOf(t, email()), invitationOf(t, email())];
    for (const i of [a, b]) expect(await owners.createInvitation(i, null, [])).toBe('ok');
    expect(await owners.getInvitation(t.id, a.email)).toEqual(a);
    expect(reads).toEqual([expect.objectContaining({ ConsistentRead: true })]);

    const page = await owners.listInvitations(t.id, { limit: 1 });
    expect(page.items).toEqual([b]);
    const cursor = page.next_cursor!;
    expect((await owners.listInvitations(t.id, { limit: 5, cursor })).items).toEqual([a]);
    await expect(owners.listInvitations((await newTenant()).id, { limit: 5, cursor })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });
});
