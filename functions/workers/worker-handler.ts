import { dbFor, type Db } from '#functions/adapters/dynamo';
import { sqsClient } from '#functions/adapters/queue';
import { queueConfig, tableConfig } from '#functions/config';
import type { QueueKey } from '#shared/kernel/events';
import { createQueueWorker, type KindHandlers, type WorkerQueue } from './queue-worker';

/**
 * A queue's worker handler over the configured table and queue. `bind` answers a handler for
 * every kind the event manifest puts on that queue (the type says which), built from `db` and the
 * worker's own queue; each worker file binds only its queue's kinds, so it bundles only their code.
 */
export function workerHandler<Q extends QueueKey>(
  queue: Q,
  bind: (db: Db, queue: WorkerQueue) => KindHandlers<Q>,
) {
  const queues = queueConfig();
  const db = dbFor(tableConfig());
  return createQueueWorker(queue, bind(db, { sqs: sqsClient(queues), queueUrl: queues[queue] }));
}
