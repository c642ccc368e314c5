import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
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
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { API_THROTTLING, type DeploymentConfig } from '#infra/config';
import type { ServiceFunction } from './service-function';

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
  /** One function per route group (GROUPS in shared/api/manifest.ts). */
  readonly groups: Readonly<Record<string, ServiceFunction>>;
  readonly authorizer: ServiceFunction;
  /** The only origin CORS allows: the demo site's. */
  readonly allowedOrigin: string;
}

/**
 * The HTTP API (API Gateway v2). Routes come from the OPERATIONS manifest:
 * - `METHOD path` per operation, to its group's function, with the Lambda authorizer iff the
 *   operation is `bearer`;
 * - `ANY path` per distinct path, no authorizer, to the same function, so a wrong method
 *   reaches the function and gets 405 with `Allow`;
 * - `$default` to the public function, which answers 404.
 */
export class ServiceApi extends Construct {
  readonly httpApi: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;
  readonly routes: HttpRoute[] = [];
  /** `https://<id>.execute-api.<region>.amazonaws.com` */
  readonly url: string;

  constructor(scope: Construct, id: string, props: ServiceApiProps) {
    super(scope, id);
    const { config } = props;
    const operations: [string, Operation][] = Object.entries(OPERATIONS);

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
        exposeHeaders: ['x-request-id', 'allow', 'retry-after', 'etag', 'location', 'www-authenticate'],
        maxAge: Duration.hours(1),
      },
    });

    const authorizer = new HttpLambdaAuthorizer('BearerAuthorizer', props.authorizer.handle, {
      authorizerName: `${config.prefix}-bearer`,
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: ['$request.header.Authorization'],
      resultsCacheTtl: config.authorizerCacheTtl,
    });

    const integrations = new Map<string, HttpLambdaIntegration>();
    const integrationOf = (group: string): HttpLambdaIntegration => {
      const fn = props.groups[group];
      if (!fn) throw new Error(`no function for route group "${group}"`);
      let integration = integrations.get(group);
      if (!integration) {
        // One invoke permission per function for the whole API rather than one per route.
        integration = new HttpLambdaIntegration(`${group}-integration`, fn.handle, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
          scopePermissionToRoute: false,
        });
        integrations.set(group, integration);
      }
      return integration;
    };
    const route = (routeId: string, routeKey: HttpRouteKey, group: string, bearer: boolean, why: string) => {
      const r = new HttpRoute(this, routeId, {
        httpApi: this.httpApi,
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
      logGroupName: `/aws/http-api/${config.prefix}-api`,
      retention: config.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: this.httpApi,
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

    this.url = this.stage.url;
  }
}
