import type { DeliveryDeps as WebhookDeliveryDeps } from '#shared/domain/webhooks/delivery';
import type { FanOutDeps } from '#shared/domain/webhooks/fan-out';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import type { Db } from '#functions/adapters/dynamo';
import { armTimer } from '#functions/adapters/timer-arm';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { webhookSender } from '#functions/adapters/webhook-sender';
import { allowLoopback, clock, connectionSecretSettings, providerSettings } from '#functions/config';
import { deliveryPolicy } from './delivery-policy';

/** The longest wait a queue message can carry itself (SQS visibility: 12 hours). */
const VISIBILITY_MAX_S = 43_200;

/**
 * Whether a webhook queue message carries a wait by its visibility: while it has receives to
 * spare before its queue's redrive limit (`receives`, the delivery policy's attempt limit) and the
 * wait is at most 12 hours; otherwise the wait is a `webhook_retry` timer, whose firing queues a
 * fresh message (docs/decisions.md). The same rule for a failed attempt's wait and an early copy's.
 */
export const webhookQueueCarries =
  (receives: number) =>
  (receiveCount: number, seconds: number): boolean =>
    seconds <= VISIBILITY_MAX_S && receiveCount < receives - 1;

/** Webhook delivery on the external worker (docs/api.md, "Event subscriptions"). */
export function webhookDeliveryDeps(db: Db): WebhookDeliveryDeps {
  return {
    endpoints: webhookEndpointStore(db),
    messages: webhookMessageStore(db),
    secrets: webhookSecrets(connectionSecretsFor(connectionSecretSettings())),
    sender: webhookSender({
      allowLoopback: allowLoopback(),
      timeoutMs: providerSettings().timeoutMs,
      maxResponseBytes: 64 * 1024,
    }),
    clock,
    leaseSeconds: deliveryPolicy().leaseSeconds,
    queueCarries: webhookQueueCarries(deliveryPolicy().maxAttempts),
    armTimer: (t) => armTimer(db, t),
    probeSeconds: Math.ceil(providerSettings().timeoutMs / 1000) + 1,
  };
}

/** The webhook fan-out on the internal worker. */
export const webhookFanOutDeps = (db: Db): FanOutDeps => ({
  endpoints: webhookEndpointStore(db),
  messages: webhookMessageStore(db),
  clock,
});
