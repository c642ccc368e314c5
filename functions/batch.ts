import { BatchProcessor, type EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger, publishRecorded } from './observability';

type Batch =
  | { type: typeof EventType.SQS; event: SQSEvent; record: (r: SQSRecord) => Promise<void> }
  | {
      type: typeof EventType.DynamoDBStreams;
      event: DynamoDBStreamEvent;
      record: (r: DynamoDBRecord) => Promise<void>;
    };

/**
 * Runs `record` for each record with Powertools' BatchProcessor and answers the partial batch
 * response (`batchItemFailures`), so a failed record fails alone. A batch whose every record
 * failed is reported the same way rather than thrown, so the event source's own retry and DLQ
 * settings decide. Log lines carry the invocation's Lambda context; the function's metrics are
 * flushed after every batch that recorded any.
 */
export async function partialBatch(batch: Batch, context: Context, metrics: Metrics) {
  logger.addContext(context);
  try {
    return await processPartialResponse(
      batch.event as never,
      batch.record as never,
      new BatchProcessor(batch.type),
      // At once, not one after another: a record that waits on a slow dependency (a webhook
      // endpoint that hangs until the sender's deadline) must not hold back the batch's others,
      // often other tenants' (docs/decisions.md, "Fairness"). It is the library's default.
      { context, throwOnFullBatchFailure: false, processInParallel: true },
    );
  } finally {
    publishRecorded(metrics);
  }
}
