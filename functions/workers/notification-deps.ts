import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { DeliveryDeps } from '#shared/domain/notifications/delivery';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { providerSender } from '#functions/adapters/providers';
import { allowLoopback, clock, connectionSecretSettings, providerSettings } from '#functions/config';
import { deliveryPolicy } from './delivery-policy';

/** Notification delivery (both workers: in_app on the internal queue, the others external). */
export function deliveryDeps(db: Db): DeliveryDeps {
  return {
    store: notificationStore(db),
    connections: activeConnectionReader(
      connectionStore(db),
      connectionSecretsFor(connectionSecretSettings()),
    ),
    results: connectionResults(db),
    providers: providerSender(providerSettings(), allowLoopback()),
    clock,
    ...deliveryPolicy(),
  };
}
