import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import type { Db } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/transact';
import { auditPut } from '#functions/adapters/audit-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { connectChannel } from '#tests/support/connections';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { ActiveConnectionReader } from '#shared/domain/integrations/ports';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { type DeliveryDeps, deliver, PROVIDER_ERROR } from '#shared/domain/notifications/delivery';
import type { Notification, SendResult } from '#shared/domain/notifications/ports';
import {
  createNotification,
  decideReviewItem,
  deliveryRequested,
  listNotifications,
  listReviewItems,
  type NotificationDeps,
} from '#shared/domain/notifications/use-cases';
import type { AuditEvent } from '#shared/domain/audit';
import { InvalidTransitionError, PolicyRejectedError } from '#shared/kernel/errors';
import { newId, systemClock } from '#shared/kernel/ids';
import { consumed } from '#shared/table/entities/consumed';
import { inboxItem } from '#shared/table/entities/inbox-item';
import { outbox } from '#shared/table/entities/outbox';
import { reviewItem } from '#shared/table/entities/review-item';
import type { Key } from '#shared/table/table';
import { freshDb } from '#tests/support/db';
import { audit as auditOf, principal } from '#tests/support/fixtures';

/**
 * The delivery path's guarantees over DynamoDB Local: the worker's use case (`deliver`) with the
 * real store and a provider port the test controls, the API's use cases beside it.
 */

let db: Db;
let store: ReturnType<typeof notificationStore>;
const actor = principal('op-1');

beforeAll(async () => {
  ({ db } = await freshDb());
  store = notificationStore(db);
});

const api = (): NotificationDeps => ({
  notifications: store,
  clock: systemClock,
  allowLoopback: false,
});

const secrets = localConnectionSecrets(undefined);
const BOT_TOKEN = `123456:${'b'.repeat(35)}`;

/**
 * A provider port whose `send` is the test's; it counts the sends it is asked for. It carries
 * the connection reader the worker gets: the real one over the table and the secrets, unless
 * `readSecret` replaces how the secret is read.
 */
const provider = (
  send: (n: Notification) => Promise<SendResult> = async () => ({ ok: true }),
  readSecret?: () => Promise<Record<string, string>>,
) => {
  const real = activeConnectionReader(connectionStore(db), secrets);
  const connections: ActiveConnectionReader = readSecret
    ? {
        async findActiveConnection(tenantId, query) {
          const found = await real.findActiveConnection(tenantId, query);
          return found && { ...found, secret: readSecret };
        },
      }
    : real;
  const port = {
    sends: 0,
    connections,
    async send(n: Notification) {
      port.sends++;
      return send(n);
    },
  };
  return port;
};

const workerDeps = (providers: ReturnType<typeof provider>): DeliveryDeps => ({
  store,
  connections: providers.connections,
  results: connectionResults(db),
  providers,
  clock: systemClock,
  maxAttempts: 5,
  backoff: DELIVERY_BACKOFF,
  leaseSeconds: 60,
});

/** A tenant whose telegram channel is connected, with its bot token (or not connected). */
const tenantWith = async (telegram: 'active' | 'unconnected' = 'active') => {
  const tenantId = `t-${newId().slice(-10)}`;
  if (telegram === 'active')
    await connectChannel(db, tenantId, 'telegram', {
      secret: { store: secrets, value: { bot_token: BOT_TOKEN } },
    });
  return tenantId;
};

/** A queued telegram notification and the outbox event its creation wrote. */
const queued = async (tenantId: string) => {
  const n = await createNotification(api(), actor, tenantId, {
    channel: 'telegram',
    recipient: '4242',
    body: 'Stock is low',
  });
  return { n, event: deliveryRequested(systemClock, n) };
};

const read = async (tenantId: string, id: string) => (await store.get(tenantId, id))!;
const claimOf = async (key: string) =>
  (
    await db.doc.send(
      new GetCommand({ TableName: db.tableName, Key: consumed.key({ idempotency_key: key }) }),
    )
  ).Item;
const exists = async (key: Key) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key }))).Item !== undefined;
const auditTypes = async (tenantId: string, entityType: string, entityId: string) =>
  (
    await auditStore(db).list(tenantId, { entity_type: entityType, entity_id: entityId }, { limit: 100 })
  ).items
    .map((a) => a.event_type)
    .sort();

