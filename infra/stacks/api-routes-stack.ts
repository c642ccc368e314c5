import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { GROUPS } from '#shared/api/manifest';
import type { DeploymentConfig } from '#infra/config';
import { ServiceRoutes } from '#infra/constructs/service-api';

export interface ApiRoutesStackProps extends StackProps {
  readonly config: DeploymentConfig;
  /** The HTTP API's id, from the stateless stack. */
  readonly httpApiId: string;
}

/**
 * The HTTP API's routes, authorizer, integrations, invoke permissions and stage: one resource per
 * route and one per path, which grow with every operation. In a stack of their own, so the
 * stateless stack stays far below CloudFormation's 500 resources per stack
 * (tests/infra/cases/limits.ts; docs/infrastructure.md "Deploy-time limits"). Deployed after the
 * stateless stack, whose functions the routes invoke.
 */
export class ApiRoutesStack extends Stack {
  readonly routes: ServiceRoutes;

  constructor(scope: Construct, id: string, props: ApiRoutesStackProps) {
    super(scope, id, props);
    this.routes = new ServiceRoutes(this, 'Api', {
      config: props.config,
      httpApiId: props.httpApiId,
      groups: GROUPS,
    });
  }
}
