import { timerFireDeps } from '#functions/workers/timers';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Db } from '#functions/adapters/dynamo';
import { escalationPolicyStore, memberDirectory } from '#functions/adapters/escalation-policy-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { EscalationPolicyCreate } from '#shared/api/schemas/escalation-policies';
import { createPolicy, updatePolicy } from '#shared/domain/escalation/use-cases';
import { changeExceptionStatus, createException, getException } from '#shared/domain/exceptions/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { type FireDeps, fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { audit, drain, login, membership, principal, tenant } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * Escalation firing on DynamoDB Local with a clock the test moves (docs/api.md, "Escalation
 * policies"): each level notifies its targets through the normal notification path and writes
 * `exception.escalated` in the same transaction, arms the next level, repeats, stops on
 * acknowledgement, re-opens on the acknowledgement timeout, and follows the policy as it stands.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const t = tenant();
const owner = principal('owner-1', { [t.id]: 'owner' });
const managerA = login();
const managerB = login();
const MIN = 60_000;

const exceptionDeps = (clock: Clock) => ({
  exceptions: stores.exceptions,
  policies: escalationPolicyStore(db),
  clock,
});
const fireDeps = (clock: Clock): FireDeps => timerFireDeps(db, clock);

/** A policy of its own exception type, so each test's exceptions pick it. */
const policyFor = (type: string, clock: Clock, over: Record<string, unknown> = {}) =>
  createPolicy(
    { policies: escalationPolicyStore(db), members: memberDirectory(db), clock },
    owner,
    t.id,
    z.parse(EscalationPolicyCreate, {
      name: `Policy for ${type}`,
      priority: 0,
      match: { exception_types: [type] },
      levels: [
        {
          after_minutes: 15,
          notify: [
            { channel: 'email', recipient: 'oncall@example.test' },
            { channel: 'in_app', role: 'manager' },
          ],
        },
        { after_minutes: 30, notify: [{ channel: 'in_app', recipient_user_id: managerB.user.id }] },
      ],
      ...over,
    }),
  );

const raise = (type: string, clock: Clock) =>
  createException(exceptionDeps(clock), owner, t.id, {
    exception_type: type,
    subject_type: 'invoice',
    subject_id: 'INV-9',
    title: 'Payment failed',
    summary: 'The card was declined',
    severity: 'critical',
  });

/** Sweeps at the clock's time and returns this exception's firing, not yet handled. */
const sweepFor = async (clock: ManualClock, exceptionId: string): Promise<OutboxEvent | undefined> => {
  await sweepTimers({ timers: timerStore(db), clock });
  let found: OutboxEvent | undefined;
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === EVENT_KINDS.timerFired && e.payload.subject_id === exceptionId) found = e;
  return found;
};
const handled = new Set<string>();
/** Sweeps and fires this exception's due timer once, as the worker would. */
const tick = async (clock: ManualClock, exceptionId: string) => {
  await sweepTimers({ timers: timerStore(db), clock });
  const outcomes: string[] = [];
  for await (const e of pendingOlderThan(db, '9999')) {
    if (e.kind !== EVENT_KINDS.timerFired || e.payload.subject_id !== exceptionId || handled.has(e.event_id))
      continue;
    handled.add(e.event_id);
    outcomes.push(`${String(e.payload.kind)}:${await fireTimer(fireDeps(clock), e)}`);
  }
  return outcomes;
};
const auditOf = async (id: string) =>
  await drain((cursor) =>
    stores.audit.list(t.id, { entity_type: 'exception', entity_id: id }, { limit: 100, cursor }),
  );
const escalatedOf = async (id: string) =>
  (await auditOf(id))
    .filter((a) => a.event_type === 'exception.escalated')
    .map((a) => JSON.parse(a.metadata_json!) as { level: number; notified: string[]; round?: number })
    .sort((a, b) => a.notified[0]!.localeCompare(b.notified[0]!));
