import { hubRunDeps } from './hub-deps';
import { deliveryDeps } from './notification-deps';
import { webhookFanOutDeps } from './webhook-deps';
import { workerHandler } from './worker-handler';
import { workflowRunDeps } from './workflow-deps';
import { hubHandlers } from './hub';
import { notificationHandlers } from './notifications';
import { timerFireDeps, timerHandlers } from './timers';
import { EVENT_KINDS } from '#shared/kernel/names';
import { webhookFanOut } from './webhooks';
import { workflowHandlers } from './workflows';

/**
 * The internal queue's worker (SQS, partial batch responses): one handler per kind the event
 * manifest (shared/kernel/events.ts) puts on the internal queue.
 */
export const handler = workerHandler('internal', (db, queue) => {
  const workflows = workflowHandlers(workflowRunDeps(db));
  const fanOut = webhookFanOut(webhookFanOutDeps(db));
  const rules = workflows[EVENT_KINDS.workflowEventRecorded];
  return {
    ...notificationHandlers('internal', deliveryDeps(db), queue),
    ...workflows,
    // A recorded change feeds workflow rules and webhook endpoints: the messages first, so that
    // a failing rule (which the queue retries) never holds them back; both are idempotent.
    [EVENT_KINDS.workflowEventRecorded]: async (event, record) => {
      await fanOut(event);
      await rules(event, record);
    },
    ...hubHandlers(hubRunDeps(db), queue),
    ...timerHandlers(timerFireDeps(db), db),
  };
});