describe('a throw in the provider path after the claim', () => {
  const faults: [string, () => ReturnType<typeof provider>][] = [
    [
      'the secret read (an SSM error)',
      () =>
        provider(undefined, async () => {
          throw new Error('AccessDeniedException: ssm:GetParameter on arn:aws:ssm:secret/acme');
        }),
    ],
    [
      'the send (a bad signing secret)',
      () =>
        provider(async () => {
          throw new Error('Base64Coder: incorrect characters for decoding whsec_hunter2');
        }),
    ],
    [
      'the send (a bug)',
      () =>
        provider(async (n) => {
          return (n as unknown as { missing: { field: SendResult } }).missing.field;
        }),
    ],
  ];

  for (const [where, port] of faults) {
    it(`in ${where}: a transient attempt, retrying, the claim released, one audit event`, async () => {
      const tenantId = await tenantWith();
      const { n, event } = await queued(tenantId);
      const outcome = await deliver(workerDeps(port()), event, 1);
      expect(outcome).toMatchObject({ action: 'retry', result: 'retrying', reason: PROVIDER_ERROR });
      expect((outcome as { error?: unknown }).error).toBeInstanceOf(Error);
      const stored = await read(tenantId, n.id);
      expect(stored.status).toBe('retrying');
      expect(stored.attempts).toEqual([
        expect.objectContaining({ attempt: 1, outcome: 'transient_failure', reason: PROVIDER_ERROR }),
      ]);
      // The error's message stays in the log: nothing of it in the record or its audit event.
      const audit = await auditStore(db).list(
        tenantId,
        { entity_type: 'notification', entity_id: n.id },
        { limit: 100 },
      );
      expect(JSON.stringify([stored, audit])).not.toMatch(/ssm|arn:|whsec|Base64|missing|TypeError/i);
      expect(await auditTypes(tenantId, 'notification', n.id)).toEqual([
        'notification.queued',
        'notification.retrying',
      ]);
      expect(await claimOf(n.idempotency_key)).toBeUndefined();

      // The next receive claims again and delivers.
      const healthy = provider();
      expect(await deliver(workerDeps(healthy), event, 2)).toMatchObject({ result: 'delivered' });
      expect(healthy.sends).toBe(1);
    });
  }

  it('on the last attempt: dead_lettered, a review item, the claim released', async () => {
    const tenantId = await tenantWith();
    const { n, event } = await queued(tenantId);
    const outcome = await deliver(workerDeps(faults[1]![1]()), event, 5);
    expect(outcome).toMatchObject({ action: 'dead_letter', result: 'dead_lettered', reason: PROVIDER_ERROR });
    const stored = await read(tenantId, n.id);
    expect(stored.status).toBe('dead_lettered');
    const review = await store.getReviewItem(tenantId, stored.review_item_id!);
    expect(review).toMatchObject({ status: 'open', reason: 'dead_lettered', notification_id: n.id });
    expect(review!.detail).not.toMatch(/whsec|Base64/);
    expect(await claimOf(n.idempotency_key)).toBeUndefined();
    expect(await auditTypes(tenantId, 'notification', n.id)).toEqual([
      'notification.dead_lettered',
      'notification.queued',
    ]);
  });
});

