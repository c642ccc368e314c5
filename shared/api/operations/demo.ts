import { type Operation, op } from './operation';

const demo = <const P extends string>(path: P, summary: string) =>
  op({ group: 'public', method: 'GET', path, summary, auth: 'public', status: 200 });

/** How every demo response may be cached (docs/api.md section 8). */
export const DEMO_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';

/**
 * The public demo routes (docs/api.md section 8): public, read-only, cacheable. The API declares
 * the routes; their content (the static synthetic bodies and the response records they follow)
 * is the demo's, in shared/demo/, which the API never imports: the public function serves the
 * generated bodies, and the OpenAPI document is composed with the demo's records and bodies by
 * shared/demo/openapi.ts.
 */
export const DEMO_OPERATIONS = {
  'demo.public': demo(
    '/demo/public',
    'Public demo: the fictional tenant, its previews and the embedded notification delivery contract',
  ),
  'demo.notificationDelivery': demo(
    '/demo/notification-delivery',
    'Notification delivery contract: channels, outbox event, queues, gates, retry, dead letters, review, evidence',
  ),
  'demo.businessNotificationChannels': demo(
    '/demo/business-notification-channels',
    'Notification channel matrix of the demo tenant',
  ),
  'demo.connectorCertification': demo(
    '/demo/connector-certification',
    'Walkthrough: certifying a connector against its adapter contract',
  ),
  'demo.providerOnboarding': demo(
    '/demo/provider-onboarding',
    'Walkthrough: onboarding a delivery provider until its gate opens',
  ),
  'demo.integrationRepair': demo(
    '/demo/integration-repair',
    'Walkthrough: diagnosing and repairing a failing integration',
  ),
  'demo.connectorFixtureReplay': demo(
    '/demo/connector-fixture-replay',
    'Walkthrough: replaying sanitized connector fixtures through the mapping',
  ),
  'demo.businessScenarioReplay': demo(
    '/demo/business-scenario-replay',
    'Walkthrough: a month-end business scenario replayed end to end',
  ),
} as const satisfies Record<string, Operation>;

export type DemoOperationId = keyof typeof DEMO_OPERATIONS;