const notificationsFor = async (exceptionId: string) =>
  (await drain((cursor) => notificationStore(db).list(t.id, {}, { limit: 100, cursor }))).filter(
    (n) => JSON.parse(n.metadata_json).exception_id === exceptionId,
  );
const timersOf = async (id: string) =>
  (await timerStore(db).list(t.id, { subject_id: id }, { limit: 10 })).items;

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
  for (const u of [managerA, managerB]) {
    await stores.identity.createUser(u, null);
    await stores.tenants.addMember(membership(t, u, 'manager'), null, audit(t.id));
  }
});

describe('escalation levels', () => {
  it('level 1 notifies each target once in the firing transaction, then level 2, then stops', async () => {
    const clock = manualClock('2040-01-01T08:00:00.000Z');
    await policyFor('lvl.two', clock);
    const e = await raise('lvl.two', clock);
    clock.add(15 * MIN - 1);
    expect(await tick(clock, e.id)).toEqual([]);
    clock.add(1);
    expect(await tick(clock, e.id)).toEqual(['escalation:written']);

    const first = await notificationsFor(e.id);
    expect(first.map((n) => `${n.channel}:${n.recipient}`).sort()).toEqual(
      ['email:oncall@example.test', `in_app:${managerA.user.id}`, `in_app:${managerB.user.id}`].sort(),
    );
    expect(first.every((n) => n.status === 'queued')).toBe(true);
    expect(first.map((n) => [n.category, n.priority])).toEqual(first.map(() => ['exceptions', 'critical']));
    const [level1] = await escalatedOf(e.id);
    expect(level1).toMatchObject({ level: 1 });
    expect(level1!.notified.sort()).toEqual(first.map((n) => n.id).sort());
    const escalated = (await auditOf(e.id)).find((a) => a.event_type === 'exception.escalated')!;
    expect(escalated.actor_id).toBeNull();
    expect((await getException(exceptionDeps(clock), t.id, e.id)).escalation).toEqual({
      policy_id: level1 && JSON.parse(escalated.metadata_json!).policy_id,
      level: 2,
      next_at: '2040-01-01T08:45:00.000Z',
    });
    expect(await timersOf(e.id)).toEqual([expect.objectContaining({ kind: 'escalation', level: 2 })]);

    clock.add(30 * MIN);
    expect(await tick(clock, e.id)).toEqual(['escalation:written']);
    expect((await notificationsFor(e.id)).length).toBe(4);
    expect((await getException(exceptionDeps(clock), t.id, e.id)).escalation).toBeNull();
    expect(await timersOf(e.id)).toEqual([]);
  });

  it('a redelivered firing of a level that fired does nothing', async () => {
    const clock = manualClock('2040-02-01T08:00:00.000Z');
    await policyFor('redelivered', clock);
    const e = await raise('redelivered', clock);
    clock.add(15 * MIN);
    const firing = await sweepFor(clock, e.id);
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('written');
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('stale');
    expect((await notificationsFor(e.id)).length).toBe(3);
    expect(await escalatedOf(e.id)).toHaveLength(1);
  });

  it('repeat: after the last level the levels run again `repeat` times', async () => {
    const clock = manualClock('2040-03-01T08:00:00.000Z');
    await policyFor('repeated', clock, {
      levels: [{ after_minutes: 10, notify: [{ channel: 'email', recipient: 'oncall@example.test' }] }],
      repeat: 2,
    });
    const e = await raise('repeated', clock);
    for (let i = 0; i < 4; i++) {
      clock.add(10 * MIN);
      await tick(clock, e.id);
    }
    const fired = await escalatedOf(e.id);
    expect(fired.map((f) => [f.level, f.round ?? 0]).sort()).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    expect((await getException(exceptionDeps(clock), t.id, e.id)).escalation).toBeNull();
  });

  it('follows the policy as it stands when a level falls due; disabling it stops the escalation', async () => {
    const clock = manualClock('2040-04-01T08:00:00.000Z');
    const policy = await policyFor('changing', clock);
    const e = await raise('changing', clock);
    const changed = await updatePolicy(
      { policies: escalationPolicyStore(db), members: memberDirectory(db), clock },
      owner,
      t.id,
      policy.id,
      {
        version: 1,
        levels: [
          { after_minutes: 5, notify: [{ channel: 'sms', recipient: '+4915112345678' }] },
          { after_minutes: 5, notify: [{ channel: 'sms', recipient: '+4915112345679' }] },
        ],
      },
    );
    clock.add(15 * MIN);
    await tick(clock, e.id);
    expect((await notificationsFor(e.id)).map((n) => n.recipient)).toEqual(['+4915112345678']);
    expect((await getException(exceptionDeps(clock), t.id, e.id)).escalation?.next_at).toBe(
      '2040-04-01T08:20:00.000Z',
    );
    await updatePolicy(
      { policies: escalationPolicyStore(db), members: memberDirectory(db), clock },
      owner,
      t.id,
      policy.id,
      { version: changed.version, enabled: false },
    );
    expect(await timersOf(e.id)).toEqual([]);
    expect((await getException(exceptionDeps(clock), t.id, e.id)).escalation).toBeNull();
  });
});

