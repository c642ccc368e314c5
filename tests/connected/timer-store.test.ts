import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { armTimer } from '#functions/adapters/timer-arm';
import { taskDueStore, timerStore } from '#functions/adapters/timer-store';
import { createTenant } from '#shared/domain/identity/tenants';
import { createTask, changeTaskStatus } from '#shared/domain/tasks/use-cases';
import type { Timer } from '#shared/domain/timers/ports';
import { timerFired } from '#shared/domain/timers/use-cases';
import { auditEvent } from '#shared/domain/audit';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { systemClock } from '#shared/kernel/ids';
import { TIMER_DUE_SHARDS, timer as timerEntity } from '#shared/table/entities/timer';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';

/**
 * The timer store on DynamoDB Local: the sweeper's read across the due-time shards (bounded by
 * its limit, soonest first per shard, one query per shard), timers read back with only the
 * fields they have, and the `task.overdue` condition on a task in progress.
 */

afterEach(() => vi.restoreAllMocks());

const NOW = '2031-06-01T12:00:00.000Z';
const dueTimer = (i: number, over: Partial<Timer> = {}): Timer => ({
  id: `task_due:k${i}`,
  tenant_id: 'acme',
  kind: 'task_due',
  subject_type: 'task',
  subject_id: `k${i}`,
  due_at: new Date(Date.parse(NOW) - (20 - i) * 60_000).toISOString(),
  ...over,
});

describe("the sweeper's read of due timers", () => {
  it('returns exactly the limit when more are due, soonest first within each shard, none not yet due', async () => {
    const { db } = await freshDb();
    const due = Array.from({ length: 12 }, (_, i) => dueTimer(i));
    for (const t of due) await armTimer(db, t);
    await armTimer(db, dueTimer(99, { due_at: '2031-06-01T12:00:00.001Z' }));
    const shardOf = async (t: Timer) =>
      (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: timerEntity.key(t) }))).Item!
        .gsi3pk as string;
    const shards = new Map<string, string>();
    for (const t of due) shards.set(t.id, await shardOf(t));
    expect(new Set(shards.values()).size).toBeGreaterThan(1);

    const store = timerStore(db);
    const all = await store.dueBy(NOW, 100);
    const byShard = [...due].sort(
      (a, b) => shards.get(a.id)!.localeCompare(shards.get(b.id)!) || a.due_at.localeCompare(b.due_at),
    );
    expect(all).toEqual(byShard);
    // Every bound, including each that a shard fills exactly, reads the first `limit` of them.
    for (let limit = 1; limit <= due.length; limit++)
      expect(await store.dueBy(NOW, limit)).toEqual(byShard.slice(0, limit));
  });

  it('reads each shard once, and no shard after the limit is reached', async () => {
    const { db } = await freshDb();
    const queries = () => {
      const send = vi.spyOn(db.doc, 'send');
      return () => send.mock.calls.filter(([c]) => c instanceof QueryCommand).length;
    };
    let count = queries();
    expect(await timerStore(db).dueBy(NOW, 100)).toEqual([]);
    expect(count()).toBe(TIMER_DUE_SHARDS);
    vi.restoreAllMocks();

    for (let i = 0; i < 8; i++) await armTimer(db, dueTimer(i));
    count = queries();
    expect(await timerStore(db).dueBy(NOW, 1)).toHaveLength(1);
    expect(count()).toBeLessThan(TIMER_DUE_SHARDS);
  });
});