describe('exactly-once sending', () => {
  /**
   * A provider that counts sends and holds each inside `send` until released: the test releases
   * it once the other delivery has ended, so the two overlap for certain and nobody waits a fixed
   * time. A second send entering at once (the defect under test) releases both, to be counted.
   */
  const held = () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let inside = 0;
    const port = provider(async () => {
      if (++inside >= 2) release();
      await released;
      return { ok: true };
    });
    return { port, release };
  };

  it('two concurrent deliveries of one event send once: one delivers, the other sends nothing', async () => {
    for (let round = 0; round < 3; round++) {
      const tenantId = await tenantWith();
      const { n, event } = await queued(tenantId);
      const { port, release } = held();
      const both = [deliver(workerDeps(port), event, 1), deliver(workerDeps(port), event, 1)];
      // The one that does not send ends while the other is inside `send`.
      await Promise.race(both);
      release();
      const outcomes = await Promise.all(both);
      expect(port.sends).toBe(1);
      // The loser finds the claim held (busy), or already completed if its claim came after.
      const results = outcomes.map((o) => o.result);
      expect(results.filter((r) => r === 'delivered')).toHaveLength(1);
      expect(['busy', 'duplicate']).toContain(results.find((r) => r !== 'delivered'));
      expect((await read(tenantId, n.id)).status).toBe('delivered');
      expect(await auditTypes(tenantId, 'notification', n.id)).toEqual([
        'notification.delivered',
        'notification.queued',
      ]);
    }
  });

  it('a repeated copy of an event the provider refused sends nothing; a review retry sends again', async () => {
    const tenantId = await tenantWith();
    const { n, event } = await queued(tenantId);
    const refusing = provider(async () => ({ ok: false, kind: 'permanent', reason: 'http_400' }));
    expect(await deliver(workerDeps(refusing), event, 1)).toMatchObject({ result: 'permanent_failure' });
    expect(await deliver(workerDeps(refusing), event, 2)).toMatchObject({
      action: 'ack',
      result: 'skipped',
      reason: 'permanent_failure',
    });
    expect(refusing.sends).toBe(1);
    expect((await read(tenantId, n.id)).attempts).toHaveLength(1);

    const stored = await read(tenantId, n.id);
    await decideReviewItem(api(), actor, tenantId, stored.review_item_id!, { action: 'retry' });
    const healthy = provider();
    expect(await deliver(workerDeps(healthy), event, 1)).toMatchObject({ result: 'delivered' });
    expect(healthy.sends).toBe(1);
  });

  it('a second delivery while the first is delivering retries later and sends nothing', async () => {
    const tenantId = await tenantWith();
    const { n, event } = await queued(tenantId);
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const held = provider(() => {
      entered();
      return new Promise((r) => (release = () => r({ ok: true })));
    });
    const first = deliver(workerDeps(held), event, 1);
    await inside;
    expect((await read(tenantId, n.id)).status).toBe('delivering');

    const second = provider();
    expect(await deliver(workerDeps(second), event, 1)).toEqual({
      action: 'retry',
      result: 'busy',
      delaySeconds: 60,
    });
    expect(second.sends).toBe(0);
    release();
    expect(await first).toMatchObject({ result: 'delivered' });
    expect(held.sends).toBe(1);
    expect((await claimOf(n.idempotency_key))?.state).toBe('done');
  });
});

