import { EventType } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { OutboxEvent } from '#shared/domain/outbox';
import { eventRow, type KindsOn, kindsOn, payloadProblem, type QueueKey } from '#shared/kernel/events';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { partialBatch } from '#functions/batch';
import { logger, metricsFor } from '#functions/observability';

/** Thrown for a record that must come back later; only that record is reported failed. */
export class RetryLater extends Error {}

/** What a worker does with one message of a kind; it throws to have the message come back. */
export type KindHandler = (event: OutboxEvent, record: SQSRecord) => Promise<void>;

/** A handler module's kinds, keyed by their literal kinds so a worker's binding is checked. */
export const kindHandlers = <K extends string>(handlers: Record<K, KindHandler>) => handlers;

/** One handler for every kind the event manifest puts on the queue, and none for another. */
export type KindHandlers<Q extends QueueKey> = { [K in KindsOn<Q>]: KindHandler };

/** The queue a worker consumes, for the handlers that change a message's visibility. */
export interface WorkerQueue {
  sqs: SQSClient;
  queueUrl: string;
}

export const receiveCountOf = (record: SQSRecord) => Number(record.attributes.ApproximateReceiveCount ?? 1);

/**
 * The SQS worker of one queue: a dispatcher by event kind over Powertools' BatchProcessor, so a
 * failed record fails alone (`batchItemFailures`). The kinds come from the event manifest
 * (shared/kernel/events.ts): the worker refuses to start unless it has a handler for exactly the
 * kinds its queue carries, and it hands a handler only a message whose payload is what the kind's
 * row declares.
 */
export function createQueueWorker<Q extends QueueKey>(queue: Q, handlers: KindHandlers<Q>) {
  const bound: Record<string, KindHandler> = handlers;
  const expected = kindsOn(queue);
  const missing = expected.filter((kind) => !bound[kind]);
  const foreign = Object.keys(bound).filter((kind) => !(expected as string[]).includes(kind));
  if (missing.length || foreign.length)
    throw new Error(
      `the ${queue} worker's handlers do not match the event manifest: missing [${missing}], not on this queue [${foreign}]`,
    );

  const metrics = metricsFor(`worker-${queue}`);

  // A message that is not JSON, of no known kind or with a payload its kind does not declare
  // fails too, counted and logged like any other failure: after the receive limit it reaches
  // the DLQ, and the alarm on the metric says so.
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
      const handle = bound[event.kind];
      const row = eventRow(event.kind);
      if (!handle || !row) throw new Error(`no handler for kind ${event.kind}`);
      const problem = payloadProblem(row, event.payload);
      if (problem) throw new Error(`invalid ${event.kind} message: ${problem}`);
      await handle(event, r);
    } catch (err) {
      if (!(err instanceof RetryLater)) {
        metrics.addMetric(METRICS.workerFailed, MetricUnit.Count, 1);
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
