import { dbFromEnv } from '../adapters/dynamo';
import { queueUrlsFromEnv, sqsClient } from '../adapters/queue';
import { clock } from '../config';
import { createSweeper } from '../lib/outbox-relay';

/** Scheduled outbox recovery: re-publishes items the relay has not published within the bound. */
let sweeper: ReturnType<typeof createSweeper> | undefined;

export const handler = () => {
  sweeper ??= createSweeper({ db: dbFromEnv(), sqs: sqsClient, queues: queueUrlsFromEnv(), clock });
  return sweeper();
};
