import { EventType } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { type DeliveryDeps, deliver } from '#shared/domain/notifications/delivery';
import type { OutboxEvent } from '#shared/domain/outbox';
import { EVENT_KINDS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { delayRetry } from '#functions/adapters/queue';
import { partialBatch } from '#functions/batch';
import { logger, metricsFor } from '#functions/observability';

/** Thrown for a record that must come back later; only that record is reported failed. */
export class RetryLater extends Error {}

export interface WorkerDeps {
  delivery: DeliveryDeps;
  sqs: SQSClient;
  queueUrl: string;
}

export type KindHandler = (event: OutboxEvent, record: SQSRecord) => Promise<void>;

/** What the provider path threw, for the log only (the attempt carries `provider_error`). */
const thrown = (error: unknown) => (error === undefined ? {} : { error: error as Error });

/**
 * An SQS worker: a dispatcher by event kind over Powertools' BatchProcessor, so a failed record
 * fails alone (`batchItemFailures`). Other kinds come in `extra` (workflow rules: ./workflows.ts).
 */
export function createWorker(
  name: 'internal' | 'external',
  deps: WorkerDeps,
  extra: Record<string, KindHandler> = {},
) {
  const metrics = metricsFor(`worker-${name}`);
  const count = (...names: string[]) => {
    for (const metric of names) metrics.addMetric(metric, MetricUnit.Count, 1);
  };

  const notification: KindHandler = async (event, record) => {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
    const outcome = await deliver(deps.delivery, event, receiveCount);
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
        await delayRetry(deps.sqs, deps.queueUrl, record.receiptHandle, outcome.delaySeconds);
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
        await delayRetry(deps.sqs, deps.queueUrl, record.receiptHandle, 0);
        throw new RetryLater('dead_lettered');
    }
  };

  const handlers: Record<string, KindHandler> = {
    [EVENT_KINDS.notificationDeliveryRequested]: notification,
    ...extra,
  };

  // A message that is not JSON or of no known kind fails too, counted and logged like any other
  // failure: after the receive limit it reaches the DLQ, and the alarm on the metric says so.
  const record = async (r: SQSRecord) => {
    let kind: string | null = null;
    try {
      let event: OutboxEvent;
      try {
        event = JSON.parse(r.body) as OutboxEvent;
      } catch {
        throw new Error('unparseable message body');
      }
      kind = typeof event.kind === 'string' ? event.kind : null;
      const handle = handlers[event.kind];
      if (!handle) throw new Error(`no handler for kind ${event.kind}`);
      await handle(event, r);
    } catch (err) {
      if (!(err instanceof RetryLater)) {
        count(METRICS.workerFailed);
        logger.error('worker record failed', {
          event: LOG_EVENTS.workerRecordFailed,
          message_id: r.messageId,
          kind,
          error: err as Error,
        });
      }
      throw err;
    }
  };

  return (event: SQSEvent, context: Context) =>
    partialBatch({ type: EventType.SQS, event, record }, context, metrics);
}
