import type { DeliveryDeps } from '#shared/domain/notifications/delivery';
import { DELIVERY_BACKOFF, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { dbFor } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { providerPort } from '#functions/adapters/providers';
import { sqsClient } from '#functions/adapters/queue';
import {
  allowLoopbackWebhooks,
  clock,
  deliveryOverrides,
  providerSettings,
  queueConfig,
  tableConfig,
} from '#functions/config';
import { createWorker } from './delivery-worker';

/** The delivery policy, as configured (the local runtime and tests shorten it). */
function deliveryDeps(): DeliveryDeps {
  const o = deliveryOverrides();
  return {
    store: notificationStore(dbFor(tableConfig())),
    providers: providerPort(providerSettings(), allowLoopbackWebhooks()),
    clock,
    maxAttempts: o.maxAttempts ?? DELIVERY_MAX_ATTEMPTS,
    backoff: {
      baseSeconds: o.baseSeconds ?? DELIVERY_BACKOFF.baseSeconds,
      capSeconds: o.capSeconds ?? DELIVERY_BACKOFF.capSeconds,
    },
    leaseSeconds: o.leaseSeconds ?? 60,
  };
}

/** A queue's worker handler, over the configured table, providers and queue. */
export function workerHandler(name: 'internal' | 'external') {
  const queues = queueConfig();
  return createWorker(name, { delivery: deliveryDeps(), sqs: sqsClient(queues), queueUrl: queues[name] });
}
