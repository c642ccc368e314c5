import { workerHandler } from './deps';

/** The internal queue's worker (in_app; SQS, partial batch responses). */
export const handler = workerHandler('internal');
