import { afterEach, describe, expect, it, vi } from 'vitest';
import { metricsFor } from '#functions/observability';
import type { Timer, TimerStore } from '#shared/domain/timers/ports';
import { METRICS } from '#shared/kernel/names';
import {
  createTimerSweep,
  createTimerSweeper,
  SWEEP_SPACING_MS,
  SWEEPS_PER_INVOCATION,
} from '#functions/timer-sweeper/sweeper';

describe('the scheduled timer sweeper', () => {
  it('sweeps twice per minute-long invocation, 30 s apart, so a timer waits at most about 30 s for a sweep', async () => {
    const calls: string[] = [];
    const handler = createTimerSweeper(
      async () => {
        calls.push('sweep');
        return { fired: 2, gone: 0 };
      },
      async (ms) => {
        calls.push(`pause ${ms}`);
      },
    );
    expect(await handler()).toEqual({ fired: 4 });
    expect(calls).toEqual(['sweep', `pause ${SWEEP_SPACING_MS}`, 'sweep']);
    expect(SWEEPS_PER_INVOCATION * SWEEP_SPACING_MS).toBe(60_000);
  });
});

describe('one timer sweep', () => {
  const metrics = metricsFor('timer-sweeper');
  const clock = { now: () => new Date('2026-11-27T12:00:00Z') };
  const storeWith = (due: Timer[]): TimerStore => ({
    dueBy: async () => due.splice(0),
    claim: async () => 'fired',
    list: async () => ({ items: [], next_cursor: null }),
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('publishes nothing when nothing fired, so Powertools logs no empty-metrics warning', async () => {
    const flushed = vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => metrics);
    expect(await createTimerSweep({ timers: storeWith([]), clock })()).toEqual({ fired: 0, gone: 0 });
    expect(flushed).not.toHaveBeenCalled();
    expect(metrics.hasStoredMetrics()).toBe(false);
  });

  it('publishes the count of the timers it fired', async () => {
    let published = '';
    vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => {
      published = JSON.stringify(metrics.serializeMetrics());
      metrics.clearMetrics();
      return metrics;
    });
    const timer: Timer = {
      id: 'task_due:t1',
      tenant_id: 'ten_1',
      kind: 'task_due',
      subject_type: 'task',
      subject_id: 't1',
      due_at: '2026-11-27T11:59:00.000Z',
    };
    expect(await createTimerSweep({ timers: storeWith([timer]), clock })()).toEqual({ fired: 1, gone: 0 });
    expect(published).toContain(METRICS.timerFired);
  });
});
