import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { ClaimResult, Timer, TimerStore } from '#shared/domain/timers/ports';
import {
  type FireDeps,
  fireTimer,
  UnfireableTimerError,
  NotYetDueError,
  SWEEP_PAGE,
  sweepTimers,
  timerFired,
} from '#shared/domain/timers/use-cases';
import { EVENT_KINDS } from '#shared/kernel/names';

/**
 * The timer use cases over in-memory ports: how a sweep pages and counts, what a firing event
 * carries, and that a `task_due` firing whose task moved on writes nothing and asks the store for
 * nothing (the store's condition is the second line, not the only one). The table-backed paths
 * are in tests/connected/timers.test.ts.
 */

const DUE = '2031-03-03T10:00:00.000Z';
const NOW = '2031-03-03T10:00:05.000Z';
const clock = { now: () => new Date(NOW) };

const timerOf = (n: number, over: Partial<Timer> = {}): Timer => ({
  id: `task_due:t${n}`,
  tenant_id: 'acme',
  kind: 'task_due',
  subject_type: 'task',
  subject_id: `t${n}`,
  due_at: DUE,
  ...over,
});

/**
 * A timer store over a list. `lost` timers are claimed elsewhere first (`gone`); `lagging` ones
 * stay in the due index after a failed claim, as a lagging index would show them.
 */
const fakeTimers = (pending: Timer[], lost = new Set<string>(), lagging = false) => {
  const reads: number[] = [];
  const store: TimerStore = {
    async dueBy(now, limit) {
      const due = pending.filter((t) => t.due_at <= now).slice(0, limit);
      reads.push(due.length);
      return due;
    },
    async claim(t): Promise<ClaimResult> {
      if (lost.has(t.id)) {
        if (!lagging) pending.splice(pending.indexOf(t), 1);
        return 'gone';
      }
      pending.splice(pending.indexOf(t), 1);
      return 'fired';
    },
    list: () => Promise.reject(new Error('not read by a sweep')),
  };
  return { store, reads };
};

describe('a sweep', () => {
  it('claims every due timer across pages, reads again only after a full page, and never a future one', async () => {
    const due = Array.from({ length: 2 * SWEEP_PAGE + 50 }, (_, i) => timerOf(i));
    const future = timerOf(999, { due_at: '2031-03-03T10:00:06.000Z' });
    const { store, reads } = fakeTimers([...due, future]);
    const out = await sweepTimers({ timers: store, clock });
    expect(out).toEqual({ fired: due, gone: 0, unknown: [] });
    // A short page means nothing more is due: no fourth read.
    expect(reads).toEqual([SWEEP_PAGE, SWEEP_PAGE, 50]);
  });

  it('counts timers claimed elsewhere as gone, and the fired ones only as fired', async () => {
    const due = Array.from({ length: 5 }, (_, i) => timerOf(i));
    const { store } = fakeTimers([...due], new Set([due[1]!.id, due[3]!.id]));
    expect(await sweepTimers({ timers: store, clock })).toEqual({
      fired: [due[0], due[2], due[4]],
      gone: 2,
      unknown: [],
    });
  });

  it('stops after a full page of which it claimed none, rather than reading the same page forever', async () => {
    const due = Array.from({ length: SWEEP_PAGE }, (_, i) => timerOf(i));
    const { store, reads } = fakeTimers([...due], new Set(due.map((t) => t.id)), true);
    expect(await sweepTimers({ timers: store, clock })).toEqual({ fired: [], gone: SWEEP_PAGE, unknown: [] });
    expect(reads).toEqual([SWEEP_PAGE]);
  });
});

describe('a firing event', () => {
  it('carries a copy of the timer, for the internal worker, under a key of the timer and its due time', () => {
    const t = timerOf(1);
    const first = timerFired(clock, t);
    const again = timerFired(clock, t);
    expect(first).toMatchObject({
      kind: EVENT_KINDS.timerFired,
      tenant_id: 'acme',
      idempotency_key: `timer:acme:task_due:t1:${DUE}`,
      occurred_at: NOW,
      payload: t,
    });
    expect(first.payload).not.toBe(t);
    expect(again.idempotency_key).toBe(first.idempotency_key);
    expect(again.event_id).not.toBe(first.event_id);
    expect(timerFired(clock, { ...t, due_at: NOW }).idempotency_key).not.toBe(first.idempotency_key);
  });
});

type Written = { task: unknown; audit: AuditEvent; event: OutboxEvent };
const task = (over: Record<string, unknown> = {}) => ({
  id: 't1',
  tenant_id: 'acme',
  title: 'Pay the supplier',
  status: 'open',
  due_at: DUE,
  ...over,
});
const taskDeps = (found: unknown, extra: Partial<FireDeps> = {}) => {
  const written: Written[] = [];
  const deps = {
    tasks: { get: async () => found },
    taskDue: {
      async recordOverdue(t: unknown, audit: AuditEvent, event: OutboxEvent) {
        written.push({ task: t, audit, event });
        return 'written' as const;
      },
    },
    clock,
    ...extra,
  } as unknown as FireDeps;
  return { deps, written };
};
const firing = (t: Timer) => timerFired(clock, t);