describe('audit events of the notification path', () => {
  it('every state change writes exactly one audit event of its type', async () => {
    // queued -> retrying -> delivered
    const t1 = await tenantWith();
    const { n: a, event: ea } = await queued(t1);
    expect(await auditTypes(t1, 'notification', a.id)).toEqual(['notification.queued']);
    await deliver(
      workerDeps(provider(async () => ({ ok: false, kind: 'transient', reason: 'http_503' }))),
      ea,
      1,
    );
    expect(await auditTypes(t1, 'notification', a.id)).toEqual([
      'notification.queued',
      'notification.retrying',
    ]);
    await deliver(workerDeps(provider()), ea, 2);
    expect(await auditTypes(t1, 'notification', a.id)).toEqual([
      'notification.delivered',
      'notification.queued',
      'notification.retrying',
    ]);

    // queued -> dead_lettered (permanent)
    const { n: b, event: eb } = await queued(t1);
    await deliver(
      workerDeps(provider(async () => ({ ok: false, kind: 'permanent', reason: 'http_400' }))),
      eb,
      1,
    );
    expect(await auditTypes(t1, 'notification', b.id)).toEqual([
      'notification.dead_lettered',
      'notification.queued',
    ]);

    // queued -> gated -> review decision (retry) -> discard refused
    const t2 = await tenantWith('unconnected');
    const { n: c, event: ec } = await queued(t2);
    expect(await deliver(workerDeps(provider()), ec, 1)).toMatchObject({ result: 'gated' });
    expect(await auditTypes(t2, 'notification', c.id)).toEqual(['notification.gated', 'notification.queued']);
    const reviewId = (await read(t2, c.id)).review_item_id!;
    await decideReviewItem(api(), actor, t2, reviewId, { action: 'discard' });
    expect(await auditTypes(t2, 'review_item', reviewId)).toEqual(['review_item.decided']);
    expect(await auditTypes(t2, 'notification', c.id)).toEqual(['notification.gated', 'notification.queued']);

    // blocked by policy
    await expect(
      createNotification(api(), actor, t2, { channel: 'sms', recipient: 'nope', body: 'hi' }),
    ).rejects.toBeInstanceOf(PolicyRejectedError);
    const blocked = (await listNotifications(api(), t2, { status: 'blocked' }, { limit: 10 })).items[0]!;
    expect(await auditTypes(t2, 'notification', blocked.id)).toEqual(['notification.blocked']);
  });

  /** An audit event whose id is already taken: its Put's condition fails, cancelling its transaction. */
  const collidingAudit = async (tenantId: string): Promise<AuditEvent> => {
    const taken = auditOf(tenantId, 'notification');
    expect((await transact(db, [auditPut(taken)])).ok).toBe(true);
    return { ...taken, event_type: 'notification.tested_collision' };
  };

  it('a cancelled transaction writes nothing: create', async () => {
    const tenantId = await tenantWith();
    const { n } = await queued(tenantId);
    const copy = { ...n, id: newId() };
    const event = deliveryRequested(systemClock, copy);
    await expect(store.create(copy, await collidingAudit(tenantId), event)).rejects.toThrow();
    expect(await store.get(tenantId, copy.id)).toBeUndefined();
    expect(await exists(outbox.key({ event_id: event.event_id }))).toBe(false);
  });

  it('a cancelled transaction writes nothing: delivered (in_app, with its inbox item)', async () => {
    const tenantId = await tenantWith();
    await store.create(
      {
        ...(await queued(tenantId)).n,
        id: 'inapp-1',
        channel: 'in_app',
        recipient: 'user-1',
        idempotency_key: `notification:${tenantId}:inapp-1`,
      },
      auditOf(tenantId, 'notification'),
      null,
    );
    const n = await read(tenantId, 'inapp-1');
    const now = new Date().toISOString();
    expect(await store.claim(n, n.idempotency_key, new Date(Date.now() + 60_000).toISOString(), now)).toBe(
      'claimed',
    );
    const next: Notification = { ...n, status: 'delivered', delivered_at: now, updated_at: now };
    await expect(store.delivered(next, await collidingAudit(tenantId), n.idempotency_key)).rejects.toThrow();
    expect((await read(tenantId, n.id)).status).toBe('delivering');
    expect((await claimOf(n.idempotency_key))?.state).toBe('in_progress');
    expect(
      await exists(inboxItem.key({ tenant_id: tenantId, user_id: 'user-1', notification_id: n.id })),
    ).toBe(false);
  });

  it('a cancelled transaction writes nothing: failed (with its review item)', async () => {
    const tenantId = await tenantWith();
    const { n } = await queued(tenantId);
    const now = new Date().toISOString();
    expect(await store.claim(n, n.idempotency_key, new Date(Date.now() + 60_000).toISOString(), now)).toBe(
      'claimed',
    );
    const review = {
      id: newId(),
      tenant_id: tenantId,
      notification_id: n.id,
      channel: n.channel,
      kind: 'notification' as const,
      subject_id: n.id,
      reason: 'dead_lettered' as const,
      detail: 'x',
      status: 'open' as const,
      decision: null,
      note: null,
      decided_by: null,
      decided_at: null,
      created_at: now,
      updated_at: now,
    };
    const next: Notification = { ...n, status: 'dead_lettered', review_item_id: review.id, updated_at: now };
    await expect(
      store.failed(next, await collidingAudit(tenantId), n.idempotency_key, review),
    ).rejects.toThrow();
    expect((await read(tenantId, n.id)).status).toBe('delivering');
    expect((await claimOf(n.idempotency_key))?.state).toBe('in_progress');
    expect(await exists(reviewItem.key({ tenant_id: tenantId, id: review.id }))).toBe(false);
  });

  it('a cancelled transaction writes nothing: a review decision', async () => {
    const tenantId = await tenantWith('unconnected');
    const { n, event } = await queued(tenantId);
    await deliver(workerDeps(provider()), event, 1);
    const gated = await read(tenantId, n.id);
    const review = (await store.getReviewItem(tenantId, gated.review_item_id!))!;
    const now = new Date().toISOString();
    const retryEvent = deliveryRequested(systemClock, gated);
    expect(
      await store.decide(
        { ...gated, status: 'queued', updated_at: now },
        'gated',
        { ...review, status: 'retried', decision: 'retry', decided_at: now, updated_at: now },
        await collidingAudit(tenantId),
        retryEvent,
      ),
    ).toBe(false);
    expect((await read(tenantId, n.id)).status).toBe('gated');
    expect((await store.getReviewItem(tenantId, review.id))!.status).toBe('open');
    expect(await exists(outbox.key({ event_id: retryEvent.event_id }))).toBe(false);
  });
});

