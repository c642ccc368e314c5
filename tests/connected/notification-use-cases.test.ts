import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { workflowJobStore } from '#functions/adapters/workflow-job-store';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { deliver } from '#shared/domain/notifications/delivery';
import {
  createNotification,
  decideReviewItem,
  deliveryRequested,
  getNotification,
  type NotificationDeps,
  notificationIdempotencyKey,
} from '#shared/domain/notifications/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { openReviewItem } from '#shared/domain/review';
import { InvalidTransitionError, NotFoundError, PolicyRejectedError } from '#shared/kernel/errors';
import { type Clock, newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { connectChannel } from '#tests/support/connections';
import { audit, login, membership, principal, tenant } from '#tests/support/fixtures';

/**
 * The API's use cases of the notification path (docs/api.md section 7) over the real store: what
 * a queued and a blocked draft store, audit and hand to the outbox, and what each review decision
 * does to the notification, the review item and the outbox, with its refusals.
 */

let db: Db;
let store: ReturnType<typeof notificationStore>;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
  store = notificationStore(db);
});

const NOW = '2031-04-01T12:00:00.000Z';
const clock: Clock = { now: () => new Date(NOW) };
const deps = (): NotificationDeps => ({ notifications: store, clock, allowLoopback: false });
const actor = principal('op-7');

const auditOf = async (tenantId: string, entityType: string, entityId: string) =>
  (await auditStore(db).list(tenantId, { entity_type: entityType, entity_id: entityId }, { limit: 100 }))
    .items;

/** The outbox event the use case handed to the store's transaction (the last call's). */
const handedOutbox = (spy: { mock: { calls: unknown[][] } }, index: number) =>
  spy.mock.calls.at(-1)![index] as OutboxEvent | null;

describe('createNotification', () => {
  it('queued: the record with defaults, its notification.queued audit event and the delivery outbox event', async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    await connectChannel(db, tenantId, 'telegram');
    const create = vi.spyOn(store, 'create');
    try {
      const n = await createNotification(deps(), actor, tenantId, {
        channel: 'telegram',
        recipient: '4242',
        body: 'Stock is low',
      });
      expect(n).toMatchObject({
        status: 'queued',
        subject: null,
        metadata_json: '{}',
        policy_reasons: [],
        created_by: 'op-7',
        created_at: NOW,
        queued_at: NOW,
        delivered_at: null,
        idempotency_key: notificationIdempotencyKey(tenantId, n.id),
      });
      expect(await getNotification(deps(), tenantId, n.id)).toEqual(n);
      const events = await auditOf(tenantId, 'notification', n.id);
      expect(events.map((e) => [e.event_type, e.actor_id, JSON.parse(e.metadata_json ?? '{}')])).toEqual([
        ['notification.queued', 'op-7', { channel: 'telegram', reasons: [] }],
      ]);
      expect(handedOutbox(create, 2)).toMatchObject({
        kind: EVENT_KINDS.notificationDeliveryRequested,
        tenant_id: tenantId,
        idempotency_key: n.idempotency_key,
        occurred_at: NOW,
        payload: { notification_id: n.id, channel: 'telegram' },
      });
    } finally {
      create.mockRestore();
    }
  });

  it('blocked: 422 with the reasons and the record path; stored blocked, audited, no outbox event', async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    const create = vi.spyOn(store, 'create');
    try {
      const error = await createNotification(deps(), actor, tenantId, {
        channel: 'in_app',
        recipient: 'not-a-member',
        subject: 'Hello',
        body: 'Stock is low',
        metadata: { sku: 'A-1' },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PolicyRejectedError);
      const id = (create.mock.calls.at(-1)![0] as { id: string }).id;
      expect(error).toMatchObject({
        status: 422,
        errors: [{ path: 'recipient', code: 'invalid_recipient' }],
        headers: { location: `/tenants/${tenantId}/notifications/${id}` },
      });
      const stored = await getNotification(deps(), tenantId, id);
      expect(stored).toMatchObject({
        status: 'blocked',
        subject: 'Hello',
        metadata_json: JSON.stringify({ sku: 'A-1' }),
        policy_reasons: ['invalid_recipient'],
        queued_at: null,
      });
      expect(handedOutbox(create, 2)).toBeNull();
      const events = await auditOf(tenantId, 'notification', id);
      expect(events.map((e) => [e.event_type, JSON.parse(e.metadata_json ?? '{}')])).toEqual([
        ['notification.blocked', { channel: 'in_app', reasons: ['invalid_recipient'] }],
      ]);
    } finally {
      create.mockRestore();
    }
  });

  it('in_app to a member of the tenant is queued; membership is only looked up for in_app', async () => {
    const t = tenant();
    await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
    const u = login();
    await stores.identity.createUser(u, null);
    await stores.tenants.addMember(membership(t, u, 'operator'), null, audit(t.id));
    const isMember = vi.spyOn(store, 'isMember');
    try {
      const n = await createNotification(deps(), actor, t.id, {
        channel: 'in_app',
        recipient: u.user.id,
        body: 'Your shift starts at 8',
      });
      expect(n.status).toBe('queued');
      expect(isMember).toHaveBeenCalledWith(t.id, u.user.id);
      isMember.mockClear();
      await createNotification(deps(), actor, t.id, {
        channel: 'email',
        recipient: 'ops@example.test',
        subject: 'Shift',
        body: 'Your shift starts at 8',
      }).catch(() => undefined);
      expect(isMember).not.toHaveBeenCalled();
    } finally {
      isMember.mockRestore();
    }
  });

  // The hub refuses these at save (shared/domain/integrations/webhook-target.ts); so does a draft.
  it.each([
    'https://[::ffff:127.0.0.1]/h',
    'https://[::127.0.0.1]/h',
    'https://localhost./h',
    'https://0.0.0.0/h',
    'https://foo.localhost/h',
  ])('a webhook to %s is refused with 422 at create and never queued', async (recipient) => {
    const tenantId = `t-${newId().slice(-10)}`;
    await connectChannel(db, tenantId, 'webhook');
    const error = await createNotification(deps(), actor, tenantId, {
      channel: 'webhook',
      recipient,
      body: 'Stock is low',
    }).catch((e) => e);
    expect(error).toBeInstanceOf(PolicyRejectedError);
    expect((error as PolicyRejectedError).status).toBe(422);
    expect((error as PolicyRejectedError).errors).toEqual([
      expect.objectContaining({ path: 'recipient', code: 'invalid_recipient' }),
    ]);
    const stored = await store.list(tenantId, {}, { limit: 10 });
    expect(stored.items.map((n) => n.status)).toEqual(['blocked']);
  });

  it('an unknown notification is 404', async () => {
    await expect(getNotification(deps(), 't-none', 'no-such-id')).rejects.toThrow(NotFoundError);
  });
});