describe('a task_due firing', () => {
  it('records the overdue task: its audit event under an id of the occurrence, and the event rules act on', async () => {
    const { deps, written } = taskDeps(task());
    expect(await fireTimer(deps, firing(timerOf(1)))).toBe('written');
    expect(await fireTimer(deps, firing(timerOf(1)))).toBe('written');
    const [{ task: t, audit, event }, second] = written as [Written, Written];
    expect(t).toEqual({ tenant_id: 'acme', id: 't1', due_at: DUE });
    expect(audit).toMatchObject({
      tenant_id: 'acme',
      event_type: 'task.overdue',
      actor_id: null,
      entity_type: 'task',
      entity_id: 't1',
      summary: `due ${DUE}`,
      created_at: NOW,
    });
    expect(JSON.parse(audit.metadata_json!)).toEqual({ due_at: DUE });
    // The same occurrence delivered twice carries the same audit id: the store writes it once.
    expect(second.audit.id).toBe(audit.id);
    expect(event).toMatchObject({ kind: EVENT_KINDS.workflowEventRecorded, tenant_id: 'acme' });
    expect(event.payload).toMatchObject({ event_type: 'task.overdue', entity_id: 't1' });
  });

  it('records a task in progress, and a due time written in another offset for the same instant', async () => {
    const { deps, written } = taskDeps(task({ status: 'in_progress', due_at: '2031-03-03T11:00:00+01:00' }));
    expect(await fireTimer(deps, firing(timerOf(1)))).toBe('written');
    expect(written).toHaveLength(1);
  });

  it.each([
    ['the task was deleted', undefined],
    ['the task is done', task({ status: 'done' })],
    ['the task was cancelled', task({ status: 'cancelled' })],
    ['the task has no due time any more', task({ due_at: null })],
    ['the due time moved', task({ due_at: '2031-03-04T10:00:00.000Z' })],
  ])('is stale, asking the store for nothing, when %s', async (_, found) => {
    const { deps, written } = taskDeps(found);
    expect(await fireTimer(deps, firing(timerOf(1)))).toBe('stale');
    expect(written).toEqual([]);
  });

  it('is never early: a firing before its due time by this clock is retried', async () => {
    const { deps, written } = taskDeps(task());
    const early = firing(timerOf(1, { due_at: '2031-03-03T10:00:05.001Z' }));
    await expect(fireTimer(deps, early)).rejects.toBeInstanceOf(NotYetDueError);
    expect(await fireTimer(deps, firing(timerOf(1, { due_at: NOW })))).toBe('stale');
    expect(written).toEqual([]);
  });
});

describe('a firing of a kind whose dependencies the process lacks', () => {
  const kinds = [
    'escalation',
    'ack_timeout',
    'hub_schedule',
    'oauth_refresh',
    'export_window',
    'notification_release',
    'notification_digest',
    'no_such_kind',
  ] as const;

  it.each(kinds)(
    '%s is refused with an error (the queue keeps the firing), never answered as done',
    async (kind) => {
      const { deps } = taskDeps(task());
      await expect(fireTimer(deps, firing(timerOf(1, { kind: kind as Timer['kind'] })))).rejects.toThrow(
        UnfireableTimerError,
      );
    },
  );

  it('goes to the kind it names, not to another kind whose dependencies are present', async () => {
    // Escalation and held-notification dependencies that fail when touched: a firing of another
    // kind must not reach them.
    const untouchable = (name: string) =>
      new Proxy(
        {},
        {
          get: () => {
            throw new Error(`${name} touched`);
          },
        },
      );
    const seen: string[] = [];
    const { deps } = taskDeps(task(), {
      escalation: untouchable('escalation') as never,
      held: untouchable('held notifications') as never,
      oauthRefresh: async (t) => (seen.push(`oauth ${t.id}`), 'written'),
      exportWindow: async (t) => (seen.push(`export ${t.id}`), 'duplicate'),
    });
    const oauth = timerOf(2, { kind: 'oauth_refresh', id: 'oauth_refresh:c1' });
    const exp = timerOf(3, { kind: 'export_window', id: 'export_window:c1' });
    expect(await fireTimer(deps, firing(oauth))).toBe('written');
    expect(await fireTimer(deps, firing(exp))).toBe('duplicate');
    await expect(fireTimer(deps, firing(timerOf(4, { kind: 'hub_schedule' })))).rejects.toThrow(
      UnfireableTimerError,
    );
    await expect(
      fireTimer(deps, firing(timerOf(5, { kind: 'no_such_kind' as Timer['kind'] }))),
    ).rejects.toThrow(UnfireableTimerError);
    expect(seen).toEqual(['oauth oauth_refresh:c1', 'export export_window:c1']);
  });
});
