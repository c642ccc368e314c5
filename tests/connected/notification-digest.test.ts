import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { digestStore } from '#functions/adapters/notification-holds';
import { getItem } from '#functions/adapters/records';
import { notificationStore } from '#functions/adapters/notification-store';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { timerFireDeps } from '#functions/workers/timers';
import { DIGEST_LISTED } from '#shared/domain/notifications/digest';
import { slotOf } from '#shared/domain/notifications/holds';
import { createNotification, type NotificationInput } from '#shared/domain/notifications/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { digestEntry } from '#shared/table/entities/digest-entry';
import { notificationHold } from '#shared/table/entities/notification-hold';
import { connectChannel } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { audit, drain, principal, tenant } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * Digests on DynamoDB Local, real conditional writes (docs/api.md section 7.4): concurrent
 * notifications with one digest key are held in ONE digest, which its timer sends as one message
 * listing them when the window closes; each held one ends `digested` with the digest's id.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const actor = principal('op-3');
const TO = '+4915112345678';

const withTenant = async () => {
  const t = tenant();
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
  await connectChannel(db, t.id, 'sms');
  await connectChannel(db, t.id, 'email');
  return t.id;
};
const api = (clock: Clock) => ({
  notifications: notificationStore(db),
  digests: digestStore(db),
  clock,
  allowLoopback: false,
});
const send = (clock: Clock, tenantId: string, i: number, over: Partial<NotificationInput> = {}) =>
  createNotification(api(clock), actor, tenantId, {
    channel: 'sms',
    recipient: TO,
    body: `Stock low on item ${i}`,
    digest: { key: 'stock', window_minutes: 15 },
    ...over,
  });

const pending = async (kind: string, tenantId: string) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === kind && e.tenant_id === tenantId) out.push(e);
  return out;
};
const fireDue = async (clock: ManualClock, tenantId: string, times = 1) => {
  await sweepTimers({ timers: timerStore(db), clock });
  const firings = await pending(EVENT_KINDS.timerFired, tenantId);
  const outcomes = await Promise.all(
    firings.flatMap((e) => Array.from({ length: times }, () => fireTimer(timerFireDeps(db, clock), e))),
  );
  return { firings, outcomes };
};
const all = (tenantId: string) =>
  drain((cursor) => notificationStore(db).list(tenantId, {}, { limit: 100, cursor }));

