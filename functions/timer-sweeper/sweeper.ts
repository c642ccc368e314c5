import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { type SweepDeps, sweepTimers } from '#shared/domain/timers/use-cases';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { logger, metricsFor, publishRecorded } from '#functions/observability';

/**
 * Sweeps per scheduled invocation, this far apart: the EventBridge rule runs the sweeper once a
 * minute (its finest rate), and a second sweep 30 s later halves the worst lag, so a timer fires
 * at most about 30 s after its due time plus the relay's second (docs/decisions.md).
 */
export const SWEEPS_PER_INVOCATION = 2;
export const SWEEP_SPACING_MS = 30_000;

/** One sweep, counted and logged: what the local runtime runs after every clock move. */
export function createTimerSweep(deps: SweepDeps) {
  const metrics = metricsFor('timer-sweeper');
  return async () => {
    const { fired, gone, unknown } = await sweepTimers(deps);
    if (fired.length > 0) metrics.addMetric(METRICS.timerFired, MetricUnit.Count, fired.length);
    if (unknown.length > 0) {
      // Its lag grows every sweep it stays armed: past the threshold, timer-late pages.
      const now = deps.clock.now().getTime();
      const lag = Math.max(...unknown.map((t) => now - Date.parse(t.due_at)));
      metrics.addMetric(METRICS.timerLag, MetricUnit.Milliseconds, lag);
      metrics.addMetric(METRICS.timerUnknownKind, MetricUnit.Count, unknown.length);
      logger.error('due timers of an unknown kind left armed', {
        event: LOG_EVENTS.timerUnknownKind,
        timers: unknown.slice(0, 10).map((t) => ({ tenant_id: t.tenant_id, id: t.id, kind: t.kind })),
        count: unknown.length,
      });
    }
    publishRecorded(metrics);
    if (fired.length > 0 || gone > 0)
      logger.info('timers swept', { event: LOG_EVENTS.timersSwept, fired: fired.length, gone });
    return { fired: fired.length, gone };
  };
}

/** The scheduled handler: SWEEPS_PER_INVOCATION sweeps, SWEEP_SPACING_MS apart. */
export function createTimerSweeper(
  sweep: () => Promise<{ fired: number; gone: number }>,
  pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
) {
  return async () => {
    let fired = 0;
    for (let i = 0; i < SWEEPS_PER_INVOCATION; i++) {
      if (i > 0) await pause(SWEEP_SPACING_MS);
      fired += (await sweep()).fired;
    }
    return { fired };
  };
}
