import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectionResults } from '#functions/adapters/connection-results';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { digestStore } from '#functions/adapters/notification-holds';
import { notificationStore } from '#functions/adapters/notification-store';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { timerFireDeps } from '#functions/workers/timers';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { deliver } from '#shared/domain/notifications/delivery';
import type { Notification } from '#shared/domain/notifications/ports';
import { createNotification, type NotificationInput } from '#shared/domain/notifications/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { fireTimer, NotYetDueError, sweepTimers } from '#shared/domain/timers/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { preferences } from '#shared/table/entities/preferences';
import { connectChannel } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { audit, drain, login, membership, principal, tenant } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * Held notifications on DynamoDB Local with a clock the test moves (docs/api.md sections 7.3 and
 * 7.4): quiet hours hold an external normal notification and its timer releases it once, through
 * the normal delivery path; a dedupe key suppresses a duplicate inside its window only.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const secrets = localConnectionSecrets(undefined);
const CHAT = '424242';
const actor = principal('op-9');

/** A member with a telegram contact and the tenant's telegram connected, in `zone`. */
const withMember = async (quiet: object | null, zone = 'UTC') => {
  const t = { ...tenant(), timezone: zone };
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
  const u = login();
  await stores.identity.createUser(u, null);
  await stores.tenants.addMember(membership(t, u, 'operator'), null, audit(t.id));
  await connectChannel(db, t.id, 'telegram', {
    secret: { store: secrets, value: { bot_token: `123456:${'b'.repeat(35)}` } },
  });
  await db.doc.send(
    new PutCommand({
      TableName: db.tableName,
      Item: preferences.item(
        { contacts: { telegram: CHAT }, muted: [], quiet_hours: quiet, updated_at: null },
        { tenant_id: t.id, user_id: u.user.id },
      ),
    }),
  );
  return { tenantId: t.id, userId: u.user.id };
};

const api = (clock: Clock) => ({
  notifications: notificationStore(db),
  digests: digestStore(db),
  clock,
  allowLoopback: false,
});
const send = (
  clock: Clock,
  tenantId: string,
  over: Partial<NotificationInput> & { recipient_user_id: string },
) => createNotification(api(clock), actor, tenantId, { channel: 'telegram', body: 'Stock is low', ...over });

/** The provider port of the worker: counts what it is asked to send. */
const provider = () => {
  const port = {
    sends: [] as string[],
    async send(n: Notification) {
      port.sends.push(n.id);
      return { ok: true as const };
    },
  };
  return port;
};
const worker = (clock: Clock, providers: ReturnType<typeof provider>) => ({
  store: notificationStore(db),
  connections: activeConnectionReader(connectionStore(db), secrets),
  results: connectionResults(db),
  providers,
  clock,
  maxAttempts: 5,
  backoff: DELIVERY_BACKOFF,
  leaseSeconds: 60,
});

const pending = async (kind: string, tenantId: string) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === kind && e.tenant_id === tenantId) out.push(e);
  return out;
};
/** Sweeps at the clock's time and fires this tenant's firings (each as often as `times`). */
const tick = async (clock: ManualClock, tenantId: string, seen: Set<string>, times = 1) => {
  await sweepTimers({ timers: timerStore(db), clock });
  const outcomes: string[] = [];
  for (const e of await pending(EVENT_KINDS.timerFired, tenantId)) {
    if (seen.has(e.event_id)) continue;
    seen.add(e.event_id);
    // Redelivered firings racing each other: the held status decides, one acts.
    const fired = Array.from({ length: times }, () => fireTimer(timerFireDeps(db, clock), e));
    outcomes.push(...(await Promise.all(fired)));
  }
  return outcomes;
};
const get = (tenantId: string, id: string) => notificationStore(db).get(tenantId, id);
const auditTypes = async (tenantId: string, id: string) =>
  (
    await drain((cursor) =>
      stores.audit.list(tenantId, { entity_type: 'notification', entity_id: id }, { limit: 100, cursor }),
    )
  )
    .map((a) => a.event_type)
    .sort();

