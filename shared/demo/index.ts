import { createHash } from 'node:crypto';
import { channelMatrixDemo } from './channels';
import { notificationDeliveryContract } from './delivery';
import { DEMO_OPERATIONS, type DemoOperationId } from './operations';
import { type DemoSection, publicDemo } from './public';
import {
  businessScenarioReplayDemo,
  connectorCertificationDemo,
  connectorFixtureReplayDemo,
  integrationRepairDemo,
  providerOnboardingDemo,
} from './walkthroughs';

/**
 * The one source of truth of the demo surface. The public route group answers from
 * `demoResponse`, `scripts/build-demo.ts` writes `demo-static/data/` from `DEMO_PAYLOADS`, and
 * `shared/api/openapi.ts` uses the same bodies as response examples. Bodies are built and validated
 * against their schema once, at module load.
 */

export { DEMO_OPERATIONS, type DemoOperationId } from './operations';

export const DEMO_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

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

/**
 * The payloads, built once. They are not validated here, at every cold start of the public
 * function: tests/unit/demo/payloads.test.ts checks each against its strict schema.
 */
export const DEMO_PAYLOADS = Object.fromEntries(
  (Object.keys(DEMO_OPERATIONS) as DemoOperationId[]).map((id) => [
    id,
    { path: DEMO_OPERATIONS[id].path, body: BUILDERS[id]() as unknown },
  ]),
) as Record<DemoOperationId, { path: string; body: unknown }>;

/** A strong ETag: the quoted SHA-256 (base64url) of the exact JSON text that is served. */
export const etagOf = (json: string): string => `"${createHash('sha256').update(json).digest('base64url')}"`;

const RESPONSES = new Map(
  Object.entries(DEMO_PAYLOADS).map(([id, { body }]) => [
    id,
    Object.freeze({ body, etag: etagOf(JSON.stringify(body)), cacheControl: DEMO_CACHE_CONTROL }),
  ]),
);

/** The response of a demo operation, or `undefined` for any other operation id. */
export function demoResponse(
  operationId: string,
): { body: unknown; etag: string; cacheControl: string } | undefined {
  return RESPONSES.get(operationId);
}
