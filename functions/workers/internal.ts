import type { Context, SQSEvent } from 'aws-lambda';
import { sqsClient } from '../adapters/queue';
import { createWorker } from '../lib/delivery-worker';
import { deliveryDepsFromEnv } from './deps';

/** The internal queue's worker (SQS, partial batch responses). */
let worker: ReturnType<typeof createWorker> | undefined;

export const handler = (event: SQSEvent, context: Context) => {
  worker ??= createWorker('internal', {
    delivery: deliveryDepsFromEnv(),
    sqs: sqsClient,
    queueUrl: process.env.INTERNAL_QUEUE_URL ?? '',
  });
  return worker(event, context);
};
