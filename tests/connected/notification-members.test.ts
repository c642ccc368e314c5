import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { notificationStore } from '#functions/adapters/notification-store';
import { parse } from '#shared/api/issues';
import { NotificationCreate } from '#shared/api/schemas/notifications';
import {
  createNotification,
  getNotification,
  listNotifications,
  type NotificationDeps,
} from '#shared/domain/notifications/use-cases';
import { PreferencesPut } from '#shared/api/schemas/preferences';
import { getPreferences, putPreferences } from '#shared/domain/preferences/use-cases';
import { preferencesStore } from '#functions/adapters/preferences-store';
import { auditStore } from '#functions/adapters/audit-store';
import { PolicyRejectedError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { preferences } from '#shared/table/entities/preferences';
import { freshDb } from '#tests/support/db';
import { connectChannel } from '#tests/support/connections';
import { audit, login, membership, principal, tenant } from '#tests/support/fixtures';

/**
 * Notifications to members (docs/api.md section 7.2): the member's address per channel (the
 * contact, the account's email by default), `no_contact`, a non-member refused with nothing
 * stored, category and priority kept, exactly one of recipient and recipient_user_id.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
let store: ReturnType<typeof notificationStore>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
  store = notificationStore(db);
});

const NOW = '2031-04-01T12:00:00.000Z';
const clock: Clock = { now: () => new Date(NOW) };
const deps = (): NotificationDeps => ({ notifications: store, clock, allowLoopback: false });
const actor = principal('op-7');

const withMember = async () => {
  const t = tenant();
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
  const u = login();
  await stores.identity.createUser(u, null);
  await stores.tenants.addMember(membership(t, u, 'operator'), null, audit(t.id));
  for (const channel of ['email', 'sms', 'telegram'] as const) await connectChannel(db, t.id, channel);
  return { tenantId: t.id, userId: u.user.id, email: u.user.email };
};

const setContacts = (tenantId: string, userId: string, contacts: Record<string, string>) =>
  db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: preferences.item(
        { contacts, muted: [], quiet_hours: null, updated_at: NOW },
        { tenant_id: tenantId, user_id: userId },
      ),
    }),
  );

describe('notifications to members', () => {
  it('in_app goes to the member with its category and priority; email to the account email by default', async () => {
    const m = await withMember();
    const inApp = await createNotification(deps(), actor, m.tenantId, {
      channel: 'in_app',
      recipient_user_id: m.userId,
      category: 'tasks',
      priority: 'critical',
      body: 'Your task is due',
    });
    expect(inApp).toMatchObject({
      status: 'queued',
      recipient: m.userId,
      recipient_user_id: m.userId,
      category: 'tasks',
      priority: 'critical',
    });
    const email = await createNotification(deps(), actor, m.tenantId, {
      channel: 'email',
      recipient_user_id: m.userId,
      subject: 'Due',
      body: 'Your task is due',
    });
    expect(email).toMatchObject({
      status: 'queued',
      recipient: m.email,
      category: 'general',
      priority: 'normal',
    });
  });

  it("members read a member's notification by user id, never the address it was sent to", async () => {
    const m = await withMember();
    await setContacts(m.tenantId, m.userId, { sms: '+4915112345678' });
    const sms = await createNotification(deps(), actor, m.tenantId, {
      channel: 'sms',
      recipient_user_id: m.userId,
      body: 'Stock is low',
    });
    // Stored with the address, for the worker that sends it.
    expect((await store.get(m.tenantId, sms.id))?.recipient).toBe('+4915112345678');
    const read = await getNotification(deps(), m.tenantId, sms.id);
    const listed = await listNotifications(deps(), m.tenantId, {}, { limit: 10 });
    expect(read.recipient).toBe(m.userId);
    expect(listed.items.map((n) => n.recipient)).toEqual([m.userId]);
    expect(JSON.stringify([read, listed])).not.toContain('+4915112345678');
    // Nor can a filter by the address tie it to the member.
    expect(
      (await listNotifications(deps(), m.tenantId, { recipient: '+4915112345678' }, { limit: 10 })).items,
    ).toEqual([]);
  });

  it('an external channel uses the member contact; without one the draft is blocked no_contact', async () => {
    const m = await withMember();
    const blocked = await createNotification(deps(), actor, m.tenantId, {
      channel: 'sms',
      recipient_user_id: m.userId,
      body: 'Stock is low',
    }).catch((e: unknown) => e);
    expect(blocked).toBeInstanceOf(PolicyRejectedError);
    expect((blocked as PolicyRejectedError).errors).toEqual([
      expect.objectContaining({ path: 'recipient_user_id', code: 'no_contact' }),
    ]);
    const stored = await store.list(m.tenantId, {}, { limit: 10 });
    expect(stored.items.map((n) => [n.status, n.policy_reasons])).toEqual([['blocked', ['no_contact']]]);

    await setContacts(m.tenantId, m.userId, { sms: '+4915112345678', email: 'me@example.org' });
    const sms = await createNotification(deps(), actor, m.tenantId, {
      channel: 'sms',
      recipient_user_id: m.userId,
      body: 'Stock is low',
    });
    expect(sms).toMatchObject({ status: 'queued', recipient: '+4915112345678' });
    const email = await createNotification(deps(), actor, m.tenantId, {
      channel: 'email',
      recipient_user_id: m.userId,
      subject: 'S',
      body: 'Stock is low',
    });
    expect(email.recipient).toBe('me@example.org');
  });

  it('a user who is no member is 422 naming recipient_user_id, and nothing is stored', async () => {
    const m = await withMember();
    const error = await createNotification(deps(), actor, m.tenantId, {
      channel: 'in_app',
      recipient_user_id: 'not-a-member',
      body: 'Hello',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([
      expect.objectContaining({ path: 'recipient_user_id', code: 'not_a_member' }),
    ]);
    expect((await store.list(m.tenantId, {}, { limit: 10 })).items).toEqual([]);
  });

  it('exactly one of recipient and recipient_user_id; an unknown category or priority is refused', () => {
    const errorsOf = (body: unknown) => {
      try {
        parse(NotificationCreate, body);
        return [];
      } catch (e) {
        return ((e as ValidationError).errors ?? []).map((f) => [f.path, f.code]);
      }
    };
    expect(errorsOf({ channel: 'email', body: 'b' })).toEqual([['recipient', 'recipient_required']]);
    expect(errorsOf({ channel: 'email', recipient: 'a@b.co', recipient_user_id: 'u', body: 'b' })).toEqual([
      ['recipient_user_id', 'one_recipient'],
    ]);
    expect(errorsOf({ channel: 'email', recipient: 'a@b.co', category: 'spam', body: 'b' })).toEqual([
      ['category', 'invalid_value'],
    ]);
    expect(errorsOf({ channel: 'email', recipient: 'a@b.co', priority: 'high', body: 'b' })).toEqual([
      ['priority', 'invalid_value'],
    ]);
    expect(parse(NotificationCreate, { channel: 'email', recipient: 'a@b.co', body: 'b' })).toMatchObject({
      category: 'general',
      priority: 'normal',
    });
  });
});

describe('preferences: mutes', () => {
  const prefsDeps = () => ({ preferences: preferencesStore(db), clock });

  it('a mute suppresses exactly the muted pairs; security passes any mute; PUT is audited without addresses', async () => {
    const m = await withMember();
    const me = principal(m.userId, { [m.tenantId]: 'operator' });
    const body = parse(PreferencesPut, {
      contacts: { sms: '+4915112345678' },
      muted: [{ channel: 'sms' }, { category: 'documents' }, { channel: 'email', category: 'tasks' }],
    });
    await putPreferences(prefsDeps(), me, m.tenantId, body);
    expect(await getPreferences(prefsDeps(), me, m.tenantId)).toMatchObject({ muted: body.muted });
    const events = (await auditStore(db).list(m.tenantId, { entity_type: 'preferences' }, { limit: 10 }))
      .items;
    expect(events.map((e) => e.event_type)).toEqual(['preferences.updated']);
    expect(events[0]!.metadata_json).not.toContain('+4915112345678');

    const send = (
      channel: 'sms' | 'email' | 'in_app',
      category: 'tasks' | 'documents' | 'security' | 'general',
    ) =>
      createNotification(deps(), actor, m.tenantId, {
        channel,
        recipient_user_id: m.userId,
        category,
        subject: 'S',
        body: 'b',
      });
    const cases = [
      ['sms', 'general', 'suppressed'],
      ['in_app', 'documents', 'suppressed'],
      ['email', 'tasks', 'suppressed'],
      ['email', 'general', 'queued'],
      ['in_app', 'tasks', 'queued'],
      ['sms', 'security', 'queued'],
      ['in_app', 'security', 'queued'],
    ] as const;
    for (const [channel, category, status] of cases) {
      const n = await send(channel, category);
      expect([channel, category, n.status]).toEqual([channel, category, status]);
      if (status === 'suppressed')
        expect(n.attempts).toEqual([expect.objectContaining({ outcome: 'suppressed', reason: 'muted' })]);
    }
  });

  it("contacts.email reads as the account's email until the member gives another, and is not stored", async () => {
    const m = await withMember();
    const me = { ...principal(m.userId, { [m.tenantId]: 'operator' }), email: m.email };
    expect(await getPreferences(prefsDeps(), me, m.tenantId)).toEqual({
      contacts: { email: m.email },
      muted: [],
      quiet_hours: null,
      updated_at: null,
    });

    const put = await putPreferences(
      prefsDeps(),
      me,
      m.tenantId,
      parse(PreferencesPut, { contacts: { sms: '+4915112345678' } }),
    );
    expect(put.contacts).toEqual({ email: m.email, sms: '+4915112345678' });
    expect((await getPreferences(prefsDeps(), me, m.tenantId)).contacts).toEqual(put.contacts);
    // The default is the account's: stored, the document has no email, so an account's new email is read.
    expect((await preferencesStore(db).get({ tenant_id: m.tenantId, user_id: m.userId }))!.contacts).toEqual({
      sms: '+4915112345678',
    });
    expect(
      (await getPreferences(prefsDeps(), { ...me, email: 'renamed@example.test' }, m.tenantId)).contacts
        .email,
    ).toBe('renamed@example.test');

    await putPreferences(
      prefsDeps(),
      me,
      m.tenantId,
      parse(PreferencesPut, { contacts: { email: 'desk@example.test' } }),
    );
    expect((await getPreferences(prefsDeps(), me, m.tenantId)).contacts).toEqual({
      email: 'desk@example.test',
    });
  });

  it('security cannot be muted, a bad address, time or entry is 422 naming the field', () => {
    const errorsOf = (body: unknown) => {
      try {
        parse(PreferencesPut, body);
        return [];
      } catch (e) {
        return ((e as ValidationError).errors ?? []).map((f) => f.path);
      }
    };
    expect(errorsOf({ muted: [{ category: 'security' }] })).toEqual(['muted.0.category']);
    expect(errorsOf({ muted: [{ channel: 'pager' }] })).toEqual(['muted.0.channel']);
    expect(errorsOf({ muted: [{ category: 'spam' }] })).toEqual(['muted.0.category']);
    expect(errorsOf({ muted: Array.from({ length: 51 }, () => ({ channel: 'sms' })) })).toEqual(['muted']);
    expect(errorsOf({ contacts: { sms: '0151 1234' } })).toEqual(['contacts.sms']);
    expect(errorsOf({ contacts: { email: 'nobody' } })).toEqual(['contacts.email']);
    expect(errorsOf({ quiet_hours: { start: '24:00', end: '07:00' } })).toEqual(['quiet_hours.start']);
    expect(errorsOf({ quiet_hours: { start: '22:00', end: '07:00', timezone: 'Mars/Base' } })).toEqual([
      'quiet_hours.timezone',
    ]);
    expect(errorsOf({ quiet_hours: { start: '22:00', end: '07:00', timezone: 'Europe/Berlin' } })).toEqual(
      [],
    );
  });
});
