import type { App } from 'aws-cdk-lib';
import { type DeploymentConfig, readConfig, stackNames } from './config';
import { StatefulStack } from './stacks/stateful-stack';
import { StatelessStack } from './stacks/stateless-stack';

export interface Service {
  readonly config: DeploymentConfig;
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;
}

/**
 * The whole service in an App: the stateful stack, handed through typed props to the stateless
 * one. Used by infra/app.ts and by the tests, so both synthesize the same thing.
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
  return { config, stateful, stateless };
}