describe('review decisions', () => {
  it('of two concurrent decisions on one item exactly one wins, the other is 409, with one audit event', async () => {
    for (let round = 0; round < 3; round++) {
      const tenantId = await tenantWith('unconnected');
      const { n, event } = await queued(tenantId);
      await deliver(workerDeps(provider()), event, 1);
      const reviewId = (await read(tenantId, n.id)).review_item_id!;
      const results = await Promise.allSettled([
        decideReviewItem(api(), principal('a'), tenantId, reviewId, { action: 'retry' }),
        decideReviewItem(api(), principal('b'), tenantId, reviewId, { action: 'discard' }),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(InvalidTransitionError);
      expect(lost[0]!.reason).toMatchObject({ status: 409 });
      expect(await auditTypes(tenantId, 'review_item', reviewId)).toEqual(['review_item.decided']);
      const decided = (won[0] as PromiseFulfilledResult<{ decision: string }>).value;
      expect((await read(tenantId, n.id)).status).toBe(decided.decision === 'retry' ? 'queued' : 'discarded');
    }
  });
});

describe('list cursors', () => {
  let tenantId: string;
  beforeAll(async () => {
    tenantId = await tenantWith('unconnected');
    for (let i = 0; i < 3; i++) {
      const { event } = await queued(tenantId);
      await deliver(workerDeps(provider()), event, 1); // gated, with an open review item
    }
    await queued(tenantId);
  });

  it('a notifications cursor is refused for another tenant or another filter', async () => {
    const scoped = async (filter: object) => {
      const page = await listNotifications(api(), tenantId, filter, { limit: 1 });
      expect(page.next_cursor).toEqual(expect.any(String));
      return page.next_cursor!;
    };
    const refused = (t: string, filter: object, cursor: string) =>
      expect(listNotifications(api(), t, filter, { limit: 1, cursor })).rejects.toMatchObject({
        code: 'invalid_cursor',
        status: 400,
      });
    const all = await scoped({});
    await refused('another-tenant', {}, all);
    await refused(tenantId, { status: 'gated' }, all);
    await refused(tenantId, { channel: 'telegram' }, all);
    const gated = await scoped({ status: 'gated' });
    await refused(tenantId, { status: 'queued' }, gated);
    await refused(tenantId, { status: 'gated', channel: 'telegram' }, gated);
    await refused(tenantId, {}, gated);
    const telegram = await scoped({ channel: 'telegram' });
    await refused(tenantId, { channel: 'sms' }, telegram);
    await refused(tenantId, { channel: 'telegram', recipient: '4242' }, telegram);
    // The same scope pages on.
    const next = await listNotifications(api(), tenantId, { status: 'gated' }, { limit: 5, cursor: gated });
    expect(next.items).toHaveLength(2);
  });

  it('a review items cursor is refused for another tenant or another status', async () => {
    const page = await listReviewItems(api(), tenantId, { status: 'open' }, { limit: 1 });
    const cursor = page.next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    for (const [t, filter] of [
      ['another-tenant', { status: 'open' }],
      [tenantId, { status: 'retried' }],
      [tenantId, {}],
    ] as const) {
      await expect(listReviewItems(api(), t, filter, { limit: 1, cursor })).rejects.toMatchObject({
        code: 'invalid_cursor',
        status: 400,
      });
    }
    await expect(listNotifications(api(), tenantId, {}, { limit: 1, cursor })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    const next = await listReviewItems(api(), tenantId, { status: 'open' }, { limit: 5, cursor });
    expect(next.items).toHaveLength(2);
  });
});
