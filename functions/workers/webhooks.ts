import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { type DeliveryDeps, deliverMessage } from '#shared/domain/webhooks/delivery';
import { fanOut, type FanOutDeps } from '#shared/domain/webhooks/fan-out';
import type { OutboxEvent } from '#shared/domain/outbox';
import { EVENT_KINDS, METRICS, WEBHOOK_NAMES } from '#shared/kernel/names';
import { delayRetry } from '#functions/adapters/queue';
import { logger, metricsFor } from '#functions/observability';
import { kindHandlers, receiveCountOf, RetryLater } from './queue-worker';

/**
 * The external worker's webhook kind (docs/api.md, "Event subscriptions"): one attempt per queue
 * message; a wait the queue message can carry delays it (its visibility), a longer one or one past
 * the queue's receive limit was armed as a `webhook_retry` timer and the message is done. The log
 * line names the message, its endpoint and the outcome, never a secret, a body or a header.
 */
export function webhookHandlers(deps: DeliveryDeps, sqs: SQSClient, queueUrl: string) {
  const metrics = metricsFor('worker-external');
  return kindHandlers({
    [EVENT_KINDS.webhookDeliveryRequested]: async (event, record) => {
      const outcome = await deliverMessage(deps, event, receiveCountOf(record));
      if (outcome.result === 'delivered') metrics.addMetric(WEBHOOK_NAMES.delivered, MetricUnit.Count, 1);
      if (outcome.result === 'failed') metrics.addMetric(WEBHOOK_NAMES.failed, MetricUnit.Count, 1);
      if (outcome.disabled) {
        metrics.addMetric(WEBHOOK_NAMES.endpointDisabled, MetricUnit.Count, 1);
        metrics.addMetric(METRICS.reviewItemOpened, MetricUnit.Count, 1);
      }
      logger.info('webhook attempt', {
        event: WEBHOOK_NAMES.attemptLog,
        tenant_id: event.tenant_id,
        endpoint_id: event.payload.endpoint_id,
        message_id: outcome.message_id,
        result: outcome.result,
        status_code: outcome.status_code,
        error_code: outcome.error_code,
        delay_s: outcome.delaySeconds,
        disabled: outcome.disabled,
      });
      if (outcome.delaySeconds === undefined) return;
      await delayRetry(sqs, queueUrl, record.receiptHandle, outcome.delaySeconds);
      throw new RetryLater(outcome.result);
    },
  });
}

/** The fan-out beside workflow rules on the internal worker: the same recorded change. */
export function webhookFanOut(deps: FanOutDeps) {
  const metrics = metricsFor('worker-internal');
  return async (event: OutboxEvent) => {
    const written = await fanOut(deps, event);
    if (written === 0) return;
    metrics.addMetric(WEBHOOK_NAMES.messagesFannedOut, MetricUnit.Count, written);
    logger.info('webhook messages fanned out', {
      event: WEBHOOK_NAMES.fannedOutLog,
      tenant_id: event.tenant_id,
      event_id: event.event_id,
      event_type: event.payload.event_type,
      messages: written,
    });
  };
}