describe('acknowledgement', () => {
  it('acknowledging stops the escalation: the pending level is cancelled and a stale firing sends nothing', async () => {
    const clock = manualClock('2040-05-01T08:00:00.000Z');
    await policyFor('acked', clock);
    const e = await raise('acked', clock);
    clock.add(15 * MIN);
    const firing = await sweepFor(clock, e.id);
    await changeExceptionStatus(exceptionDeps(clock), owner, t.id, e.id, { status: 'acknowledged' });
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('stale');
    expect(await notificationsFor(e.id)).toEqual([]);
    expect(await escalatedOf(e.id)).toEqual([]);
    expect(await timersOf(e.id)).toEqual([]);
  });

  it('ack timeout: still acknowledged that long, it re-opens as a system transition and escalates from level 1', async () => {
    const clock = manualClock('2040-06-01T08:00:00.000Z');
    const policy = await policyFor('ack.timeout', clock, { ack_timeout_minutes: 60 });
    const e = await raise('ack.timeout', clock);
    clock.add(15 * MIN);
    await tick(clock, e.id);
    clock.add(5 * MIN);
    await changeExceptionStatus(exceptionDeps(clock), owner, t.id, e.id, { status: 'acknowledged' });
    expect(await timersOf(e.id)).toEqual([
      expect.objectContaining({
        kind: 'ack_timeout',
        policy_id: policy.id,
        due_at: '2040-06-01T09:20:00.000Z',
      }),
    ]);
    clock.add(60 * MIN);
    expect(await tick(clock, e.id)).toEqual(['ack_timeout:written']);
    const reopened = await getException(exceptionDeps(clock), t.id, e.id);
    expect(reopened).toMatchObject({
      status: 'open',
      escalation: { policy_id: policy.id, level: 1, next_at: '2040-06-01T09:35:00.000Z' },
    });
    const timedOut = (await auditOf(e.id)).find((a) => a.event_type === 'exception.ack_timed_out');
    expect(timedOut).toMatchObject({ actor_id: null });
    clock.add(15 * MIN);
    expect(await tick(clock, e.id)).toEqual(['escalation:written']);
    expect((await escalatedOf(e.id)).map((f) => f.level)).toEqual([1, 1]);
  });

  it('resolving before the timeout cancels it; a resolved exception never re-opens', async () => {
    const clock = manualClock('2040-07-01T08:00:00.000Z');
    await policyFor('resolved', clock, { ack_timeout_minutes: 30 });
    const e = await raise('resolved', clock);
    await changeExceptionStatus(exceptionDeps(clock), owner, t.id, e.id, { status: 'acknowledged' });
    clock.add(30 * MIN);
    const firing = await sweepFor(clock, e.id);
    await changeExceptionStatus(exceptionDeps(clock), owner, t.id, e.id, { status: 'resolved' });
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('stale');
    expect((await getException(exceptionDeps(clock), t.id, e.id)).status).toBe('resolved');
  });
});
