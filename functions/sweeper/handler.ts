import { dbFor } from '#functions/adapters/dynamo';
import { sqsClient } from '#functions/adapters/queue';
import { clock, outboxSweepAfterMs, queueConfig, tableConfig } from '#functions/config';
import { createSweeper } from './outbox-sweeper';

const queues = queueConfig();

/** Scheduled outbox recovery: re-publishes items the relay has not published within the bound. */
export const handler = createSweeper(
  { db: dbFor(tableConfig()), sqs: sqsClient(queues), queues, clock },
  outboxSweepAfterMs(),
);
