import { dbFromEnv } from '#functions/adapters/dynamo';
import { queueUrlsFromEnv, sqsClient } from '#functions/adapters/queue';
import { clock } from '#functions/config';
import { createSweeper } from '#functions/lib/outbox-relay';

/** Scheduled outbox recovery: re-publishes items the relay has not published within the bound. */
let sweeper: ReturnType<typeof createSweeper> | undefined;

export const handler = () => {
  sweeper ??= createSweeper({ db: dbFromEnv(), sqs: sqsClient, queues: queueUrlsFromEnv(), clock });
  return sweeper();
};
