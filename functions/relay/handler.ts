import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { dbFromEnv } from '#functions/adapters/dynamo';
import { queueUrlsFromEnv, sqsClient } from '#functions/adapters/queue';
import { clock } from '#functions/config';
import { createRelay } from '#functions/lib/outbox-relay';

/** The outbox relay: DynamoDB stream (INSERTs of `entity = outbox` only) -> SQS. */
let relay: ReturnType<typeof createRelay> | undefined;

export const handler = (event: DynamoDBStreamEvent, context: Context) => {
  relay ??= createRelay({ db: dbFromEnv(), sqs: sqsClient, queues: queueUrlsFromEnv(), clock });
  return relay(event, context);
};
