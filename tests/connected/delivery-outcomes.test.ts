import { beforeAll, describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { type DeliveryDeps, deliver } from '#shared/domain/notifications/delivery';
import type {
  DeliveryStore,
  Notification,
  ProviderConnection,
  SendResult,
} from '#shared/domain/notifications/ports';
import {
  createNotification,
  deliveryRequested,
  notificationIdempotencyKey,
} from '#shared/domain/notifications/use-cases';
import { type Clock, newId } from '#shared/kernel/ids';
import { connectChannel } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { audit, principal } from '#tests/support/fixtures';

/**
 * What each outcome of one delivery leaves behind (docs/api.md section 7), over DynamoDB Local:
 * the answer the worker acts on, the attempt on the notification, the review item an operator
 * sees and the audit event, each with the reason in words. And where a duplicate is stopped:
 * before the claim when the notification already says delivered, at the claim when it does not.
 */

let db: Db;
let store: ReturnType<typeof notificationStore>;
const secrets = localConnectionSecrets(undefined);
const T0 = Date.parse('2031-03-01T10:00:00.000Z');
let nowMs = T0;
const clock: Clock = { now: () => new Date(nowMs) };
const at = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  ({ db } = await freshDb());
  store = notificationStore(db);
});

/** A provider port whose answer is the test's; it counts what it is asked to send. */
const provider = (answer: SendResult = { ok: true }) => {
  const port = {
    sends: 0,
    /** What each send was given: the channel's connection configuration and secret. */
    given: [] as ProviderConnection[],
    async send(_n: Notification, connection: ProviderConnection) {
      port.sends++;
      port.given.push(connection);
      return answer;
    },
  };
  return port;
};

const deps = (port: ReturnType<typeof provider>, over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
  store,
  connections: activeConnectionReader(connectionStore(db), secrets),
  results: connectionResults(db),
  providers: port,
  clock,
  maxAttempts: 5,
  backoff: { baseSeconds: 2, capSeconds: 2 },
  leaseSeconds: 60,
  ...over,
});

/** A telegram notification queued at T0, in a tenant whose channel is connected (with its token), connected without it, or not. */
const queued = async (telegram: 'active' | 'no_secret' | 'unconnected' = 'active') => {
  nowMs = T0;
  const tenantId = `t-${newId().slice(-10)}`;
  if (telegram !== 'unconnected')
    await connectChannel(
      db,
      tenantId,
      'telegram',
      telegram === 'active' ? { secret: { store: secrets, value: { bot_token: '1:x' } } } : {},
    );
  const n = await createNotification(
    { notifications: store, clock, allowLoopback: false },
    principal('op-1'),
    tenantId,
    { channel: 'telegram', recipient: '4242', body: 'Stock is low' },
  );
  return { tenantId, n, event: deliveryRequested(clock, n) };
};

const auditOf = async (tenantId: string, id: string, type: string) =>
  (await auditStore(db).list(tenantId, { entity_type: 'notification', entity_id: id }, { limit: 50 })).items
    .filter((a) => a.event_type === type)
    .map((a) => ({
      actor_id: a.actor_id,
      summary: a.summary,
      metadata: JSON.parse(a.metadata_json!) as unknown,
    }));

