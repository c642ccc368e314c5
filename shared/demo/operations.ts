import type { Operation } from '#shared/api/operations/operation';
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

const op = <const O extends Operation>(o: O) => o;

const demo = <const P extends string, const S extends Operation['response']>(
  path: P,
  summary: string,
  response: S,
) => op({ group: 'public', method: 'GET', path, summary, auth: 'public', status: 200, response });

/**
 * The public demo routes (docs/api.md section 8): public, read-only, cacheable,
 * answered from static synthetic data built by `shared/demo/index.ts`.
 */
export const DEMO_OPERATIONS = {
  'demo.public': demo(
    '/demo/public',
    'Public demo: the fictional tenant, its previews and the embedded notification delivery contract',
    PublicDemoRead,
  ),
  'demo.notificationDelivery': demo(
    '/demo/notification-delivery',
    'Notification delivery contract: channels, outbox event, queues, gates, retry, dead letters, review, evidence',
    NotificationDeliveryContractDemoRead,
  ),
  'demo.businessNotificationChannels': demo(
    '/demo/business-notification-channels',
    'Notification channel matrix of the demo tenant',
    BusinessNotificationChannelMatrixDemoRead,
  ),
  'demo.connectorCertification': demo(
    '/demo/connector-certification',
    'Walkthrough: certifying a connector against its adapter contract',
    ConnectorCertificationDemoRead,
  ),
  'demo.providerOnboarding': demo(
    '/demo/provider-onboarding',
    'Walkthrough: onboarding a delivery provider until its gate opens',
    ProviderOnboardingDemoRead,
  ),
  'demo.integrationRepair': demo(
    '/demo/integration-repair',
    'Walkthrough: diagnosing and repairing a failing integration',
    IntegrationRepairDemoRead,
  ),
  'demo.connectorFixtureReplay': demo(
    '/demo/connector-fixture-replay',
    'Walkthrough: replaying sanitized connector fixtures through the mapping',
    ConnectorFixtureReplayDemoRead,
  ),
  'demo.businessScenarioReplay': demo(
    '/demo/business-scenario-replay',
    'Walkthrough: a month-end business scenario replayed end to end',
    BusinessScenarioReplayDemoRead,
  ),
} as const satisfies Record<string, Operation>;

export type DemoOperationId = keyof typeof DEMO_OPERATIONS;