describe('quiet hours', () => {
  it('hold a normal telegram notification until the window ends, then deliver it exactly once', async () => {
    // 22:00-07:00 in Berlin (UTC+1 in winter): 23:30 local is 22:30Z, the end 06:00Z next day.
    const clock = manualClock('2031-01-14T22:30:00.000Z');
    const m = await withMember({ start: '22:00', end: '07:00', timezone: 'Europe/Berlin' });
    const n = await send(clock, m.tenantId, { recipient_user_id: m.userId });
    expect(n).toMatchObject({
      status: 'scheduled',
      deliver_after: '2031-01-15T06:00:00.000Z',
      queued_at: null,
    });
    expect(n.attempts).toEqual([expect.objectContaining({ outcome: 'scheduled', reason: 'quiet_hours' })]);
    expect(await pending(EVENT_KINDS.notificationDeliveryRequested, m.tenantId)).toEqual([]);

    const seen = new Set<string>();
    clock.set('2031-01-15T05:59:59.000Z');
    expect(await tick(clock, m.tenantId, seen)).toEqual([]);
    expect((await get(m.tenantId, n.id))?.status).toBe('scheduled');

    clock.set('2031-01-15T06:00:00.000Z');
    // Of three deliveries of the firing, one releases it; the others write nothing.
    const outcomes = await tick(clock, m.tenantId, seen, 3);
    expect(outcomes.filter((o) => o === 'written')).toHaveLength(1);
    expect(outcomes).toHaveLength(3);
    const requested = await pending(EVENT_KINDS.notificationDeliveryRequested, m.tenantId);
    expect(requested).toHaveLength(1);
    const providers = provider();
    await deliver(worker(clock, providers), requested[0]!, 1);
    await deliver(worker(clock, providers), requested[0]!, 2);
    expect(providers.sends).toEqual([n.id]);
    const done = await get(m.tenantId, n.id);
    expect(done?.status).toBe('delivered');
    expect(done?.attempts.map((a) => a.outcome)).toEqual(['scheduled', 'released', 'delivered']);
    expect(await auditTypes(m.tenantId, n.id)).toEqual([
      'notification.delivered',
      'notification.released',
      'notification.scheduled',
    ]);
  });

  it('a firing that reaches the worker early acts on nothing (retried until due)', async () => {
    const clock = manualClock('2031-01-14T22:30:00.000Z');
    const m = await withMember({ start: '22:00', end: '07:00', timezone: 'Europe/Berlin' });
    const n = await send(clock, m.tenantId, { recipient_user_id: m.userId });
    const timer = { ...(await timerStore(db).list(m.tenantId, {}, { limit: 10 })).items[0]! };
    expect(timer).toMatchObject({ kind: 'notification_release', subject_id: n.id, due_at: n.deliver_after });
    const early = {
      event_id: 'e',
      kind: EVENT_KINDS.timerFired,
      tenant_id: m.tenantId,
      idempotency_key: 'k',
      occurred_at: '',
      payload: { ...timer },
    };
    await expect(fireTimer(timerFireDeps(db, clock), early)).rejects.toBeInstanceOf(NotYetDueError);
    expect((await get(m.tenantId, n.id))?.status).toBe('scheduled');
  });

  it('critical and in_app go at once; outside the window, at once; the tenant zone when the member has none', async () => {
    // 14:30Z is 23:30 in Tokyo (the tenant's zone), outside 22:00-07:00 in UTC.
    const clock = manualClock('2031-01-14T14:30:00.000Z');
    const m = await withMember({ start: '22:00', end: '07:00' }, 'Asia/Tokyo');
    expect(
      (await send(clock, m.tenantId, { recipient_user_id: m.userId, priority: 'critical' })).status,
    ).toBe('queued');
    expect((await send(clock, m.tenantId, { recipient_user_id: m.userId, channel: 'in_app' })).status).toBe(
      'queued',
    );
    const held = await send(clock, m.tenantId, { recipient_user_id: m.userId, category: 'security' });
    expect(held).toMatchObject({ status: 'scheduled', deliver_after: '2031-01-14T22:00:00.000Z' });
    clock.set('2031-01-14T22:00:00.000Z');
    expect((await send(clock, m.tenantId, { recipient_user_id: m.userId })).status).toBe('queued');
  });
});

describe('deduplication', () => {
  it('a duplicate inside the window is suppressed naming the first; outside it is sent', async () => {
    const clock = manualClock('2031-02-01T10:00:00.000Z');
    const m = await withMember(null);
    const dedupe = { recipient_user_id: m.userId, dedupe_key: 'stock:42', dedupe_window_minutes: 30 };
    const first = await send(clock, m.tenantId, dedupe);
    expect(first.status).toBe('queued');
    clock.set('2031-02-01T10:29:59.000Z');
    const dup = await send(clock, m.tenantId, dedupe);
    expect(dup).toMatchObject({ status: 'suppressed', duplicate_of: first.id });
    expect(dup.attempts).toEqual([expect.objectContaining({ outcome: 'suppressed', reason: 'duplicate' })]);
    expect(await auditTypes(m.tenantId, dup.id)).toEqual(['notification.suppressed']);
    // Another channel is another recipient slot.
    expect((await send(clock, m.tenantId, { ...dedupe, channel: 'in_app' })).status).toBe('queued');
    clock.set('2031-02-01T10:30:00.000Z');
    const later = await send(clock, m.tenantId, dedupe);
    expect(later.status).toBe('queued');
    const requested = await pending(EVENT_KINDS.notificationDeliveryRequested, m.tenantId);
    expect(requested.map((e) => e.payload.notification_id).sort()).not.toContain(dup.id);
    expect(requested).toHaveLength(3);
  });

  it('of concurrent duplicates exactly one is sent, the others name it', async () => {
    const clock = manualClock('2031-02-02T10:00:00.000Z');
    const m = await withMember(null);
    const sent = await Promise.all(
      Array.from({ length: 6 }, () =>
        send(clock, m.tenantId, { recipient_user_id: m.userId, dedupe_key: 'race' }),
      ),
    );
    const queued = sent.filter((n) => n.status === 'queued');
    expect(queued).toHaveLength(1);
    expect(sent.filter((n) => n.status === 'suppressed').map((n) => n.duplicate_of)).toEqual(
      Array.from({ length: 5 }, () => queued[0]!.id),
    );
  });
});
