import { channelMatrixDemo } from './channels';
import { notificationDeliveryContract } from './delivery';
import { DEMO_OPERATIONS, type DemoOperationId } from '#shared/api/operations/demo';
import { type DemoSection, publicDemo } from './public';
import { businessScenarioReplayDemo } from './walkthroughs/business-scenario-replay';
import { connectorCertificationDemo } from './walkthroughs/connector-certification';
import { connectorFixtureReplayDemo } from './walkthroughs/connector-fixture-replay';
import { integrationRepairDemo } from './walkthroughs/integration-repair';
import { providerOnboardingDemo } from './walkthroughs/provider-onboarding';

/**
 * The one source of truth of the demo surface. `scripts/build-demo.ts` writes `demo-static/data/`
 * and the public function's payloads (generated/demo-payloads-brotli.ts, served by ./served.ts) from
 * `DEMO_PAYLOADS`, and `shared/api/openapi.ts` uses the same bodies as response examples.
 */

export { DEMO_CACHE_CONTROL, DEMO_OPERATIONS, type DemoOperationId } from '#shared/api/operations/demo';

/** Short titles and the key each record has in `/demo/public`'s `sections`. */
const SECTIONS: Record<Exclude<DemoOperationId, 'demo.public'>, { id: string; title: string }> = {
  'demo.notificationDelivery': { id: 'notificationDelivery', title: 'Notification delivery contract' },
  'demo.businessNotificationChannels': { id: 'businessNotificationChannels', title: 'Channel matrix' },
  'demo.connectorCertification': { id: 'connectorCertification', title: 'Connector certification' },
  'demo.providerOnboarding': { id: 'providerOnboarding', title: 'Provider onboarding' },
  'demo.integrationRepair': { id: 'integrationRepair', title: 'Integration repair' },
  'demo.connectorFixtureReplay': { id: 'connectorFixtureReplay', title: 'Connector fixture replay' },
  'demo.businessScenarioReplay': { id: 'businessScenarioReplay', title: 'Business scenario replay' },
};

const sections = (): DemoSection[] =>
  (Object.entries(SECTIONS) as [keyof typeof SECTIONS, { id: string; title: string }][]).map(([opId, s]) => ({
    id: s.id,
    title: s.title,
    path: DEMO_OPERATIONS[opId].path,
    description: DEMO_OPERATIONS[opId].summary,
  }));

const BUILDERS: Record<DemoOperationId, () => unknown> = {
  'demo.public': () => publicDemo(sections()),
  'demo.notificationDelivery': notificationDeliveryContract,
  'demo.businessNotificationChannels': channelMatrixDemo,
  'demo.connectorCertification': connectorCertificationDemo,
  'demo.providerOnboarding': providerOnboardingDemo,
  'demo.integrationRepair': integrationRepairDemo,
  'demo.connectorFixtureReplay': connectorFixtureReplayDemo,
  'demo.businessScenarioReplay': businessScenarioReplayDemo,
};

export const DEMO_TITLES: Record<DemoOperationId, string> = {
  'demo.public': 'Overview',
  ...(Object.fromEntries(Object.entries(SECTIONS).map(([k, s]) => [k, s.title])) as Record<
    keyof typeof SECTIONS,
    string
  >),
};

/** `/demo/notification-delivery` -> `notification-delivery.json` (under `demo-static/data/`). */
export const staticFileName = (path: string): string => `${path.replace(/^\/demo\//, '')}.json`;

/** The payloads, built once; tests/unit/demo/payloads.test.ts checks each against its strict schema. */
export const DEMO_PAYLOADS = Object.fromEntries(
  (Object.keys(DEMO_OPERATIONS) as DemoOperationId[]).map((id) => [
    id,
    { path: DEMO_OPERATIONS[id].path, body: BUILDERS[id]() as unknown },
  ]),
) as Record<DemoOperationId, { path: string; body: unknown }>;
