import { describe, expect, it } from 'vitest';
import { createNotification, deliveryRequested, draftAudit } from '#shared/domain/notifications/create';
import { withStep } from '#shared/domain/notifications/holds';
import type {
  ChannelState,
  MemberRecipient,
  Notification,
  NotificationStore,
} from '#shared/domain/notifications/ports';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';
import { manualClock } from '../support/moved-clock';

/**
 * Drafting a notification (shared/domain/notifications/create.ts) over an in-memory store: the
 * address a draft goes to, what it stores and the audit event that says why. The connected tests
 * drive the same use case through DynamoDB Local; these decide each branch in the unit tier.
 */

const AT = '2031-03-04T10:00:00.000Z';
const TENANT = 'ten-1';
const actor: Principal = {
  user_id: 'usr-admin',
  token_id: 'tok-1',
  email: 'admin@example.com',
  display_name: 'Admin',
  platform_roles: [],
  memberships: { [TENANT]: 'owner' },
};

interface Written {
  n: Notification;
  audit: AuditEvent;
  outbox: OutboxEvent | null;
}

function memoryStore(options: { channel?: ChannelState; members?: Record<string, MemberRecipient> } = {}) {
  const written: Written[] = [];
  const members = options.members ?? {};
  const unused = () => Promise.reject(new Error('not used by a draft'));
  const store: NotificationStore = {
    create: async (n, audit, outbox) => {
      written.push({ n, audit, outbox });
      return { ok: true };
    },
    channelState: async () => options.channel ?? 'active',
    isMember: async (_tenant, userId) => userId in members,
    memberRecipient: async (_tenant, userId) => members[userId],
    get: unused,
    list: unused,
    getReviewItem: unused,
    listReviewItems: unused,
    decide: unused,
  };
  return { store, written };
}

const depsOf = (store: NotificationStore) => ({
  notifications: store,
  clock: manualClock(AT),
  allowLoopback: false,
});

const metadataOf = (audit: AuditEvent) =>
  JSON.parse(audit.metadata_json ?? 'null') as Record<string, unknown>;

describe('createNotification', () => {
  it('sends a draft with a recipient to that address, queued with its delivery event, subject null when none is given', async () => {
    const { store, written } = memoryStore();
    const n = await createNotification(depsOf(store), actor, TENANT, {
      channel: 'sms',
      recipient: '+15550100',
      body: 'ship it',
    });
    expect(n).toMatchObject({
      channel: 'sms',
      recipient: '+15550100',
      recipient_user_id: null,
      status: 'queued',
      subject: null,
      category: 'general',
      priority: 'normal',
      queued_at: AT,
      created_by: 'usr-admin',
    });
    expect(written).toHaveLength(1);
    expect(written[0]!.outbox).toMatchObject({
      kind: EVENT_KINDS.notificationDeliveryRequested,
      tenant_id: TENANT,
      idempotency_key: n.idempotency_key,
      occurred_at: AT,
      payload: { notification_id: n.id, channel: 'sms' },
    });
  });

  it("sends a draft to a member at the member's address for the channel", async () => {
    const { store } = memoryStore({
      members: { 'usr-m': { email: 'm@example.com', preferences: null } },
    });
    const n = await createNotification(depsOf(store), actor, TENANT, {
      channel: 'email',
      recipient_user_id: 'usr-m',
      subject: 'Hello',
      body: 'b',
    });
    expect(n).toMatchObject({ recipient: 'm@example.com', recipient_user_id: 'usr-m', status: 'queued' });
  });

  it('blocks a draft to a member without a contact for the channel, storing an empty recipient', async () => {
    const { store, written } = memoryStore({
      members: { 'usr-m': { email: 'm@example.com', preferences: null } },
    });
    await expect(
      createNotification(depsOf(store), actor, TENANT, {
        channel: 'sms',
        recipient_user_id: 'usr-m',
        body: 'b',
      }),
    ).rejects.toMatchObject({ name: expect.stringMatching(/Policy/) });
    expect(written[0]!.n).toMatchObject({ status: 'blocked', recipient: '', policy_reasons: ['no_contact'] });
  });

  it('takes an in_app recipient given by id as a member when they are one, and blocks one who is not', async () => {
    const { store, written } = memoryStore({
      members: { 'usr-m': { email: 'm@example.com', preferences: null } },
    });
    const ok = await createNotification(depsOf(store), actor, TENANT, {
      channel: 'in_app',
      recipient: 'usr-m',
      body: 'b',
    });
    expect(ok.status).toBe('queued');
    await expect(
      createNotification(depsOf(store), actor, TENANT, { channel: 'in_app', recipient: 'usr-x', body: 'b' }),
    ).rejects.toMatchObject({ name: expect.stringMatching(/Policy/) });
    expect(written.at(-1)!.n).toMatchObject({
      status: 'blocked',
      queued_at: null,
      policy_reasons: ['invalid_recipient'],
    });
    expect(written.at(-1)!.outbox).toBeNull();
  });

  it('refuses a digest when the deployment gave it no digest store, storing nothing', async () => {
    const { store, written } = memoryStore();
    await expect(
      createNotification(depsOf(store), actor, TENANT, {
        channel: 'sms',
        recipient: '+15550100',
        body: 'b',
        digest: { key: 'daily', window_minutes: 60 },
      }),
    ).rejects.toThrow('digest requested without a digest store');
    expect(written).toHaveLength(0);
  });
});

