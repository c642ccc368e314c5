import { dbFor } from '#functions/adapters/dynamo';
import { sqsClient } from '#functions/adapters/queue';
import { clock, queueConfig, tableConfig } from '#functions/config';
import { createRelay } from './outbox-relay';

const queues = queueConfig();

/** The outbox relay: DynamoDB stream (INSERTs of `entity = outbox` only) -> SQS. */
export const handler = createRelay({ db: dbFor(tableConfig()), sqs: sqsClient(queues), queues, clock });
