import { deliveryDeps, hubRunDeps, workerHandler, workflowRunDeps } from './deps';
import { hubHandlers } from './hub';
import { notificationHandlers } from './notifications';
import { timerFireDeps, timerHandlers } from './timers';
import { workflowHandlers } from './workflows';

/**
 * The internal queue's worker (SQS, partial batch responses): one handler per kind the event
 * manifest (shared/kernel/events.ts) puts on the internal queue.
 */
export const handler = workerHandler('internal', (db, queue) => ({
  ...notificationHandlers('internal', deliveryDeps(db), queue),
  ...workflowHandlers(workflowRunDeps(db)),
  ...hubHandlers(hubRunDeps(db)),
  ...timerHandlers(timerFireDeps(db), db),
}));
