import { timerFireDeps } from '#functions/workers/timers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { taskDueStore, timerStore } from '#functions/adapters/timer-store';
import { createTenant } from '#shared/domain/identity/tenants';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { TaskDueStore } from '#shared/domain/timers/ports';
import { type FireDeps, fireTimer, NotYetDueError, sweepTimers } from '#shared/domain/timers/use-cases';
import { changeTaskStatus, createTask, updateTask } from '#shared/domain/tasks/use-cases';
import { type Clock, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * The timer mechanism on DynamoDB Local with an injected clock (docs/api.md, "Time"): a task's
 * due timer is armed with the task, claimed once by a sweep when due (never before), and its
 * firing acts once on the task as it stands when the worker reads it.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const T = 'timers-co';
const admin = principal('admin', {}, true);
const actor = principal('operator-1', {}, true);

/** A clock the test moves; it never sleeps. */

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  await createTenant({ identity: stores.identity, tenants: stores.tenants, clock: systemClock }, admin, {
    id: T,
    name: 'Timers',
  });
});

/** Firings in the outbox not yet relayed, of the given task. */
const firingsOf = async (taskId: string): Promise<OutboxEvent[]> => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999')) {
    if (e.kind === EVENT_KINDS.timerFired && e.payload.subject_id === taskId) out.push(e);
  }
  return out;
};
const overdueEvents = async (taskId: string) =>
  (
    await drain((cursor) =>
      stores.audit.list(T, { entity_type: 'task', entity_id: taskId }, { limit: 100, cursor }),
    )
  ).filter((e) => e.event_type === 'task.overdue');
const workflowEventsOf = async (taskId: string) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === EVENT_KINDS.workflowEventRecorded && e.payload.entity_id === taskId) out.push(e);
  return out.filter((e) => e.payload.event_type === 'task.overdue');
};
const timersOf = async (taskId: string) =>
  (await timerStore(db).list(T, { subject_id: taskId }, { limit: 100 })).items;

const fireDeps = (clock: Clock, taskDue: TaskDueStore = taskDueStore(db)): FireDeps => ({
  ...timerFireDeps(db, clock),
  taskDue,
});

/** A task due at `due`, created at `created` by the clock the test moves. */
const taskDue = async (clock: ManualClock, due: string) =>
  createTask({ tasks: stores.tasks, clock }, actor, T, { title: `Due ${due}`, due_at: due });

