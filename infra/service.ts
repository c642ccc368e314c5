import type { App } from 'aws-cdk-lib';
import { type DeploymentConfig, readConfig, stackNames } from './config';
import { StatefulStack } from './stacks/stateful-stack';
import { ApiRoutesStack } from './stacks/api-routes-stack';
import { StatelessStack } from './stacks/stateless-stack';

export interface Service {
  readonly config: DeploymentConfig;
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
  readonly apiRoutes: ApiRoutesStack;
}

/**
 * The whole service in an App: the stateful stack, handed through typed props to the stateless
 * one, and the API's routes in a third (infra/stacks/api-routes-stack.ts). Used by infra/app.ts
 * and by the tests, so both synthesize the same thing.
 */
export function buildService(app: App): Service {
  const config = readConfig(app);
  const names = stackNames(config);
  const tags = { service: 'ops-platform', stage: config.stage };
  const stateful = new StatefulStack(app, names.stateful, {
    config,
    stackName: names.stateful,
    description: `ops-platform (${config.stage}): table, queues, alarm topics, secrets, demo bucket`,
    tags,
  });
  const stateless = new StatelessStack(app, names.stateless, {
    config,
    stateful,
    stackName: names.stateless,
    description: `ops-platform (${config.stage}): functions, HTTP API, alarms, dashboard, demo CDN`,
    tags,
  });
  stateless.addStackDependency(stateful, 'the stateless stack uses the stateful resources');
  const apiRoutes = new ApiRoutesStack(app, names.apiRoutes, {
    config,
    httpApiId: stateless.api.httpApi.apiId,
    stackName: names.apiRoutes,
    description: `ops-platform (${config.stage}): HTTP API routes, authorizer and stage`,
    tags,
  });
  apiRoutes.addStackDependency(stateless, 'the routes invoke the stateless functions');
  return { config, stateful, stateless, apiRoutes };
}
