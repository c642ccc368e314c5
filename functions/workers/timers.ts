import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { type FireDeps, fireTimer } from '#shared/domain/timers/use-cases';
import type { Timer } from '#shared/domain/timers/ports';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import type { Db } from '#functions/adapters/dynamo';
import { taskStore } from '#functions/adapters/task-store';
import { documentStore } from '#functions/adapters/document-store';
import { documentDueStore } from '#functions/adapters/document-due-store';
import { ruleScheduleStore } from '#functions/adapters/rule-schedule-store';
import { tenantZones } from '#functions/adapters/tenant-zone';
import { workflowRuleStore } from '#functions/adapters/workflow-rule-store';
import { taskDueStore } from '#functions/adapters/timer-store';
import { escalationFireDeps } from '#functions/adapters/escalation-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { clock } from '#functions/config';
import type { Clock } from '#shared/kernel/ids';
import { logger, metricsFor } from '#functions/observability';
import { kindHandlers } from './queue-worker';

/** What a timer's firing reads and writes; the tests pass the clock they move. */
export const timerFireDeps = (db: Db, at: Clock = clock): FireDeps => ({
  tasks: taskStore(db),
  taskDue: taskDueStore(db),
  documents: documentStore(db),
  documentDue: documentDueStore(db),
  rules: workflowRuleStore(db),
  ruleSchedule: ruleScheduleStore(db),
  zones: tenantZones(db),
  clock: at,
  escalation: escalationFireDeps(db, at),
  webhooks: { messages: webhookMessageStore(db), clock: at },
});

/**
 * The internal worker's timer kind (docs/api.md, "Time"): a claimed timer's firing re-reads its
 * subject and acts once. Errors propagate, so the queue retries and, in the end, dead-letters it.
 */
export function timerHandlers(deps: FireDeps) {
  const metrics = metricsFor('worker-internal');
  return kindHandlers({
    [EVENT_KINDS.timerFired]: async (event) => {
      const outcome = await fireTimer(deps, event);
      const timer = event.payload as unknown as Timer;
      const lag = deps.clock.now().getTime() - Date.parse(timer.due_at);
      if (outcome === 'written') metrics.addMetric(METRICS.timerLag, MetricUnit.Milliseconds, lag);
      logger.info('timer fired', {
        event: LOG_EVENTS.timerFired,
        tenant_id: event.tenant_id,
        timer_id: timer.id,
        kind: timer.kind,
        due_at: timer.due_at,
        lag_ms: lag,
        outcome,
      });
    },
  });
}
