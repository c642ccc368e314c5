import type { Context, SQSEvent } from 'aws-lambda';
import type { DeliveryDeps } from '#shared/domain/notifications/delivery';
import { dbFromEnv } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { providerPort, providerSettingsFromEnv } from '#functions/adapters/providers';
import { sqsClient } from '#functions/adapters/queue';
import { clock } from '#functions/config';
import { createWorker, workerSettingsFromEnv } from '#functions/lib/delivery-worker';

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
