import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '#shared/domain/audit';
import { fireDigest, fireRelease } from '#shared/domain/notifications/held';
import { digestTimer, releaseTimer, slotOf } from '#shared/domain/notifications/holds';
import type { DigestEntry, DigestStore, Notification } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { heldNotification } from '#tests/support/fixtures';

/**
 * The timer worker's side of held notifications over in-memory ports (docs/api.md sections 7.3
 * and 7.4): a release queues its `scheduled` notification once, a digest's firing closes its
 * slot, queues one message and moves every held notification to `digested`, each with its audit
 * event; a firing that finds nothing to do is stale, one that finds it done a duplicate.
 * tests/connected/notification-holds.test.ts and notification-digest.test.ts run them on the table.
 */

const NOW = '2031-03-02T09:15:00.000Z';
const clock: Clock = { now: () => new Date(NOW) };

const held = (over: Partial<Notification> = {}): Notification =>
  heldNotification({
    body: 'Stock low',
    attempts: [
      {
        attempt: 1,
        at: '2031-03-02T09:00:00.000Z',
        outcome: 'digesting',
        reason: 'digest',
        latency_ms: null,
      },
    ],
    ...over,
  });

/** The notifications and digests as the table keeps them, with what each firing wrote. */
function memory(initial: Notification[]) {
  const notifications = new Map(initial.map((n) => [n.id, n]));
  const slots = new Map<string, string>();
  const audits: AuditEvent[] = [];
  const outbox: OutboxEvent[] = [];
  const digests: DigestStore = {
    slot: async () => undefined,
    open: async () => 'ok',
    join: async () => 'ok',
    async close(_t, slot, digestId) {
      if (slots.get(slot) === digestId) slots.delete(slot);
    },
    async entries(_t, digestId): Promise<DigestEntry[]> {
      return [...notifications.values()]
        .filter((n) => n.digest_id === digestId)
        .map((n) => ({
          notification_id: n.id,
          subject: n.subject,
          body: n.body,
          category: n.category,
          created_at: n.created_at,
        }));
    },
    async createMessage(n, audit, event) {
      if (notifications.has(n.id)) return false;
      notifications.set(n.id, n);
      audits.push(audit);
      outbox.push(event);
      return true;
    },
    async moveHeld(n, expected, audit, event) {
      if (notifications.get(n.id)?.status !== expected) return false;
      notifications.set(n.id, n);
      audits.push(audit);
      if (event) outbox.push(event);
      return true;
    },
  };
  return {
    deps: { notifications: { get: async (_t: string, id: string) => notifications.get(id) }, digests, clock },
    notifications,
    slots,
    audits,
    outbox,
  };
}

describe('a release at the end of the quiet hours', () => {
  const scheduled = held({
    status: 'scheduled',
    digest_key: null,
    digest_id: null,
    deliver_after: '2031-03-02T09:00:00.000Z',
    attempts: [
      {
        attempt: 1,
        at: '2031-03-01T23:00:00.000Z',
        outcome: 'scheduled',
        reason: 'quiet_hours',
        latency_ms: null,
      },
    ],
  });
  const timer = releaseTimer(scheduled, scheduled.deliver_after!);

  it('queues the notification with its step, its audit event and its delivery event, once', async () => {
    const m = memory([scheduled]);
    expect(await fireRelease(m.deps, timer)).toBe('written');
    expect(m.notifications.get('n-1')).toEqual({
      ...scheduled,
      status: 'queued',
      queued_at: NOW,
      updated_at: NOW,
      attempts: [
        ...scheduled.attempts,
        { attempt: 2, at: NOW, outcome: 'released', reason: 'quiet_hours_ended', latency_ms: null },
      ],
    });
    expect(m.audits).toEqual([
      expect.objectContaining({
        event_type: 'notification.released',
        actor_id: null,
        entity_type: 'notification',
        entity_id: 'n-1',
        summary: 'sms notification released',
        metadata_json: JSON.stringify({
          channel: 'sms',
          category: 'tasks',
          deliver_after: '2031-03-02T09:00:00.000Z',
        }),
      }),
    ]);
    expect(m.outbox).toEqual([
      expect.objectContaining({
        kind: EVENT_KINDS.notificationDeliveryRequested,
        tenant_id: 't-1',
        payload: { notification_id: 'n-1', channel: 'sms' },
      }),
    ]);
    // A redelivered firing finds it queued.
    expect(await fireRelease(m.deps, timer)).toBe('stale');
  });

  it('a firing that loses to another between its read and its write is a duplicate, with the same audit id', async () => {
    const a = memory([scheduled]);
    const b = memory([scheduled]);
    expect(await fireRelease(a.deps, timer)).toBe('written');
    expect(await fireRelease(b.deps, timer)).toBe('written');
    // Two firings of one timer write one audit event: its id derives from the firing.
    expect(a.audits[0]!.id).toBe(b.audits[0]!.id);
    const lost = memory([scheduled]);
    lost.deps.digests.moveHeld = async () => false;
    expect(await fireRelease(lost.deps, timer)).toBe('duplicate');
  });

  it('is stale for a notification gone, not scheduled, or scheduled for another time', async () => {
    expect(await fireRelease(memory([]).deps, timer)).toBe('stale');
    expect(await fireRelease(memory([{ ...scheduled, status: 'queued' }]).deps, timer)).toBe('stale');
    const moved = memory([{ ...scheduled, deliver_after: '2031-03-02T10:00:00.000Z' }]);
    expect(await fireRelease(moved.deps, timer)).toBe('stale');
    expect(moved.audits).toEqual([]);
  });
});