describe('a timer read back', () => {
  it('has only the optional fields it was armed with', async () => {
    const { db } = await freshDb();
    const plain = dueTimer(1);
    const scheduled: Timer = { ...dueTimer(2), id: 'rule_schedule:r2', kind: 'rule_schedule', rule_id: 'r2' };
    const escalation: Timer = {
      ...dueTimer(3),
      id: 'escalation:e3',
      kind: 'escalation',
      policy_id: 'p',
      level: 0,
    };
    for (const t of [plain, scheduled, escalation]) await armTimer(db, t);
    const listed = (await timerStore(db).list('acme', {}, { limit: 10 })).items;
    expect(listed).toStrictEqual([plain, scheduled, escalation]);
    expect(await timerStore(db).dueBy(NOW, 10)).toContainEqual(plain);
    for (const t of await timerStore(db).dueBy(NOW, 10))
      if (t.kind === 'task_due') expect(Object.keys(t).sort()).toEqual(Object.keys(plain).sort());
  });

  it("a list's cursor goes on only in its tenant and filter", async () => {
    const { db } = await freshDb();
    for (let i = 0; i < 3; i++) await armTimer(db, dueTimer(i));
    const store = timerStore(db);
    const first = await store.list('acme', { kind: 'task_due' }, { limit: 2 });
    const cursor = first.next_cursor!;
    const refused = { code: 'invalid_cursor' };
    await expect(store.list('other', { kind: 'task_due' }, { limit: 2, cursor })).rejects.toMatchObject(
      refused,
    );
    await expect(store.list('acme', { kind: 'escalation' }, { limit: 2, cursor })).rejects.toMatchObject(
      refused,
    );
    await expect(store.list('acme', {}, { limit: 2, cursor })).rejects.toMatchObject(refused);
    const rest = await store.list('acme', { kind: 'task_due' }, { limit: 2, cursor });
    expect([...first.items, ...rest.items].map((t) => t.id)).toEqual([
      'task_due:k0',
      'task_due:k1',
      'task_due:k2',
    ]);
  });

  it('is claimed once, at the due time it was read with', async () => {
    const { db } = await freshDb();
    const t = dueTimer(1);
    await armTimer(db, t);
    const store = timerStore(db);
    const clock = { now: () => new Date(NOW) };
    expect(await store.claim({ ...t, due_at: NOW }, timerFired(clock, t))).toBe('gone');
    expect(await store.claim(t, timerFired(clock, t))).toBe('fired');
    expect(await store.claim(t, timerFired(clock, t))).toBe('gone');
    expect(await store.dueBy(NOW, 10)).toEqual([]);
  });
});

describe('the task.overdue record', () => {
  it('is written for a task in progress at its due time, once, and not for a done task', async () => {
    const { db, stores } = await freshDb();
    const admin = principal('admin', {}, true);
    await createTenant({ identity: stores.identity, tenants: stores.tenants, clock: systemClock }, admin, {
      id: 'acme',
      name: 'Acme',
    });
    const clock = { now: () => new Date(NOW) };
    const deps = { tasks: stores.tasks, clock };
    const due = '2031-06-02T00:00:00.000Z';
    const record = async (id: string, dueAt = due) => {
      const audit = auditEvent(clock, {
        tenant_id: 'acme',
        event_type: 'task.overdue',
        actor_id: null,
        entity_type: 'task',
        entity_id: id,
        summary: `due ${dueAt}`,
      });
      return taskDueStore(db).recordOverdue(
        { tenant_id: 'acme', id, due_at: dueAt },
        { ...audit, id: `overdue-${id}-${dueAt}` },
        workflowEventRecorded(clock, 'task.overdue', { tenant_id: 'acme', id }),
      );
    };
    const busy = await createTask(deps, admin, 'acme', { title: 'Busy', due_at: due });
    await changeTaskStatus(deps, admin, 'acme', busy.id, { status: 'in_progress' });
    expect(await record(busy.id, '2031-06-03T00:00:00.000Z')).toBe('stale');
    expect(await record(busy.id)).toBe('written');
    expect(await record(busy.id)).toBe('duplicate');
    const done = await createTask(deps, admin, 'acme', { title: 'Done', due_at: due });
    await changeTaskStatus(deps, admin, 'acme', done.id, { status: 'done' });
    expect(await record(done.id)).toBe('stale');
  });
});
