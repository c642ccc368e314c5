import { Metrics } from '@aws-lambda-powertools/metrics';
import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerWait } from '#functions/adapters/timer';
import { armTimer, timerDelete } from '#functions/adapters/timer-arm';
import { transact } from '#functions/adapters/transact';
import type { Timer } from '#shared/domain/timers/ports';
import { timerFired, UnfireableTimerError } from '#shared/domain/timers/use-cases';
import { timerStore } from '#functions/adapters/timer-store';
import { createTimerSweep, createTimerSweeper, SWEEP_SPACING_MS } from '#functions/timer-sweeper/sweeper';
import { timerFireDeps, timerHandlers } from '#functions/workers/timers';
import { createTenant } from '#shared/domain/identity/tenants';
import type { OutboxEvent } from '#shared/domain/outbox';
import { createTask, updateTask } from '#shared/domain/tasks/use-cases';
import { type Clock, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { metricsFor } from '#functions/observability';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';
import { captureLogLines } from '#tests/support/logs';

/**
 * What the timer sweeper and the internal worker's timer kind let an operator see, run as the
 * functions run them on DynamoDB Local: the sweep's `TimerFired` count and `timer.swept` line
 * (only when it did something), flushed every sweep; the firing's `TimerLagMs` (only for a
 * written occurrence) and its `timer.fired` line with the outcome.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const T = 'timer-obs';
const actor = principal('operator-1', {}, true);
const record = { messageId: 'm', attributes: {} } as unknown as SQSRecord;
const DUE = '2031-05-01T09:00:00.000Z';
let lagMs = 2500;
const clock: Clock = { now: () => new Date(Date.parse(DUE) + lagMs) };

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  const admin = principal('admin', {}, true);
  await createTenant({ identity: stores.identity, tenants: stores.tenants, clock: systemClock }, admin, {
    id: T,
    name: 'Timer Obs',
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

const observe = () => {
  const metric = vi.spyOn(Metrics.prototype, 'addMetric');
  metric.mockClear();
  // Writes nothing, and empties the store as the real flush does.
  const flushed = vi.spyOn(Metrics.prototype, 'publishStoredMetrics').mockImplementation(function (
    this: Metrics,
  ) {
    this.clearMetrics();
    return this;
  } as never);
  const lines = captureLogLines();
  return {
    metrics: () => metric.mock.calls.map(([name, , value]) => [name, value]),
    // The Metrics object of each call: its group is the dimension the alarms read.
    groups: () => new Set([...metric.mock.contexts, ...flushed.mock.contexts]),
    flushed,
    lines,
  };
};

const createdAt = { now: () => new Date('2031-05-01T08:00:00.000Z') };
const taskDue = (due: string) =>
  createTask({ tasks: stores.tasks, clock: createdAt }, actor, T, { title: 'Call back', due_at: due });
const firingOf = async (taskId: string): Promise<OutboxEvent> => {
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === EVENT_KINDS.timerFired && e.payload.subject_id === taskId) return e;
  throw new Error(`no firing of ${taskId}`);
};

describe('the timer sweep as the sweeper function runs it', () => {
  it('counts and logs what it fired and what was gone, says nothing when idle, and flushes only what fired (an empty flush is a Powertools warning)', async () => {
    const seen = observe();
    const store = timerStore(db);
    let interfere: (() => Promise<unknown>) | undefined;
    // Between the sweep's read and its claim, the task is re-scheduled (another sweep, or a user).
    const timers = {
      ...store,
      dueBy: async (now: string, limit: number) => {
        const due = await store.dueBy(now, limit);
        await interfere?.();
        interfere = undefined;
        return due;
      },
    };
    const sweep = createTimerSweep({ timers, clock });

    expect(await sweep()).toEqual({ fired: 0, gone: 0 });
    expect(seen.metrics()).toEqual([]);
    expect(seen.lines).toEqual([]);
    expect(seen.flushed).not.toHaveBeenCalled();

    await taskDue(DUE);
    expect(await sweep()).toEqual({ fired: 1, gone: 0 });
    expect(seen.metrics()).toEqual([[METRICS.timerFired, 1]]);
    expect(seen.lines).toEqual([
      { level: 'info', message: 'timers swept', event: LOG_EVENTS.timersSwept, fired: 1, gone: 0 },
    ]);
    expect(seen.flushed).toHaveBeenCalledTimes(1);

    const moved = await taskDue(DUE);
    interfere = () =>
      updateTask({ tasks: stores.tasks, clock: createdAt }, actor, T, moved.id, {
        due_at: '2031-05-02T09:00:00Z',
      });
    expect(await sweep()).toEqual({ fired: 0, gone: 1 });
    expect(seen.metrics()).toEqual([[METRICS.timerFired, 1]]);
    expect(seen.lines.slice(1)).toEqual([
      { level: 'info', message: 'timers swept', event: LOG_EVENTS.timersSwept, fired: 0, gone: 1 },
    ]);
    expect(seen.flushed).toHaveBeenCalledTimes(1);
    expect(seen.groups()).toEqual(new Set([metricsFor('timer-sweeper')]));
  });

  it('the scheduled handler waits the spacing on a real timer before its second sweep', async () => {
    vi.useFakeTimers();
    let sweeps = 0;
    const handler = createTimerSweeper(async () => ({ fired: ++sweeps, gone: 0 }));
    const done = handler();
    await vi.advanceTimersByTimeAsync(SWEEP_SPACING_MS - 1);
    expect(sweeps).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await done).toEqual({ fired: 3 });
  });

  it("the paced calls' wait resolves after its time, not before", async () => {
    vi.useFakeTimers();
    let waited = false;
    void timerWait(1_000).then(() => {
      waited = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(waited).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(waited).toBe(true);
  });
});

describe("the internal worker's timer kind", () => {
  it('measures the lag of a written occurrence from its due time and logs each firing with its outcome', async () => {
    const task = await taskDue(DUE);
    await createTimerSweep({ timers: timerStore(db), clock })();
    const firing = await firingOf(task.id);
    const seen = observe();
    const handle = timerHandlers(timerFireDeps(db, clock), db)[EVENT_KINDS.timerFired]!;

    await handle(firing, record);
    lagMs = 4000;
    await handle(firing, record);
    // Only the written occurrence counts its lag; a redelivery is not a late firing.
    expect(seen.metrics()).toEqual([[METRICS.timerLag, 2500]]);
    expect(seen.groups()).toEqual(new Set([metricsFor('worker-internal')]));
    const line = {
      level: 'info',
      message: 'timer fired',
      event: LOG_EVENTS.timerFired,
      tenant_id: T,
      timer_id: `task_due:${task.id}`,
      kind: 'task_due',
      due_at: DUE,
    };
    expect(seen.lines).toEqual([
      { ...line, lag_ms: 2500, outcome: 'written' },
      { ...line, lag_ms: 4000, outcome: 'duplicate' },
    ]);
  });
});

describe('a due timer of a kind this build cannot fire', () => {
  it('stays armed through the sweep (its firing is not lost) and raises the timer-late metric and an error line', async () => {
    const unknown: Timer = {
      id: 'retired_kind:s1',
      tenant_id: T,
      kind: 'retired_kind' as Timer['kind'],
      subject_type: 'task',
      subject_id: 's1',
      due_at: DUE,
    };
    await armTimer(db, unknown);
    const seen = observe();
    lagMs = 300_000;
    await createTimerSweep({ timers: timerStore(db), clock })();
    const left = await timerStore(db).list(T, { kind: 'retired_kind' }, { limit: 10 });
    expect(left.items.map((t) => t.id)).toEqual([unknown.id]);
    expect(seen.metrics()).toEqual([
      [METRICS.timerLag, 300_000],
      [METRICS.timerUnknownKind, 1],
    ]);
    expect(seen.groups()).toEqual(new Set([metricsFor('timer-sweeper')]));
    expect(seen.lines).toEqual([
      expect.objectContaining({
        level: 'error',
        event: LOG_EVENTS.timerUnknownKind,
        count: 1,
        timers: [{ tenant_id: T, id: unknown.id, kind: 'retired_kind' }],
      }),
    ]);
    // A firing of that kind that reached the worker anyway is refused, so the queue keeps it.
    const firing = timerFired(clock, unknown);
    await expect(
      timerHandlers(timerFireDeps(db, clock), db)[EVENT_KINDS.timerFired]!(firing, record),
    ).rejects.toThrow(UnfireableTimerError);
    await transact(db, [timerDelete(T, unknown.id)]);
  });
});