describe("a digest's window closing", () => {
  const timer = digestTimer('t-1', 'digest-1', NOW);
  const entries = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      held({
        id: `n-${i + 1}`,
        body: `Stock low on item ${i + 1}`,
        created_at: `2031-03-02T09:00:${String(i % 60).padStart(2, '0')}.000Z`,
      }),
    );

  it('closes the slot, queues one message and moves each held notification to digested, audited', async () => {
    const m = memory(entries(2));
    m.slots.set(slotOf(held(), 'stock'), 'digest-1');
    expect(await fireDigest(m.deps, timer)).toBe('written');
    expect(m.slots.size).toBe(0);
    expect(m.notifications.get('digest-1')).toMatchObject({
      status: 'queued',
      body: '2 notifications:\n- Stock low on item 1\n- Stock low on item 2',
    });
    expect(m.outbox).toEqual([
      expect.objectContaining({ payload: { notification_id: 'digest-1', channel: 'sms' } }),
    ]);
    for (const id of ['n-1', 'n-2'])
      expect(m.notifications.get(id)).toMatchObject({
        status: 'digested',
        updated_at: NOW,
        attempts: [
          expect.anything(),
          { attempt: 2, at: NOW, outcome: 'digested', reason: null, latency_ms: null },
        ],
      });
    expect(m.audits.map((a) => [a.event_type, a.entity_id, a.summary, JSON.parse(a.metadata_json!)])).toEqual(
      [
        [
          'notification.queued',
          'digest-1',
          'sms notification queued',
          { channel: 'sms', category: 'tasks', digest_key: 'stock', count: 2 },
        ],
        [
          'notification.digested',
          'n-1',
          'sms notification digested',
          { channel: 'sms', category: 'tasks', digest_id: 'digest-1' },
        ],
        [
          'notification.digested',
          'n-2',
          'sms notification digested',
          { channel: 'sms', category: 'tasks', digest_id: 'digest-1' },
        ],
      ],
    );
  });

  it('moves every held one however many, but none that left digesting', async () => {
    const many = entries(30);
    many[4] = { ...many[4]!, status: 'digested' };
    const m = memory(many);
    expect(await fireDigest(m.deps, timer)).toBe('written');
    const statuses = many.map((n) => m.notifications.get(n.id)!.status);
    expect(statuses.filter((s) => s === 'digested')).toHaveLength(30);
    expect(m.audits.filter((a) => a.entity_id === 'n-5')).toEqual([]);
  });

  it('a redelivered firing: a duplicate when all is done, written when it finishes the moves', async () => {
    const m = memory(entries(3));
    expect(await fireDigest(m.deps, timer)).toBe('written');
    const audits = m.audits.length;
    expect(await fireDigest(m.deps, timer)).toBe('duplicate');
    expect(m.audits).toHaveLength(audits);

    // The message was written, the moves were not (the firing before stopped between them).
    const half = memory(entries(2));
    await fireDigest({ ...half.deps, digests: { ...half.deps.digests, moveHeld: async () => false } }, timer);
    expect(half.notifications.get('digest-1')).toBeDefined();
    expect(await fireDigest(half.deps, timer)).toBe('written');
    expect(half.notifications.get('n-2')!.status).toBe('digested');
  });

  it('passes over an entry whose notification is gone', async () => {
    const m = memory(entries(2));
    const listed = m.deps.digests.entries;
    m.deps.digests.entries = async (t, id) => [
      ...(await listed(t, id)),
      { notification_id: 'n-gone', subject: null, body: 'expired', category: 'tasks', created_at: NOW },
    ];
    expect(await fireDigest(m.deps, timer)).toBe('written');
    expect(m.notifications.get('n-2')!.status).toBe('digested');
  });

  it('is stale with no entries, its first notification gone, or one with no digest key', async () => {
    expect(await fireDigest(memory([]).deps, timer)).toBe('stale');
    const gone = memory(entries(1));
    gone.deps.notifications.get = async () => undefined;
    expect(await fireDigest(gone.deps, timer)).toBe('stale');
    const keyless = memory([held({ digest_key: null })]);
    expect(await fireDigest(keyless.deps, timer)).toBe('stale');
    expect(keyless.audits).toEqual([]);
  });
});
