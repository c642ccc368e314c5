import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { type DeliveryDeps, deliver } from '#shared/domain/notifications/delivery';
import type { QueueKey } from '#shared/kernel/events';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { delayRetry } from '#functions/adapters/queue';
import { logger, metricsFor } from '#functions/observability';
import { type KindHandler, kindHandlers, receiveCountOf, RetryLater, type WorkerQueue } from './queue-worker';

/** What the provider path threw, for the log only (the attempt carries `provider_error`). */
const thrown = (error: unknown) => (error === undefined ? {} : { error: error as Error });

/**
 * Both workers' notification kind (docs/delivery.md): `in_app` on the internal queue, every
 * other channel on the external one. One delivery per message; a retry delays the message by its
 * visibility (the backoff), the last attempt's message goes to the DLQ only after the
 * notification was marked dead-lettered with a review item.
 */
export function notificationHandlers(queueKey: QueueKey, deps: DeliveryDeps, queue: WorkerQueue) {
  const metrics = metricsFor(`worker-${queueKey}`);
  const count = (...names: string[]) => {
    for (const metric of names) metrics.addMetric(metric, MetricUnit.Count, 1);
  };

  const notification: KindHandler = async (event, record) => {
    const receiveCount = receiveCountOf(record);
    const outcome = await deliver(deps, event, receiveCount);
    const n = outcome.notification;
    const fields = {
      tenant_id: event.tenant_id,
      notification_id: n?.id ?? event.payload.notification_id,
      channel: n?.channel ?? event.payload.channel,
      attempt: n?.attempts.length ?? null,
      receive_count: receiveCount,
    };
    switch (outcome.result) {
      case 'delivered':
        count(METRICS.notificationDelivered);
        metrics.addMetric(
          METRICS.notificationDeliveryLatency,
          MetricUnit.Milliseconds,
          outcome.latencyMs ?? 0,
        );
        logger.info('notification delivered', {
          event: LOG_EVENTS.notificationDelivered,
          ...fields,
          latency_ms: outcome.latencyMs,
        });
        return;
      case 'duplicate':
        count(METRICS.notificationDuplicate);
        logger.info('duplicate delivery skipped', { event: LOG_EVENTS.notificationDuplicate, ...fields });
        return;
      case 'skipped':
        logger.info('delivery skipped', {
          event: LOG_EVENTS.notificationDuplicate,
          ...fields,
          reason: outcome.reason,
        });
        return;
      case 'gated':
        count(METRICS.notificationGated, METRICS.reviewItemOpened);
        logger.warn('notification gated', {
          event: LOG_EVENTS.notificationGated,
          ...fields,
          gate: outcome.reason,
        });
        return;
      case 'permanent_failure':
        count(METRICS.notificationDeadLettered, METRICS.reviewItemOpened);
        logger.warn('permanent provider failure', {
          event: LOG_EVENTS.notificationPermanentFailure,
          ...fields,
          reason: outcome.reason,
        });
        return;
      case 'retrying':
      case 'busy':
        if (outcome.result === 'retrying') count(METRICS.notificationRetried);
        logger.warn('delivery will be retried', {
          event: LOG_EVENTS.notificationRetry,
          ...fields,
          reason: outcome.reason ?? outcome.result,
          delay_s: outcome.delaySeconds,
          ...thrown(outcome.error),
        });
        await delayRetry(queue.sqs, queue.queueUrl, record.receiptHandle, outcome.delaySeconds);
        throw new RetryLater(outcome.result);
      case 'dead_lettered':
        count(METRICS.notificationDeadLettered, METRICS.reviewItemOpened);
        logger.error('notification dead-lettered', {
          event: LOG_EVENTS.notificationDeadLettered,
          ...fields,
          reason: outcome.reason,
          ...thrown(outcome.error),
        });
        // Visible at once: the next receive exceeds maxReceiveCount and SQS moves it to the DLQ.
        await delayRetry(queue.sqs, queue.queueUrl, record.receiptHandle, 0);
        throw new RetryLater('dead_lettered');
    }
  };

  return kindHandlers({ [EVENT_KINDS.notificationDeliveryRequested]: notification });
}
