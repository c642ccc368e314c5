import { workerHandler, workflowRunDeps } from './deps';
import { workflowHandlers } from './workflows';

/** The internal queue's worker: in_app delivery and workflow rules (SQS, partial batch responses). */
export const handler = workerHandler('internal', (db) => workflowHandlers(workflowRunDeps(db)));
