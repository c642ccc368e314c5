import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { MetricsStore, QueueDepth, QueueGauge } from '#shared/domain/metrics/ports';
import { QUEUES, type QueueName } from '#shared/kernel/names';
import { outbox, OUTBOX_PENDING_SHARDS } from '#shared/table/entities/outbox';
import { reviewItem } from '#shared/table/entities/review-item';
import { keyAttributes } from '#shared/table/table';
import type { QueueConfig } from '#functions/config';
import type { Db } from './dynamo';

/**
 * The operator's metrics (docs/api.md section 9.6) from the table, by Query only: the outbox
 * backlog from the sparse pending index (each shard: a count, and its oldest key), open review
 * items from their sparse index (a count per kind). No Scan, no item bodies read.
 */
export const metricsStore = (db: Db): MetricsStore => {
  const index = 'gsi3' as const;
  const { partitionKey, sortKey } = keyAttributes(index);
  const query = (
    partition: string,
    extra: { Select?: 'COUNT'; Limit?: number; start?: Record<string, unknown> },
  ) =>
    db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: index,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': partitionKey, ...(extra.Select ? {} : { '#sk': sortKey }) },
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: true,
        ...(extra.Select ? { Select: 'COUNT' } : { ProjectionExpression: '#sk', Limit: extra.Limit }),
        ExclusiveStartKey: extra.start,
      }),
    );
  const count = async (partition: string) => {
    let total = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await query(partition, { Select: 'COUNT', start });
      total += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return total;
  };
  return {
    async outboxBacklog() {
      const shards = await Promise.all(
        Array.from({ length: OUTBOX_PENDING_SHARDS }, async (_, shard) => {
          const partition = outbox.query(index, { shard }).partition;
          const [pending, first] = await Promise.all([count(partition), query(partition, { Limit: 1 })]);
          // The pending sort key is `<occurred_at>#<event_id>`: its first one is the oldest.
          const oldest = first.Items?.[0]?.[sortKey] as string | undefined;
          return { pending, oldest: oldest?.split('#')[0] ?? null };
        }),
      );
      const oldest = shards
        .map((s) => s.oldest)
        .filter((o): o is string => o !== null)
        .sort()[0];
      return { pending: shards.reduce((n, s) => n + s.pending, 0), oldest_occurred_at: oldest ?? null };
    },
    async openReviewItems(kinds) {
      const counts = await Promise.all(
        kinds.map((kind) => count(reviewItem.query(index, { open_kind: kind }).partition)),
      );
      return Object.fromEntries(kinds.map((kind, i) => [kind, counts[i]!]));
    },
  };
};

/** SQS's approximate counts of a queue and of its DLQ, by GetQueueAttributes. */
export const queueGauge = (sqs: SQSClient, urls: QueueConfig): QueueGauge => {
  const attributes = async (url: string) => {
    const out = await sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: url,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return {
      visible: Number(out.Attributes?.ApproximateNumberOfMessages ?? 0),
      inFlight: Number(out.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0),
    };
  };
  return {
    async depth(queue: QueueName): Promise<QueueDepth> {
      const [source, dlq] =
        queue === QUEUES.external ? [urls.external, urls.externalDlq] : [urls.internal, urls.internalDlq];
      const [q, d] = await Promise.all([attributes(source), attributes(dlq)]);
      return { visible: q.visible, in_flight: q.inFlight, dlq_depth: d.visible + d.inFlight };
    },
  };
};
