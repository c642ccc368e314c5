import { hubRunDeps, workerHandler, workflowRunDeps } from './deps';
import { hubHandlers } from './hub';
import { workflowHandlers } from './workflows';

/**
 * The internal queue's worker: in_app delivery, workflow rules and the integration hub's runs
 * (SQS, partial batch responses).
 */
export const handler = workerHandler('internal', (db) => ({
  ...workflowHandlers(workflowRunDeps(db)),
  ...hubHandlers(hubRunDeps(db)),
}));