describe('each outcome of a delivery', () => {
  it('delivered: latency counts from when it was queued; the attempt and its audit event', async () => {
    const { tenantId, n, event } = await queued();
    nowMs = T0 + 7_000;
    const outcome = await deliver(deps(provider()), event, 1);
    const stored = await store.get(tenantId, n.id);
    expect(outcome).toEqual({ action: 'ack', result: 'delivered', notification: stored, latencyMs: 7_000 });
    expect(stored).toMatchObject({
      status: 'delivered',
      delivered_at: at(T0 + 7_000),
      attempts: [{ attempt: 1, at: at(T0 + 7_000), outcome: 'delivered', reason: null, latency_ms: 0 }],
    });
    expect(await auditOf(tenantId, n.id, 'notification.delivered')).toEqual([
      { actor_id: null, summary: 'telegram notification delivered', metadata: { attempt: 1 } },
    ]);
  });

  it('gated: not connected, or connected without its secret; a review item says which, nothing is sent', async () => {
    for (const [state, reason] of [
      ['unconnected', 'not_connected'],
      ['no_secret', 'not_configured'],
    ] as const) {
      const { tenantId, n, event } = await queued(state);
      const port = provider();
      const outcome = await deliver(deps(port), event, 1);
      const stored = (await store.get(tenantId, n.id))!;
      expect(port.sends).toBe(0);
      expect(outcome).toEqual({ action: 'ack', result: 'gated', notification: stored, reason });
      expect(stored).toMatchObject({
        status: 'gated',
        attempts: [{ attempt: 1, outcome: 'gated', reason, latency_ms: null }],
      });
      expect(await store.getReviewItem(tenantId, stored.review_item_id!)).toMatchObject({
        kind: 'notification',
        status: 'open',
        reason: 'gated',
        detail: `provider gate closed: ${reason}`,
        notification_id: n.id,
        channel: 'telegram',
      });
      expect(await auditOf(tenantId, n.id, 'notification.gated')).toEqual([
        {
          actor_id: null,
          summary: 'telegram gate closed',
          metadata: { reason, review_item_id: stored.review_item_id },
        },
      ]);
    }
  });

  it('a transient failure before the last attempt: retrying, audited with the reason and the receive count', async () => {
    const { tenantId, n, event } = await queued();
    const outcome = await deliver(
      deps(provider({ ok: false, kind: 'transient', reason: 'http_503' })),
      event,
      2,
    );
    expect(outcome).toMatchObject({
      action: 'retry',
      result: 'retrying',
      delaySeconds: 2,
      reason: 'http_503',
    });
    expect((await store.get(tenantId, n.id))?.attempts).toEqual([
      expect.objectContaining({ outcome: 'transient_failure', reason: 'http_503' }),
    ]);
    expect(await auditOf(tenantId, n.id, 'notification.retrying')).toEqual([
      {
        actor_id: null,
        summary: 'telegram attempt failed: http_503',
        metadata: { reason: 'http_503', receive_count: 2 },
      },
    ]);
  });

  it('a permanent failure: dead-lettered at once and acknowledged, the review item says the provider refused', async () => {
    const { tenantId, n, event } = await queued();
    const outcome = await deliver(
      deps(provider({ ok: false, kind: 'permanent', reason: 'http_400' })),
      event,
      1,
    );
    const stored = (await store.get(tenantId, n.id))!;
    expect(outcome).toEqual({
      action: 'ack',
      result: 'permanent_failure',
      notification: stored,
      reason: 'http_400',
    });
    expect(stored).toMatchObject({
      status: 'dead_lettered',
      attempts: [expect.objectContaining({ outcome: 'permanent_failure', reason: 'http_400' })],
    });
    expect(await store.getReviewItem(tenantId, stored.review_item_id!)).toMatchObject({
      reason: 'permanent_failure',
      detail: 'provider refused: http_400',
    });
    expect(await auditOf(tenantId, n.id, 'notification.dead_lettered')).toEqual([
      {
        actor_id: null,
        summary: 'telegram notification dead-lettered: http_400',
        metadata: { reason: 'http_400', permanent: true, review_item_id: stored.review_item_id },
      },
    ]);
  });

  it('a transient failure on the last attempt: dead-lettered for the DLQ; a redriven message that then delivers resolves the review item', async () => {
    const { tenantId, n, event } = await queued();
    const outcome = await deliver(
      deps(provider({ ok: false, kind: 'transient', reason: 'timeout' })),
      event,
      5,
    );
    const stored = (await store.get(tenantId, n.id))!;
    expect(outcome).toEqual({
      action: 'dead_letter',
      result: 'dead_lettered',
      notification: stored,
      reason: 'timeout',
      error: undefined,
    });
    expect(stored.attempts).toEqual([
      expect.objectContaining({ outcome: 'transient_failure', reason: 'timeout' }),
    ]);
    expect(await store.getReviewItem(tenantId, stored.review_item_id!)).toMatchObject({
      status: 'open',
      reason: 'dead_lettered',
      detail: '5 attempts failed, last: timeout',
    });
    expect(await auditOf(tenantId, n.id, 'notification.dead_lettered')).toEqual([
      {
        actor_id: null,
        summary: 'telegram notification dead-lettered: timeout',
        metadata: { reason: 'timeout', permanent: false, review_item_id: stored.review_item_id },
      },
    ]);

    // Redriven from the DLQ: sent again, delivered, and the operator's item closes itself.
    const redriven = provider();
    expect(await deliver(deps(redriven), event, 1)).toMatchObject({ result: 'delivered' });
    expect(redriven.sends).toBe(1);
    expect(await store.getReviewItem(tenantId, stored.review_item_id!)).toMatchObject({ status: 'resolved' });
  });
});

