import { Arn, ArnFormat, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  type CfnStage,
  CorsHttpMethod,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { API_THROTTLING, type DeploymentConfig } from '#infra/config';

/** The access log group's name, fixed from the stage: the dashboard queries it from another stack. */
export const apiAccessLogGroupName = (config: Pick<DeploymentConfig, 'prefix'>) =>
  `/aws/http-api/${config.prefix}-api`;

/** The group whose function answers every path no operation names (404 problem+json). */
export const DEFAULT_ROUTE_GROUP = 'public';

/** JSON access log line: one object per request, queryable field by field in Logs Insights. */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  path: '$context.path',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  authorizerError: '$context.authorizer.error',
  errorMessage: '$context.error.message',
} as const;

export interface ServiceApiProps {
  readonly config: DeploymentConfig;
  /** The only origin CORS allows: the demo site's. */
  readonly allowedOrigin: string;
}

/**
 * The HTTP API (API Gateway v2) itself, with its CORS: in the stateless stack beside the functions,
 * the dashboard and the demo site that name it. Its routes, authorizer and stage are
 * `ServiceRoutes`, in a stack of their own (infra/stacks/api-routes-stack.ts).
 */
export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  /** `https://<id>.execute-api.<region>.amazonaws.com/`: the `$default` stage's URL. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const { config } = props;
    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `${config.prefix}-api`,
      description: `${config.prefix} HTTP API`,
      createDefaultStage: false,
      corsPreflight: {
        allowOrigins: [props.allowedOrigin],
        allowMethods: [
          CorsHttpMethod.GET,
          CorsHttpMethod.POST,
          CorsHttpMethod.PUT,
          CorsHttpMethod.PATCH,
          CorsHttpMethod.DELETE,
        ],
        allowHeaders: ['authorization', 'content-type', 'idempotency-key', 'x-request-id'],
        // deprecation, sunset and link: a browser client learns of a deprecation as any other does.
        exposeHeaders: [
          'x-request-id',
          'allow',
          'retry-after',
          'etag',
          'location',
          'www-authenticate',
          'deprecation',
          'sunset',
          'link',
        ],
        maxAge: Duration.hours(1),
      },
    });
    this.url = `${this.httpApi.apiEndpoint}/`;
  }
}

export interface ServiceRoutesProps {
  readonly config: DeploymentConfig;
  /** The API's id (ServiceApi, in the stateless stack). */
  readonly httpApiId: string;
  /** The route groups (GROUPS in shared/api/manifest.ts) whose functions the routes invoke. */
  readonly groups: readonly string[];
}

/**
 * The routes of the HTTP API, from the OPERATIONS manifest, with the authorizer, one integration
 * per group function, the stage and its access logs:
 * - `METHOD path` per operation, to its group's function, with the Lambda authorizer iff the
 *   operation is `bearer`;
 * - `ANY path` per distinct path, no authorizer, to the same function, so a wrong method
 *   reaches the function and gets 405 with `Allow`;
 * - `$default` to the public function, which answers 404.
 * The functions are named, not referenced (their names are fixed from the stage), so this stack
 * takes no output of the stateless stack but the API's id.
 */
export class ServiceRoutes extends Construct {
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  readonly routes: HttpRoute[] = [];

  constructor(scope: Construct, id: string, props: ServiceRoutesProps) {
    super(scope, id);
    const { config } = props;
    const operations: [string, Operation][] = Object.entries(OPERATIONS);
    const httpApi = HttpApi.fromHttpApiAttributes(this, 'HttpApi', { httpApiId: props.httpApiId });
    const functionByName = (id: string, name: string) =>
      LambdaFunction.fromFunctionAttributes(this, id, {
        functionArn: Arn.format(
          {
            service: 'lambda',
            resource: 'function',
            resourceName: name,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          },
          Stack.of(this),
        ),
        sameEnvironment: true,
      });

    const authorizer = new HttpLambdaAuthorizer(
      'BearerAuthorizer',
      functionByName('AuthorizerFunction', `${config.prefix}-authorizer`),
      {
        authorizerName: `${config.prefix}-bearer`,
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: ['$request.header.Authorization'],
        resultsCacheTtl: config.authorizerCacheTtl,
      },
    );

    const integrations = new Map<string, HttpLambdaIntegration>();
    const integrationOf = (group: string): HttpLambdaIntegration => {
      if (!props.groups.includes(group)) throw new Error(`no function for route group "${group}"`);
      let integration = integrations.get(group);
      if (!integration) {
        // One invoke permission per function for the whole API rather than one per route.
        integration = new HttpLambdaIntegration(
          `${group}-integration`,
          functionByName(`${group}-function`, `${config.prefix}-api-${group}`),
          { payloadFormatVersion: PayloadFormatVersion.VERSION_2_0, scopePermissionToRoute: false },
        );
        integrations.set(group, integration);
      }
      return integration;
    };
    const route = (routeId: string, routeKey: HttpRouteKey, group: string, bearer: boolean, why: string) => {
      const r = new HttpRoute(this, routeId, {
        httpApi,
        routeKey,
        integration: integrationOf(group),
        authorizer: bearer ? authorizer : undefined,
      });
      if (!bearer) Validations.of(r).acknowledge({ id: 'AwsSolutions-APIG4', reason: why });
      this.routes.push(r);
      return r;
    };

    const groupOfPath = new Map<string, string>();
    for (const [operationId, op] of operations) {
      const known = groupOfPath.get(op.path);
      if (known && known !== op.group) {
        throw new Error(
          `path ${op.path} is served by two groups (${known}, ${op.group}); one path, one function`,
        );
      }
      groupOfPath.set(op.path, op.group);
      route(
        `Route-${operationId}`,
        HttpRouteKey.with(op.path, HttpMethod[op.method]),
        op.group,
        op.auth === 'bearer',
        `${op.method} ${op.path} (${operationId}) is public by the service contract: ${op.summary}.`,
      );
    }
    for (const [path, group] of groupOfPath) {
      route(
        `Any-${path}`.replace(/[{}]/g, '').replace(/\//g, '_'),
        HttpRouteKey.with(path, HttpMethod.ANY),
        group,
        false,
        `ANY ${path} only catches methods the path does not define; the ${group} function answers them 405 method_not_allowed with Allow and touches no data.`,
      );
    }
    route(
      'Default',
      HttpRouteKey.DEFAULT,
      DEFAULT_ROUTE_GROUP,
      false,
      `$default catches paths no operation defines; the ${DEFAULT_ROUTE_GROUP} function answers 404 not_found and touches no data.`,
    );

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      logGroupName: apiAccessLogGroupName(config),
      retention: config.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: API_THROTTLING.stage,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    const routeKeys = new Set(operations.map(([, op]) => `${op.method} ${op.path}`));
    const routeSettings: Record<string, CfnStage.RouteSettingsProperty> = {};
    for (const [routeKey, limits] of Object.entries(API_THROTTLING.routes)) {
      if (!routeKeys.has(routeKey)) throw new Error(`throttled route "${routeKey}" is not an operation`);
      routeSettings[routeKey] = {
        throttlingRateLimit: limits.rateLimit,
        throttlingBurstLimit: limits.burstLimit,
      };
    }
    (this.stage.node.defaultChild as CfnStage).routeSettings = routeSettings;
    // Route settings name routes, which must exist before the stage is updated.
    for (const r of this.routes) this.stage.node.addDependency(r);
  }
}
