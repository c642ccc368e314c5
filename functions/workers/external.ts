import { accountingHandlers } from './accounting';
import { exportRunDeps } from './accounting-deps';
import { deliveryDeps } from './notification-deps';
import { webhookDeliveryDeps } from './webhook-deps';
import { workerHandler } from './worker-handler';
import { notificationHandlers } from './notifications';
import { webhookHandlers } from './webhooks';

/**
 * The external queue's worker (SQS, partial batch responses): one handler per kind the event
 * manifest (shared/kernel/events.ts) puts on the external queue (notifications that leave the
 * system, accounting exports, webhook messages).
 */
export const handler = workerHandler('external', (db, queue) => ({
  ...notificationHandlers('external', deliveryDeps(db), queue),
  ...accountingHandlers(exportRunDeps(db), queue.sqs, queue.queueUrl),
  ...webhookHandlers(webhookDeliveryDeps(db), queue.sqs, queue.queueUrl),
}));
