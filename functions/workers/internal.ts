import { hubRunDeps, workerHandler, workflowRunDeps } from './deps';
import { hubHandlers } from './hub';
import { timerFireDeps, timerHandlers } from './timers';
import { workflowHandlers } from './workflows';

/**
 * The internal queue's worker: in_app delivery, workflow rules, the integration hub's runs and
 * the firings of timers (SQS, partial batch responses).
 */
export const handler = workerHandler('internal', (db) => ({
  ...workflowHandlers(workflowRunDeps(db)),
  ...hubHandlers(hubRunDeps(db)),
  ...timerHandlers(timerFireDeps(db)),
}));
