import { accountingHandlers } from './accounting';
import { exportRunDeps, workerHandler } from './deps';

/**
 * The external queue's worker (SQS, partial batch responses): telegram, email, sms and webhook
 * notifications, and accounting exports.
 */
export const handler = workerHandler('external', (db, { sqs, queueUrl }) =>
  accountingHandlers(exportRunDeps(db), sqs, queueUrl),
);
