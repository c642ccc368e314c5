import type { Context, SQSEvent } from 'aws-lambda';
import { sqsClient } from '../adapters/queue';
import { createWorker } from '../lib/delivery-worker';
import { deliveryDepsFromEnv } from './deps';

/** The external queue's worker (SQS, partial batch responses). */
let worker: ReturnType<typeof createWorker> | undefined;

export const handler = (event: SQSEvent, context: Context) => {
  worker ??= createWorker('external', {
    delivery: deliveryDepsFromEnv(),
    sqs: sqsClient,
    queueUrl: process.env.EXTERNAL_QUEUE_URL ?? '',
  });
  return worker(event, context);
};