describe('draftAudit', () => {
  const clock = manualClock(AT);
  const base = async () => {
    const { store } = memoryStore();
    return createNotification(depsOf(store), actor, TENANT, {
      channel: 'email',
      recipient: 'r@example.com',
      subject: 's',
      body: 'b',
      category: 'accounting',
    });
  };

  it('names the status, the channel and the actor; a queued draft lists its policy reasons', async () => {
    const n = await base();
    const audit = draftAudit(clock, actor, n);
    expect(audit).toMatchObject({
      tenant_id: TENANT,
      event_type: 'notification.queued',
      actor_id: 'usr-admin',
      entity_type: 'notification',
      entity_id: n.id,
      summary: 'email notification queued',
    });
    expect(metadataOf(audit)).toEqual({ channel: 'email', reasons: [] });
    const blocked = { ...n, status: 'blocked' as const, policy_reasons: ['channel_disabled'] };
    expect(metadataOf(draftAudit(clock, actor, blocked))).toEqual({
      channel: 'email',
      reasons: ['channel_disabled'],
    });
  });

  it('has no actor for a draft the system makes', async () => {
    expect(draftAudit(clock, null, await base()).actor_id).toBeNull();
  });

  it("gives a held draft its category, the last step's reason and only the hold's own field", async () => {
    const n = await base();
    const scheduled = withStep(withStep(n, AT, 'suppressed', 'first', {}), AT, 'scheduled', 'quiet_hours', {
      status: 'scheduled',
      deliver_after: '2031-03-04T22:00:00.000Z',
    });
    expect(metadataOf(draftAudit(clock, actor, scheduled))).toEqual({
      channel: 'email',
      category: 'accounting',
      reason: 'quiet_hours',
      deliver_after: '2031-03-04T22:00:00.000Z',
    });
    const duplicate = withStep(n, AT, 'suppressed', 'duplicate', {
      status: 'suppressed',
      duplicate_of: 'ntf-1',
    });
    expect(metadataOf(draftAudit(clock, actor, duplicate))).toEqual({
      channel: 'email',
      category: 'accounting',
      reason: 'duplicate',
      duplicate_of: 'ntf-1',
    });
    const digesting = withStep(n, AT, 'digesting', 'digest', { status: 'digesting', digest_id: 'dig-1' });
    expect(metadataOf(draftAudit(clock, actor, digesting))).toEqual({
      channel: 'email',
      category: 'accounting',
      reason: 'digest',
      digest_id: 'dig-1',
    });
    const suppressed = { ...n, status: 'suppressed' as const };
    expect(metadataOf(draftAudit(clock, actor, suppressed))).toEqual({
      channel: 'email',
      category: 'accounting',
      reason: null,
    });
  });

  it('the delivery event names the notification and its channel under its idempotency key', async () => {
    const n = await base();
    const e = deliveryRequested(clock, n);
    expect(e).toMatchObject({ tenant_id: TENANT, idempotency_key: n.idempotency_key, occurred_at: AT });
    expect(e.payload).toEqual({ notification_id: n.id, channel: 'email' });
  });
});
