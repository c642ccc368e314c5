import { EventType } from '@aws-lambda-powertools/batch';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { SQSClient } from '@aws-sdk/client-sqs';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Clock } from '#shared/kernel/ids';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { outbox } from '#shared/table/entities/outbox';
import type { Db } from '#functions/adapters/dynamo';
import { markRelayed, toOutboxEvent } from '#functions/adapters/outbox';
import { publishEvents, type QueueUrls } from '#functions/adapters/queue';
import { partialBatch } from '#functions/batch';
import { logger, metricsFor } from '#functions/observability';

export interface RelayDeps {
  db: Db;
  sqs: SQSClient;
  queues: QueueUrls;
  clock: Clock;
}

const isOutboxInsert = (r: DynamoDBRecord) =>
  r.eventName === 'INSERT' && r.dynamodb?.NewImage?.entity?.S === outbox.entity;

const eventOf = (r: DynamoDBRecord): OutboxEvent =>
  toOutboxEvent(unmarshall(r.dynamodb!.NewImage as Record<string, AttributeValue>));

/**
 * The outbox relay (DynamoDB stream handler).
 * 1. Publish every outbox INSERT of the batch, 10 per SendMessageBatch, to its queue by kind.
 * 2. Per record (Powertools BatchProcessor): a record whose entry failed throws, so only it is
 *    reported in `batchItemFailures`; a published one is marked relayed (leaves the pending
 *    index, expires by TTL) and its relay lag is recorded.
 * Records that are not outbox INSERTs (the CDK filter drops them in the cloud) are skipped.
 */
export function createRelay(deps: RelayDeps) {
  const metrics = metricsFor('relay');
  return async (event: DynamoDBStreamEvent, context: Context) => {
    const events = event.Records.filter(isOutboxInsert).map(eventOf);
    const failed = await publishEvents(deps.sqs, deps.queues, events);
    const record = async (r: DynamoDBRecord) => {
      if (!isOutboxInsert(r)) return;
      const e = eventOf(r);
      const cause = failed.get(e.event_id);
      if (cause) {
        metrics.addMetric(METRICS.relayFailed, MetricUnit.Count, 1);
        logger.warn('relay publish failed', {
          event: LOG_EVENTS.outboxRelayFailed,
          event_id: e.event_id,
          kind: e.kind,
          error: cause,
        });
        throw new Error(`publish failed for ${e.event_id}`, { cause });
      }
      const now = deps.clock.now();
      await markRelayed(deps.db, e.event_id, now);
      const lag = now.getTime() - Date.parse(e.occurred_at);
      metrics.addMetric(METRICS.relayPublished, MetricUnit.Count, 1);
      metrics.addMetric(METRICS.relayLag, MetricUnit.Milliseconds, lag);
      logger.info('outbox relayed', {
        event: LOG_EVENTS.outboxRelayed,
        event_id: e.event_id,
        kind: e.kind,
        tenant_id: e.tenant_id,
        lag_ms: lag,
      });
    };
    return partialBatch({ type: EventType.DynamoDBStreams, event, record }, context, metrics);
  };
}
