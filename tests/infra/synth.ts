import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { REPO_ROOT } from '#infra/paths';
import { buildService, type Service } from '#infra/service';

/**
 * The service synthesized the way `cdk synth` does it (same feature flags from cdk.json), but
 * with asset bundling skipped (`aws:cdk:bundling-stacks: []`: no esbuild run) and assets
 * referenced in place instead of copied (`aws:cdk:disable-asset-staging`), so a synthesis takes
 * about a second.
 */
export const TEST_STAGE = 'test';
export const TEST_EMAIL = 'sre@example.com';

export interface Synthesized extends Service {
  readonly app: App;
  readonly stateful: Service['stateful'];
  readonly stateless: Service['stateless'];
  readonly statefulTemplate: Template;
  readonly statelessTemplate: Template;
  readonly apiRoutesTemplate: Template;
}

export function synthService(context: Record<string, unknown> = {}): Synthesized {
  const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const app = new App({
    context: {
      ...cdkJson.context,
      'aws:cdk:bundling-stacks': [],
      'aws:cdk:disable-asset-staging': true,
      stage: TEST_STAGE,
      alarmEmail: TEST_EMAIL,
      ...context,
    },
  });
  const service = buildService(app);
  return {
    ...service,
    app,
    statefulTemplate: Template.fromStack(service.stateful),
    statelessTemplate: Template.fromStack(service.stateless),
    apiRoutesTemplate: Template.fromStack(service.apiRoutes),
  };
}

/** A value read from template JSON: untyped by nature, navigated freely by the tests. */
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation template JSON has no static type.
export type Cfn = any;

/** Resources of one type as [logicalId, properties]. */
export const resourcesOf = (template: Template, type: string): [string, Record<string, Cfn>][] =>
  Object.entries(template.findResources(type)).map(([id, r]) => [
    id,
    (r as { Properties: Record<string, Cfn> }).Properties,
  ]);
