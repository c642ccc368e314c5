import type * as core from 'zod/v4/core';
import type { DemoOperationId } from '#shared/api/operations/demo';
import {
  BusinessNotificationChannelMatrixDemoRead,
  BusinessScenarioReplayDemoRead,
  ConnectorCertificationDemoRead,
  ConnectorFixtureReplayDemoRead,
  IntegrationRepairDemoRead,
  NotificationDeliveryContractDemoRead,
  ProviderOnboardingDemoRead,
  PublicDemoRead,
} from './schemas';

/**
 * The response record of each demo operation, apart from ./operations.ts as for every route
 * group (shared/api/operations/responses.ts): the public function serves generated JSON and has
 * no use for the schemas (nor for classic zod, which they are written in).
 */
export const DEMO_RESPONSES = {
  'demo.public': PublicDemoRead,
  'demo.notificationDelivery': NotificationDeliveryContractDemoRead,
  'demo.businessNotificationChannels': BusinessNotificationChannelMatrixDemoRead,
  'demo.connectorCertification': ConnectorCertificationDemoRead,
  'demo.providerOnboarding': ProviderOnboardingDemoRead,
  'demo.integrationRepair': IntegrationRepairDemoRead,
  'demo.connectorFixtureReplay': ConnectorFixtureReplayDemoRead,
  'demo.businessScenarioReplay': BusinessScenarioReplayDemoRead,
} as const satisfies Record<DemoOperationId, core.$ZodType>;