describe('timers', () => {
  it('a task with due_at arms its timer; the tenant lists it soonest first', async () => {
    const clock = manualClock('2031-01-01T00:00:00.000Z');
    const later = await taskDue(clock, '2031-01-03T00:00:00Z');
    const sooner = await taskDue(clock, '2031-01-02T00:00:00+01:00');
    const listed = (await timerStore(db).list(T, { kind: 'task_due' }, { limit: 100 })).items.filter((t) =>
      [later.id, sooner.id].includes(t.subject_id),
    );
    expect(listed.map((t) => t.subject_id)).toEqual([sooner.id, later.id]);
    expect(listed[0]).toMatchObject({
      id: `task_due:${sooner.id}`,
      kind: 'task_due',
      subject_type: 'task',
      due_at: '2031-01-01T23:00:00.000Z',
    });
  });

  it('due: fires once at its due time, the firing acts once (task.overdue with its rule event)', async () => {
    const clock = manualClock('2032-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2032-01-01T01:00:00Z');
    clock.set('2032-01-01T01:00:00.000Z');
    const swept = await sweepTimers({ timers: timerStore(db), clock });
    expect(swept.fired.map((t) => t.subject_id)).toContain(task.id);
    const [firing, ...more] = await firingsOf(task.id);
    expect(more).toEqual([]);
    expect(await timersOf(task.id)).toEqual([]);
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('written');
    const [overdue] = await overdueEvents(task.id);
    expect(overdue).toMatchObject({ actor_id: null, entity_id: task.id });
    expect(JSON.parse(overdue!.metadata_json!)).toEqual({ due_at: '2032-01-01T01:00:00.000Z' });
    expect(await workflowEventsOf(task.id)).toHaveLength(1);
  });

  it('early: a sweep a millisecond before the due time claims nothing, and a firing that arrives early is retried', async () => {
    const clock = manualClock('2033-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2033-01-01T01:00:00Z');
    clock.set('2033-01-01T00:59:59.999Z');
    const swept = await sweepTimers({ timers: timerStore(db), clock });
    expect(swept.fired.map((t) => t.subject_id)).not.toContain(task.id);
    expect(await timersOf(task.id)).toHaveLength(1);
    // A worker whose clock is behind the sweeper's: it throws (the queue retries), never acts.
    clock.set('2033-01-01T01:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(task.id);
    const behind = manualClock('2033-01-01T00:59:59.000Z');
    await expect(fireTimer(fireDeps(behind), firing!)).rejects.toBeInstanceOf(NotYetDueError);
    expect(await overdueEvents(task.id)).toEqual([]);
  });

  it('late: a timer that fell due while nothing swept fires once on recovery', async () => {
    const clock = manualClock('2034-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2034-01-01T01:00:00Z');
    clock.set('2034-01-08T00:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    await sweepTimers({ timers: timerStore(db), clock });
    const firings = await firingsOf(task.id);
    expect(firings).toHaveLength(1);
    expect(await fireTimer(fireDeps(clock), firings[0]!)).toBe('written');
    expect(await overdueEvents(task.id)).toHaveLength(1);
  });

  it('cancelled: a task done before its due time has no timer, and nothing fires', async () => {
    const clock = manualClock('2035-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2035-01-01T01:00:00Z');
    await changeTaskStatus({ tasks: stores.tasks, clock }, actor, T, task.id, { status: 'done' });
    expect(await timersOf(task.id)).toEqual([]);
    clock.set('2035-01-02T00:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    expect(await firingsOf(task.id)).toEqual([]);
  });

  it('stale: a firing whose task was finished after the claim does nothing', async () => {
    const clock = manualClock('2036-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2036-01-01T01:00:00Z');
    clock.set('2036-01-01T01:00:30.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    await changeTaskStatus({ tasks: stores.tasks, clock }, actor, T, task.id, { status: 'cancelled' });
    const [firing] = await firingsOf(task.id);
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('stale');
    expect(await overdueEvents(task.id)).toEqual([]);
  });

  it('stale: moving due_at later re-arms the timer; the old time passes silently, the new one fires', async () => {
    const clock = manualClock('2037-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2037-01-01T01:00:00Z');
    await updateTask({ tasks: stores.tasks, clock }, actor, T, task.id, { due_at: '2037-01-01T05:00:00Z' });
    clock.set('2037-01-01T02:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    expect(await firingsOf(task.id)).toEqual([]);
    clock.set('2037-01-01T05:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(task.id);
    expect(firing!.payload.due_at).toBe('2037-01-01T05:00:00.000Z');
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('written');
    // Moved later again after it was overdue: overdue once more when that time passes.
    await updateTask({ tasks: stores.tasks, clock }, actor, T, task.id, { due_at: '2037-01-02T00:00:00Z' });
    clock.set('2037-01-02T00:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const second = (await firingsOf(task.id)).find((e) => e.payload.due_at === '2037-01-02T00:00:00.000Z');
    expect(await fireTimer(fireDeps(clock), second!)).toBe('written');
    expect(await overdueEvents(task.id)).toHaveLength(2);
  });

  it('a stale firing of an older due time does nothing even if it arrives after the re-arm', async () => {
    const clock = manualClock('2038-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2038-01-01T01:00:00Z');
    clock.set('2038-01-01T01:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(task.id);
    await updateTask({ tasks: stores.tasks, clock }, actor, T, task.id, { due_at: '2038-02-01T00:00:00Z' });
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('stale');
    expect(await overdueEvents(task.id)).toEqual([]);
  });

  it('duplicate delivery of the firing message writes the occurrence once', async () => {
    const clock = manualClock('2039-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2039-01-01T01:00:00Z');
    clock.set('2039-01-01T01:00:10.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(task.id);
    const outcomes = await Promise.all([
      fireTimer(fireDeps(clock), firing!),
      fireTimer(fireDeps(clock), firing!),
    ]);
    outcomes.push(await fireTimer(fireDeps(clock), firing!));
    expect(outcomes.filter((o) => o === 'written')).toHaveLength(1);
    expect(await overdueEvents(task.id)).toHaveLength(1);
    expect(await workflowEventsOf(task.id)).toHaveLength(1);
  });

  it('crash between firing and its write: the redelivered firing writes it once', async () => {
    const clock = manualClock('2040-01-01T00:00:00.000Z');
    const task = await taskDue(clock, '2040-01-01T01:00:00Z');
    clock.set('2040-01-01T01:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(task.id);
    const real = taskDueStore(db);
    // The worker dies before its write: nothing is written, the message comes back.
    const dies: TaskDueStore = {
      recordOverdue: () => Promise.reject(new Error('worker crashed')),
    };
    await expect(fireTimer(fireDeps(clock, dies), firing!)).rejects.toThrow('worker crashed');
    expect(await overdueEvents(task.id)).toEqual([]);
    // The worker dies after its write but before acknowledging: the message comes back again.
    const diesAfter: TaskDueStore = {
      recordOverdue: async (...args) => {
        await real.recordOverdue(...args);
        throw new Error('worker crashed after the write');
      },
    };
    await expect(fireTimer(fireDeps(clock, diesAfter), firing!)).rejects.toThrow('after the write');
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('duplicate');
    expect(await overdueEvents(task.id)).toHaveLength(1);
  });

  it('racing sweeps claim each due timer once', async () => {
    const clock = manualClock('2041-01-01T00:00:00.000Z');
    const tasks = await Promise.all(
      Array.from({ length: 12 }, (_, i) => taskDue(clock, `2041-01-01T01:00:${String(i).padStart(2, '0')}Z`)),
    );
    clock.set('2041-01-01T02:00:00.000Z');
    const sweeps = await Promise.all([1, 2, 3].map(() => sweepTimers({ timers: timerStore(db), clock })));
    const fired = sweeps
      .flatMap((s) => s.fired.map((t) => t.subject_id))
      .filter((id) => tasks.some((t) => t.id === id));
    expect(fired.sort()).toEqual(tasks.map((t) => t.id).sort());
    for (const t of tasks) expect(await firingsOf(t.id)).toHaveLength(1);
  });
});