describe('digest', () => {
  it('N concurrent notifications with one digest key give one digest message listing N', async () => {
    const N = 12;
    const clock = manualClock('2031-03-01T09:00:00.000Z');
    const tenantId = await withTenant();
    const held = await Promise.all(Array.from({ length: N }, (_, i) => send(clock, tenantId, i)));
    const digestIds = new Set(held.map((n) => n.digest_id));
    expect(digestIds.size).toBe(1);
    const [digestId] = [...digestIds];
    expect(held.every((n) => n.status === 'digesting')).toBe(true);
    expect(held[0]!.attempts).toEqual([expect.objectContaining({ outcome: 'digesting' })]);
    expect(await pending(EVENT_KINDS.notificationDeliveryRequested, tenantId)).toEqual([]);
    const timers = (await timerStore(db).list(tenantId, {}, { limit: 10 })).items;
    expect(timers).toEqual([
      expect.objectContaining({
        kind: 'notification_digest',
        subject_id: digestId,
        due_at: '2031-03-01T09:15:00.000Z',
      }),
    ]);

    clock.set('2031-03-01T09:14:59.000Z');
    expect((await fireDue(clock, tenantId)).firings).toEqual([]);
    clock.set('2031-03-01T09:15:00.000Z');
    // The firing delivered twice at once still sends one message.
    const { outcomes } = await fireDue(clock, tenantId, 2);
    expect(outcomes).toContain('written');

    const requested = await pending(EVENT_KINDS.notificationDeliveryRequested, tenantId);
    expect(requested.map((e) => e.payload.notification_id)).toEqual([digestId]);
    const notifications = await all(tenantId);
    const message = notifications.find((n) => n.id === digestId)!;
    expect(message).toMatchObject({ status: 'queued', channel: 'sms', recipient: TO, priority: 'normal' });
    expect(message.body.split('\n')).toHaveLength(N + 1);
    expect(message.body).toMatch(new RegExp(`^${N} notifications:`));
    for (let i = 0; i < N; i++) expect(message.body).toContain(`- Stock low on item ${i}\n`.trimEnd());
    const after = notifications.filter((n) => n.id !== digestId);
    expect(after.map((n) => [n.status, n.digest_id])).toEqual(held.map(() => ['digested', digestId]));
    expect(after[0]!.attempts.map((a) => a.outcome)).toEqual(['digesting', 'digested']);
    const audits = await drain((cursor) =>
      stores.audit.list(tenantId, { entity_type: 'notification' }, { limit: 100, cursor }),
    );
    const count = (type: string) => audits.filter((a) => a.event_type === type).length;
    expect([
      count('notification.digesting'),
      count('notification.digested'),
      count('notification.queued'),
    ]).toEqual([N, N, 1]);
  });

  it('after the window closes the next notification opens a new digest; the list stops at 50', async () => {
    const clock = manualClock('2031-03-02T09:00:00.000Z');
    const tenantId = await withTenant();
    const first = await send(clock, tenantId, 0);
    clock.set('2031-03-02T09:15:00.000Z');
    // Not swept yet: the slot still names the closed digest, which this one must not join.
    const next = await send(clock, tenantId, 1);
    expect(next.digest_id).not.toBe(first.digest_id);
    await fireDue(clock, tenantId);
    expect((await notificationStore(db).get(tenantId, first.digest_id!))?.body).toBe(
      '1 notification:\n- Stock low on item 0',
    );
    expect((await notificationStore(db).get(tenantId, first.id))?.status).toBe('digested');
    expect((await notificationStore(db).get(tenantId, next.id))?.status).toBe('digesting');

    // Email (20,000 characters) lists 50; SMS lists what its 918 characters take.
    const more = DIGEST_LISTED + 3;
    const inApp = { channel: 'email' as const, recipient: 'ops@example.org', subject: 'Stock low' };
    const inAppFirst = await send(clock, tenantId, 100, inApp);
    await Promise.all(Array.from({ length: more - 1 }, (_, i) => send(clock, tenantId, 101 + i, inApp)));
    for (let i = 0; i < more - 1; i++) await send(clock, tenantId, 100 + i);
    clock.set('2031-03-02T09:30:00.000Z');
    await fireDue(clock, tenantId);
    const digest = await notificationStore(db).get(tenantId, inAppFirst.digest_id!);
    expect(digest?.body.split('\n')).toHaveLength(DIGEST_LISTED + 2);
    expect(digest?.body).toMatch(/\nand 3 more$/);
    const sms = (await notificationStore(db).get(tenantId, next.digest_id!))!;
    expect(sms.body.length).toBeLessThanOrEqual(918);
    const listed = sms.body.split('\n').length - 2;
    expect(sms.body).toMatch(new RegExp(`^${more} notifications:[\\s\\S]*\\nand ${more - listed} more$`));
  });

  it('a dedupe key inside a digest suppresses the duplicate; the holds expire as stored; the firing frees the slot', async () => {
    const clock = manualClock('2031-03-03T09:00:00.000Z');
    const tenantId = await withTenant();
    const email = {
      channel: 'email' as const,
      recipient: 'ops@example.org',
      subject: 'Pallet 7 damaged',
      dedupe_key: 'pallet-7',
      dedupe_window_minutes: 30,
    };
    const first = await send(clock, tenantId, 1, email);
    expect(first.status).toBe('digesting');
    const dup = await send(clock, tenantId, 2, email);
    expect(dup).toMatchObject({ status: 'suppressed', duplicate_of: first.id, digest_id: null });

    // TTLs in epoch seconds: the dedupe hold at its window's end, the entry 15 days after the close.
    const hold = await getItem(
      db,
      notificationHold.key({ tenant_id: tenantId, kind: 'DEDUPE', slot: slotOf(first, 'pallet-7') }),
    );
    expect(hold?.ttl).toBe(Date.parse('2031-03-03T09:30:00.000Z') / 1000);
    const entry = await getItem(
      db,
      digestEntry.key({ tenant_id: tenantId, digest_id: first.digest_id!, notification_id: first.id }),
    );
    expect(entry?.ttl).toBe(Date.parse('2031-03-03T09:15:00.000Z') / 1000 + 15 * 24 * 3600);
    expect(await digestStore(db).entries(tenantId, first.digest_id!)).toEqual([
      expect.objectContaining({ notification_id: first.id, subject: 'Pallet 7 damaged' }),
    ]);

    const slot = slotOf(first, 'stock');
    expect(await digestStore(db).slot(tenantId, slot)).toMatchObject({ digest_id: first.digest_id });
    clock.set('2031-03-03T09:15:00.000Z');
    await fireDue(clock, tenantId);
    expect(await digestStore(db).slot(tenantId, slot)).toBeUndefined();
    expect((await notificationStore(db).get(tenantId, first.digest_id!))?.body).toBe(
      '1 notification:\n- Pallet 7 damaged',
    );
  });
});
