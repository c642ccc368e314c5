import { workerHandler } from './deps';

/** The external queue's worker (telegram, email, sms, webhook; SQS, partial batch responses). */
export const handler = workerHandler('external');
