import type { Context, SQSEvent } from 'aws-lambda';
import type { DeliveryDeps } from '../../shared/domain/notification-delivery';
import { dbFromEnv } from '../adapters/dynamo';
import { notificationStore } from '../adapters/notification-store';
import { providerPort, providerSettingsFromEnv } from '../adapters/providers';
import { sqsClient } from '../adapters/queue';
import { clock } from '../config';
import { createWorker, workerSettingsFromEnv } from '../lib/delivery-worker';

/** What both workers share, built once per process from the environment. */
export const deliveryDepsFromEnv = (): DeliveryDeps => ({
  store: notificationStore(dbFromEnv()),
  providers: providerPort(providerSettingsFromEnv()),
  clock,
  ...workerSettingsFromEnv(),
});

/** A queue's worker handler, built on its first batch from the environment as it is then. */
export function workerHandler(name: 'internal' | 'external', queueUrlVariable: string) {
  let worker: ReturnType<typeof createWorker> | undefined;
  return (event: SQSEvent, context: Context) => {
    worker ??= createWorker(name, {
      delivery: deliveryDepsFromEnv(),
      sqs: sqsClient,
      queueUrl: process.env[queueUrlVariable] ?? '',
    });
    return worker(event, context);
  };
}