describe('what the send is given', () => {
  it("the connection's configuration and secret; an email connection needs none; in_app needs no connection", async () => {
    const telegram = await queued();
    const port = provider();
    await deliver(deps(port), telegram.event, 1);
    expect(port.given).toEqual([{ config: {}, secret: { bot_token: '1:x' } }]);

    // Email's adapter holds no credential: its connection alone opens the gate.
    nowMs = T0;
    const tenantId = `t-${newId().slice(-10)}`;
    await connectChannel(db, tenantId, 'email', { config: { from_name: 'Acme Ops' } });
    const email = await createNotification(
      { notifications: store, clock, allowLoopback: false },
      principal('op-1'),
      tenantId,
      { channel: 'email', recipient: 'ap@acme.example', subject: 'Stock', body: 'Stock is low' },
    );
    const emailPort = provider();
    expect(await deliver(deps(emailPort), deliveryRequested(clock, email), 1)).toMatchObject({
      result: 'delivered',
    });
    expect(emailPort.given).toEqual([{ config: { from_name: 'Acme Ops' }, secret: undefined }]);

    // in_app never leaves the tenant: no gate, no connection, nothing recorded on one.
    const id = newId();
    const inApp: Notification = {
      ...telegram.n,
      id,
      channel: 'in_app',
      recipient: 'user-1',
      idempotency_key: notificationIdempotencyKey(telegram.tenantId, id),
    };
    await store.create(inApp, audit(telegram.tenantId, 'notification', id), deliveryRequested(clock, inApp));
    const inAppPort = provider();
    expect(await deliver(deps(inAppPort), deliveryRequested(clock, inApp), 1)).toMatchObject({
      result: 'delivered',
    });
    expect(inAppPort.given).toEqual([{ config: {}, secret: undefined }]);
    expect(Object.keys(inAppPort.given[0]!)).toEqual(['config', 'secret']);
  });
});

describe('where a duplicate stops', () => {
  it('before the claim: a missing, delivered or blocked notification is acknowledged and nothing is sent', async () => {
    const port = provider();
    const { event } = await queued();
    expect(await deliver(deps(port), { ...event, payload: { notification_id: 'gone' } }, 1)).toEqual({
      action: 'ack',
      result: 'skipped',
      reason: 'not_found',
    });

    const delivered = await queued();
    await deliver(deps(provider()), delivered.event, 1);
    const done = await store.get(delivered.tenantId, delivered.n.id);
    expect(await deliver(deps(port), delivered.event, 2)).toEqual({
      action: 'ack',
      result: 'duplicate',
      notification: done,
    });

    // Blocked by the policy check: stored under the id it was drafted with, never queued.
    const blocked = await queued();
    const blockedId = newId();
    await expect(
      createNotification(
        { notifications: store, clock, allowLoopback: false },
        principal('op-1'),
        blocked.tenantId,
        { channel: 'sms', recipient: 'not a number', body: 'hi' },
        blockedId,
      ),
    ).rejects.toThrow('blocked');
    const blockedEvent = { ...blocked.event, payload: { notification_id: blockedId, channel: 'sms' } };
    const found = await store.get(blocked.tenantId, blockedId);
    expect(found?.status).toBe('blocked');
    expect(await deliver(deps(port), blockedEvent, 1)).toEqual({
      action: 'ack',
      result: 'skipped',
      notification: found,
      reason: 'blocked',
    });
    expect(port.sends).toBe(0);
  });

  it('at the claim: a delivery that read the notification before another finished delivering it sends nothing', async () => {
    const { tenantId, n, event } = await queued();
    const before = (await store.get(tenantId, n.id))!;
    const first = provider();
    expect(await deliver(deps(first), event, 1)).toMatchObject({ result: 'delivered' });

    // The second receive read the notification while it was still queued; its claim finds the key consumed.
    const stale: DeliveryStore = { ...store, get: async () => before };
    const second = provider();
    expect(await deliver(deps(second, { store: stale }), event, 2)).toEqual({
      action: 'ack',
      result: 'duplicate',
      notification: before,
    });
    expect(first.sends + second.sends).toBe(1);
    expect((await store.get(tenantId, n.id))?.attempts).toHaveLength(1);
  });
});
