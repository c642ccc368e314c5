import type { DeliveryDeps } from '../../shared/domain/notification-delivery';
import { dbFromEnv } from '../adapters/dynamo';
import { notificationStore } from '../adapters/notification-store';
import { providerPort, providerSettingsFromEnv } from '../adapters/providers';
import { clock } from '../config';
import { workerSettingsFromEnv } from '../lib/delivery-worker';

/** What both workers share, built once per process from the environment. */
export const deliveryDepsFromEnv = (): DeliveryDeps => ({
  store: notificationStore(dbFromEnv()),
  providers: providerPort(providerSettingsFromEnv()),
  clock,
  ...workerSettingsFromEnv(),
});
