import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { OutboxEvent } from '#shared/domain/outbox';
import {
  type Firing,
  fireRules,
  resumeRun,
  retryAction,
  type WorkflowRunDeps,
} from '#shared/domain/workflows/runner';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { runRuleReplay } from '#shared/domain/workflows/replays';
import { logger, metricsFor } from '#functions/observability';
import { kindHandlers, receiveCountOf } from './queue-worker';

/**
 * The internal worker's workflow kinds (docs/api.md section 9.1): a recorded change fires the
 * tenant's matching rules; a review decision runs a failed action once more. Errors propagate,
 * so the queue retries the message; the domain turns the last attempt's errors into review items.
 */
export function workflowHandlers(deps: WorkflowRunDeps) {
  const metrics = metricsFor('worker-internal');

  const report = (event: OutboxEvent, firing: Firing) => {
    // One item per failed run (or per action of an item kept from before items were per run).
    if (firing.review_item_id || (!firing.run_id && firing.actions.some((a) => a.result === 'failed')))
      metrics.addMetric(METRICS.reviewItemOpened, MetricUnit.Count, 1);
    for (const outcome of firing.actions) {
      if (outcome.result !== 'failed') continue;
      metrics.addMetric(METRICS.workflowActionFailed, MetricUnit.Count, 1);
      if (outcome.reason === 'action_failed')
        metrics.addMetric(METRICS.workflowActionErrored, MetricUnit.Count, 1);
      logger.warn('workflow rule action failed', {
        event: LOG_EVENTS.workflowActionFailed,
        tenant_id: event.tenant_id,
        rule_id: firing.rule_id,
        event_id: firing.event_id,
        action_index: outcome.index,
        reason: outcome.reason,
        review_item_id: outcome.review_item_id,
        ...(outcome.error ? { error: outcome.error as Error } : {}),
      });
    }
  };

  return kindHandlers({
    [EVENT_KINDS.workflowEventRecorded]: async (event, record) => {
      for (const firing of await fireRules(deps, event, receiveCountOf(record))) {
        metrics.addMetric(METRICS.workflowRuleFired, MetricUnit.Count, 1);
        logger.info('workflow rule fired', {
          event: LOG_EVENTS.workflowRuleFired,
          tenant_id: event.tenant_id,
          rule_id: firing.rule_id,
          event_id: event.event_id,
          event_type: event.payload.event_type,
          actions: firing.actions.map((a) => a.result),
        });
        report(event, firing);
      }
    },
    [EVENT_KINDS.workflowRuleReplayRequested]: async (event) => {
      const replay = await runRuleReplay(deps, event);
      if (replay)
        logger.info('workflow rule replayed', {
          event: LOG_EVENTS.workflowRuleReplayed,
          tenant_id: event.tenant_id,
          rule_id: replay.rule_id,
          replay_id: replay.id,
          replayed: replay.replayed,
          skipped: replay.skipped,
        });
    },
    [EVENT_KINDS.workflowRunResumed]: async (event, record) => {
      const resumed = await resumeRun(deps, event, receiveCountOf(record));
      if (resumed) report(event, resumed);
    },
    [EVENT_KINDS.workflowActionRetryRequested]: async (event, record) => {
      const retried = await retryAction(deps, event, receiveCountOf(record));
      if (retried) report(event, retried);
    },
  });
}
