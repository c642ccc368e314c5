import { accountingHandlers } from './accounting';
import { deliveryDeps, exportRunDeps, workerHandler } from './deps';
import { notificationHandlers } from './notifications';

/**
 * The external queue's worker (SQS, partial batch responses): one handler per kind the event
 * manifest (shared/kernel/events.ts) puts on the external queue (notifications that leave the
 * system, accounting exports).
 */
export const handler = workerHandler('external', (db, queue) => ({
  ...notificationHandlers('external', deliveryDeps(db), queue),
  ...accountingHandlers(exportRunDeps(db), queue.sqs, queue.queueUrl),
}));
