import { DELIVERY_BACKOFF, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { deliveryOverrides } from '#functions/config';

/**
 * The delivery policy, as configured (the local runtime and tests shorten it): the attempts every
 * queue's jobs get (the queues' receive limit is the same number), the backoff between them and
 * how long an attempt holds its claim.
 */
export function deliveryPolicy() {
  const o = deliveryOverrides();
  return {
    maxAttempts: o.maxAttempts ?? DELIVERY_MAX_ATTEMPTS,
    backoff: {
      baseSeconds: o.baseSeconds ?? DELIVERY_BACKOFF.baseSeconds,
      capSeconds: o.capSeconds ?? DELIVERY_BACKOFF.capSeconds,
    },
    leaseSeconds: o.leaseSeconds ?? 60,
  };
}
