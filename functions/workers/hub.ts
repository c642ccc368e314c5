import { type HubDeps, runDiagnostics } from '#shared/domain/integrations/diagnostics';
import {
  ReconciliationWaits,
  type ReconciliationWorkerDeps,
  runReconciliation,
} from '#shared/domain/integrations/reconciliation';
import { delayRetry } from '#functions/adapters/queue';
import { NotFoundError } from '#shared/kernel/errors';
import { EVENT_KINDS, LOG_EVENTS } from '#shared/kernel/names';
import { logger } from '#functions/observability';
import { kindHandlers, receiveCountOf, RetryLater, type WorkerQueue } from './queue-worker';

/**
 * The internal worker's integration hub kinds (docs/api.md sections 7 and 9.3): a review
 * decision's diagnostics run, and a reconciliation run. Errors propagate, so the queue retries.
 * A reconciliation continuation that comes before the provider's Retry-After is put back on
 * `queue` until then (a visibility change, not a failure); without a queue it is retried as one.
 */
export function hubHandlers(deps: HubDeps & ReconciliationWorkerDeps, queue?: WorkerQueue) {
  return kindHandlers({
    [EVENT_KINDS.integrationDiagnosticsRequested]: async (event) => {
      try {
        const result = await runDiagnostics(deps, null, event.tenant_id, String(event.payload.connection_id));
        logger.info('integration diagnostics run', {
          event: LOG_EVENTS.integrationDiagnostics,
          tenant_id: event.tenant_id,
          connection_id: result.connection_id,
          failed: result.checks.filter((c) => c.status === 'fail').map((c) => c.issue_code),
          health: result.health.state,
        });
      } catch (err) {
        // The connection was deleted since the decision: nothing left to check.
        if (!(err instanceof NotFoundError)) throw err;
      }
    },
    [EVENT_KINDS.reconciliationRunRequested]: async (event, record) => {
      let run;
      try {
        run = await runReconciliation(deps, event, receiveCountOf(record));
      } catch (err) {
        if (!(err instanceof ReconciliationWaits) || !queue) throw err;
        await delayRetry(queue.sqs, queue.queueUrl, record.receiptHandle, err.seconds);
        throw new RetryLater(err.message);
      }
      if (!run) return;
      const log = run.status === 'completed' ? logger.info.bind(logger) : logger.warn.bind(logger);
      log('reconciliation run finished', {
        event:
          run.status === 'completed' ? LOG_EVENTS.reconciliationCompleted : LOG_EVENTS.reconciliationFailed,
        tenant_id: run.tenant_id,
        run_id: run.id,
        connection_id: run.connection_id,
        matched: run.matched,
        mismatched: run.mismatched,
        missing_in_provider: run.missing_in_provider,
        missing_locally: run.missing_locally,
        error: run.error,
      });
    },
  });
}
