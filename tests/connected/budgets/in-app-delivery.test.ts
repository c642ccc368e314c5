import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationName, recordCalls } from '../../../bench/lib/capture';
import { auditStore } from '#functions/adapters/audit-store';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { type DeliveryDeps, deliver } from '#shared/domain/notifications/delivery';
import type { DeliveryStore } from '#shared/domain/notifications/ports';
import { createNotification, deliveryRequested } from '#shared/domain/notifications/use-cases';
import { newId, systemClock } from '#shared/kernel/ids';
import { consumed } from '#shared/table/entities/consumed';
import { inboxItem } from '#shared/table/entities/inbox-item';
import { member } from '#shared/table/entities/member';
import { freshDb, loadItems } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';

/**
 * An in_app notification is delivered in two transactions, the request that created it
 * included: the create (notification, audit event, outbox item) and the worker's one write that
 * claims the message's idempotency key and records `delivered` with its inbox item (issue 28).
 * The guarantees of the claim hold in that one write: into the inbox exactly once, whatever
 * redelivers the message or races it.
 */

let db: Db;
let store: ReturnType<typeof notificationStore>;
const recorder = recordCalls();
const actor = principal('op-1');

beforeAll(async () => {
  ({ db } = await freshDb());
  store = notificationStore(db);
});
afterAll(() => recorder.stop());

const sender = () => {
  const port = {
    sends: 0,
    async send() {
      port.sends++;
      return { ok: true as const };
    },
  };
  return port;
};

const workerDeps = (over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
  store,
  connections: activeConnectionReader(connectionStore(db), localConnectionSecrets(undefined)),
  results: connectionResults(db),
  providers: sender(),
  clock: systemClock,
  maxAttempts: 5,
  backoff: DELIVERY_BACKOFF,
  leaseSeconds: 60,
  ...over,
});

/** A member's in_app notification, created as the API does. */
const created = async () => {
  const tenantId = `t-${newId().slice(-10)}`;
  const userId = `u-${newId().slice(-8)}`;
  await loadItems(db, [{ ...member.key({ tenant_id: tenantId, user_id: userId }) }]);
  const n = await createNotification(
    { notifications: store, clock: systemClock, allowLoopback: false },
    actor,
    tenantId,
    { channel: 'in_app', recipient: userId, subject: 'Stock', body: 'Stock is low' },
  );
  return { n, tenantId, userId, event: deliveryRequested(systemClock, n) };
};

const inboxOf = async (tenantId: string, userId: string) =>
  (
    await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: {
          ':pk': inboxItem.key({ tenant_id: tenantId, user_id: userId, notification_id: 'x' }).pk,
        },
      }),
    )
  ).Items ?? [];

const deliveredAudits = async (tenantId: string, id: string) =>
  (
    await auditStore(db).list(tenantId, { entity_type: 'notification', entity_id: id }, { limit: 50 })
  ).items.filter((a) => a.event_type === 'notification.delivered').length;

const transactions = () =>
  recorder.take().filter((c) => operationName(c.target) === 'TransactWriteItems').length;

describe('an in_app delivery', () => {
  it('costs two transactions, the create included: one to create, one to claim and deliver', async () => {
    recorder.take();
    const { n, tenantId, userId, event } = await created();
    const create = transactions();
    expect(await deliver(workerDeps(), event, 1)).toMatchObject({ result: 'delivered' });
    const worker = transactions();
    expect({ create, worker, total: create + worker }).toEqual({ create: 1, worker: 1, total: 2 });
    expect((await store.get(tenantId, n.id))?.attempts).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'delivered' }),
    ]);
    expect(await inboxOf(tenantId, userId)).toHaveLength(1);
    expect(await deliveredAudits(tenantId, n.id)).toBe(1);
  });

  it('redelivered, even after a stale read of the notification, lands in the inbox once', async () => {
    const { n, tenantId, userId, event } = await created();
    const before = (await store.get(tenantId, n.id))!;
    expect(await deliver(workerDeps(), event, 1)).toMatchObject({ result: 'delivered' });
    // The same message again: the notification says delivered.
    expect(await deliver(workerDeps(), event, 2)).toMatchObject({ result: 'duplicate' });
    // A receive that read it while still queued: its write finds the key consumed and writes nothing.
    const stale: DeliveryStore = { ...store, get: async () => before };
    expect(await deliver(workerDeps({ store: stale }), event, 2)).toEqual({
      action: 'ack',
      result: 'duplicate',
      notification: before,
    });
    expect(await inboxOf(tenantId, userId)).toHaveLength(1);
    expect(await deliveredAudits(tenantId, n.id)).toBe(1);
    expect((await store.get(tenantId, n.id))?.attempts).toHaveLength(1);
  });

  it('two concurrent deliveries of one message: one delivers, the inbox gets one item', async () => {
    for (let round = 0; round < 3; round++) {
      const { n, tenantId, userId, event } = await created();
      const outcomes = await Promise.all([deliver(workerDeps(), event, 1), deliver(workerDeps(), event, 1)]);
      const results = outcomes.map((o) => o.result).sort();
      expect(results).toEqual(['delivered', 'duplicate']);
      expect(await inboxOf(tenantId, userId)).toHaveLength(1);
      expect(await deliveredAudits(tenantId, n.id)).toBe(1);
    }
  });

  it('a claim another worker holds under a live lease: busy, nothing written; once lapsed, taken over', async () => {
    const { n, tenantId, userId, event } = await created();
    const hold = async (leaseMs: number) =>
      db.doc.send(
        new PutCommand({
          TableName: db.tableName,
          Item: consumed.item(
            { state: 'in_progress', lease_until: new Date(Date.now() + leaseMs).toISOString() },
            { idempotency_key: n.idempotency_key },
          ),
        }),
      );
    await hold(60_000);
    expect(await deliver(workerDeps(), event, 1)).toEqual({
      action: 'retry',
      result: 'busy',
      delaySeconds: 60,
    });
    expect((await store.get(tenantId, n.id))?.status).toBe('queued');
    expect(await inboxOf(tenantId, userId)).toHaveLength(0);

    await hold(-1_000);
    expect(await deliver(workerDeps(), event, 2)).toMatchObject({ result: 'delivered' });
    expect(await inboxOf(tenantId, userId)).toHaveLength(1);
  });
});
