import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { type ExportRunDeps, runExport } from '#shared/domain/accounting/export-run';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { delayRetry } from '#functions/adapters/queue';
import { logger, metricsFor } from '#functions/observability';
import { kindHandlers, receiveCountOf, RetryLater } from './queue-worker';

/**
 * The external worker's accounting export kind (docs/api.md section 9.2): one run per message;
 * a retry delays the message (backoff or the target's Retry-After) by its visibility; the last
 * attempt's message goes to the DLQ only after the export was marked failed with a review item.
 */
export function accountingHandlers(deps: ExportRunDeps, sqs: SQSClient, queueUrl: string) {
  const metrics = metricsFor('worker-external');
  const count = (...names: string[]) => {
    for (const metric of names) metrics.addMetric(metric, MetricUnit.Count, 1);
  };

  return kindHandlers({
    [EVENT_KINDS.accountingExportRequested]: async (event, record) => {
      const receiveCount = receiveCountOf(record);
      const outcome = await runExport(
        deps,
        String(event.payload.export_id ?? ''),
        event.tenant_id,
        receiveCount,
      );
      const e = outcome.export;
      const fields = {
        event: LOG_EVENTS.accountingExportRun,
        tenant_id: event.tenant_id,
        export_id: e?.id ?? event.payload.export_id,
        result: outcome.result,
        status: e?.status,
        attempt: e?.attempts.length ?? null,
        receive_count: receiveCount,
        reason: outcome.reason,
      };
      switch (outcome.result) {
        case 'exported':
          count(METRICS.accountingExported);
          logger.info('accounting export exported', fields);
          return;
        case 'duplicate':
        case 'skipped':
          logger.info('accounting export message skipped', fields);
          return;
        case 'gated':
          count(METRICS.accountingExportGated, METRICS.reviewItemOpened);
          logger.warn('accounting export gated', fields);
          return;
        case 'waiting':
          // The provider's daily limit: a timer at the next day's window asks for the run again.
          logger.warn('accounting export waits for the next daily window', fields);
          return;
        case 'retrying':
        case 'busy':
          if (outcome.result === 'retrying') count(METRICS.accountingExportRetried);
          logger.warn('accounting export will be retried', {
            ...fields,
            delay_s: outcome.action === 'retry' ? outcome.delaySeconds : 0,
          });
          await delayRetry(
            sqs,
            queueUrl,
            record.receiptHandle,
            outcome.action === 'retry' ? outcome.delaySeconds : 0,
          );
          throw new RetryLater(outcome.result);
        case 'failed':
        case 'partially_exported':
          count(METRICS.accountingExportFailed, METRICS.reviewItemOpened);
          logger.error('accounting export failed', fields);
          if (outcome.action !== 'dead_letter') return;
          // Visible at once: the next receive exceeds maxReceiveCount and SQS moves it to the DLQ.
          await delayRetry(sqs, queueUrl, record.receiptHandle, 0);
          throw new RetryLater('dead_lettered');
      }
    },
  });
}