describe('decideReviewItem', () => {
  /** A telegram notification gated at the worker (channel not connected), and its open review item. */
  const gated = async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    const n = await createNotification(deps(), actor, tenantId, {
      channel: 'telegram',
      recipient: '4242',
      body: 'Stock is low',
    });
    const event = deliveryRequested(clock, n);
    await deliver(
      {
        store,
        connections: activeConnectionReader(connectionStore(db), localConnectionSecrets(undefined)),
        results: connectionResults(db),
        providers: { send: async () => ({ ok: true }) },
        clock,
        maxAttempts: 5,
        backoff: DELIVERY_BACKOFF,
        leaseSeconds: 60,
      },
      event,
      1,
    );
    const current = (await store.get(tenantId, n.id))!;
    expect(current.status).toBe('gated');
    return { tenantId, n: current, reviewId: current.review_item_id! };
  };

  it('retry: the notification is queued again under its key, the item records the decision, audited with the note', async () => {
    const { tenantId, n, reviewId } = await gated();
    const decide = vi.spyOn(store, 'decide');
    try {
      const decided = await decideReviewItem(deps(), principal('mgr-1'), tenantId, reviewId, {
        action: 'retry',
        note: 'connected now',
      });
      expect(decided).toMatchObject({
        status: 'retried',
        decision: 'retry',
        note: 'connected now',
        decided_by: 'mgr-1',
        decided_at: NOW,
      });
      expect(await store.getReviewItem(tenantId, reviewId)).toEqual(decided);
      expect(await store.get(tenantId, n.id)).toMatchObject({ status: 'queued', queued_at: NOW });
      expect(handedOutbox(decide, 4)).toMatchObject({
        kind: EVENT_KINDS.notificationDeliveryRequested,
        idempotency_key: n.idempotency_key,
        payload: { notification_id: n.id },
      });
      const events = await auditOf(tenantId, 'review_item', reviewId);
      expect(events.map((e) => [e.event_type, e.actor_id, JSON.parse(e.metadata_json ?? '{}')])).toEqual([
        ['review_item.decided', 'mgr-1', { action: 'retry', notification_id: n.id, note: 'connected now' }],
      ]);

      // Decided once: a second decision is 409 and changes nothing.
      await expect(
        decideReviewItem(deps(), principal('mgr-2'), tenantId, reviewId, { action: 'discard' }),
      ).rejects.toThrow(InvalidTransitionError);
      expect((await store.getReviewItem(tenantId, reviewId))?.decided_by).toBe('mgr-1');
    } finally {
      decide.mockRestore();
    }
  });

  it('discard: the notification is discarded, keeps its queued_at, no outbox event; the note defaults to null', async () => {
    const { tenantId, n, reviewId } = await gated();
    const decide = vi.spyOn(store, 'decide');
    try {
      const decided = await decideReviewItem(deps(), principal('mgr-1'), tenantId, reviewId, {
        action: 'discard',
      });
      expect(decided).toMatchObject({ status: 'discarded', decision: 'discard', note: null });
      expect(await store.get(tenantId, n.id)).toMatchObject({ status: 'discarded', queued_at: n.queued_at });
      expect(handedOutbox(decide, 4)).toBeNull();
      const [event] = await auditOf(tenantId, 'review_item', reviewId);
      expect(JSON.parse(event!.metadata_json ?? '{}')).toEqual({
        action: 'discard',
        notification_id: n.id,
        note: null,
      });
    } finally {
      decide.mockRestore();
    }
  });

  it('refuses an unknown item (404), and an item whose notification is no longer reviewable (409)', async () => {
    const { tenantId, n, reviewId } = await gated();
    await expect(
      decideReviewItem(deps(), actor, tenantId, 'no-such-item', { action: 'retry' }),
    ).rejects.toThrow(NotFoundError);

    // The notification moved on (queued again by another path): the open item cannot act on it.
    const get = store.get.bind(store);
    const spy = vi.spyOn(store, 'get').mockImplementationOnce(async (t, id) => ({
      ...(await get(t, id))!,
      status: 'delivered',
    }));
    try {
      await expect(decideReviewItem(deps(), actor, tenantId, reviewId, { action: 'retry' })).rejects.toThrow(
        new InvalidTransitionError('A notification that is delivered cannot be retried.'),
      );
    } finally {
      spy.mockRestore();
    }
    expect((await store.getReviewItem(tenantId, reviewId))?.status).toBe('open');
    expect((await store.get(tenantId, n.id))?.status).toBe('gated');

    // Its notification is gone: 404.
    const missing = vi.spyOn(store, 'get').mockResolvedValueOnce(undefined);
    try {
      await expect(decideReviewItem(deps(), actor, tenantId, reviewId, { action: 'retry' })).rejects.toThrow(
        NotFoundError,
      );
    } finally {
      missing.mockRestore();
    }
  });

  it('a decided item is 409 saying how it was decided; an item of another kind with no decider here is 409, not a 500', async () => {
    const { tenantId, reviewId } = await gated();
    await decideReviewItem(deps(), actor, tenantId, reviewId, { action: 'discard' });
    await expect(decideReviewItem(deps(), actor, tenantId, reviewId, { action: 'retry' })).rejects.toThrow(
      new InvalidTransitionError('The review item is already discarded.'),
    );

    const now = new Date().toISOString();
    const other = openReviewItem(
      {
        id: newId(),
        tenant_id: tenantId,
        kind: 'workflow_action',
        subject_id: 'rule-1:event-1:0',
        notification_id: null,
        channel: null,
        reason: 'action_failed',
        detail: 'rule "R", action 1 (create_task): failed',
      },
      now,
    );
    await workflowJobStore(db).openReview(
      other,
      {
        rule_id: 'rule-1',
        rule_name: 'R',
        event_id: 'event-1',
        event_type: 'exception.created',
        action_index: 0,
        action: {
          type: 'create_task',
          title: 'Check',
          assignee_role: null,
          due_at: null,
          subject_type: null,
          subject_id: null,
          missing_fields: [],
        },
      },
      audit(tenantId, 'workflow_rule', 'rule-1'),
    );
    await expect(decideReviewItem(deps(), actor, tenantId, other.id, { action: 'retry' })).rejects.toThrow(
      new InvalidTransitionError('A workflow_action review item cannot be decided here.'),
    );
  });
});
