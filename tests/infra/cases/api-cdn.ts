import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { API_THROTTLING, DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS, LOGIN_PEAK_PER_SECOND } from '#infra/config';
import { ACCESS_LOG_FIELDS, DEFAULT_ROUTE_GROUP } from '#infra/constructs/service-api';
import { OPERATIONS } from '#shared/api/manifest';
import { demoSiteSecurityHeaders } from '#shared/demo/site-headers';
import { type Cfn, resourcesOf, type Synthesized, TEST_STAGE } from '#tests/infra/synth';

/** The HTTP API built from OPERATIONS, its authorizer, stage and CORS; the demo CDN; stack outputs. */
export function apiAndCdnCases(s: Synthesized): void {
  // The API itself, the CDN and the outputs are the stateless stack's; routes, authorizer,
  // integrations, permissions and stage are the api-routes stack's (`r`).
  const { statelessTemplate: t, apiRoutesTemplate: r } = s;
  const prefix = `${TEST_STAGE}-ops-platform`;
  const resources = r.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, Cfn> }>;

  const routes = resourcesOf(r, 'AWS::ApiGatewayV2::Route');
  const routeByKey = new Map(routes.map(([, p]) => [p.RouteKey as string, p]));
  /** The functions are named in the ARN, not referenced: the name is fixed from the stage. */
  const functionNamed = (arn: Cfn): string => JSON.stringify(arn).match(/:function:([a-z0-9-]+)/)![1]!;
  const integrationFunction = (route: Record<string, Cfn>): string => {
    const integrationId = JSON.stringify(route.Target).match(/"Ref":"([A-Za-z0-9]+)"/)![1]!;
    return functionNamed(resources[integrationId]!.Properties.IntegrationUri);
  };
  const [authorizerId, authorizer] = resourcesOf(r, 'AWS::ApiGatewayV2::Authorizer')[0]!;
  const distinctPaths = [...new Set(Object.values(OPERATIONS).map((o) => o.path))];

  describe('HTTP API (API Gateway v2)', () => {
    it('is an HTTP API, not REST', () => {
      expect(resourcesOf(t, 'AWS::ApiGateway::RestApi')).toHaveLength(0);
      t.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP', Name: `${prefix}-api` });
    });

    it('has exactly: one route per operation, one ANY route per path, and $default', () => {
      expect(routes).toHaveLength(Object.keys(OPERATIONS).length + distinctPaths.length + 1);
    });

    it.each(Object.entries(OPERATIONS))(
      '%s: routed to its group function, authorizer iff bearer',
      (_, op) => {
        const route = routeByKey.get(`${op.method} ${op.path}`);
        expect(route).toBeDefined();
        expect(integrationFunction(route!)).toBe(`${prefix}-api-${op.group}`);
        if (op.auth === 'bearer') {
          expect(route!.AuthorizationType).toBe('CUSTOM');
          expect(route!.AuthorizerId).toEqual({ Ref: authorizerId });
        } else {
          expect(route!.AuthorizationType ?? 'NONE').toBe('NONE');
          expect(route!.AuthorizerId).toBeUndefined();
        }
      },
    );

    it.each(distinctPaths)('ANY %s reaches the same function without authorizer (405 with Allow)', (path) => {
      const route = routeByKey.get(`ANY ${path}`);
      expect(route).toBeDefined();
      const group = Object.values(OPERATIONS).find((o) => o.path === path)!.group;
      expect(integrationFunction(route!)).toBe(`${prefix}-api-${group}`);
      expect(route!.AuthorizerId).toBeUndefined();
    });

    it('sends $default to the public function (404 problem+json)', () => {
      const route = routeByKey.get('$default');
      expect(integrationFunction(route!)).toBe(`${prefix}-api-${DEFAULT_ROUTE_GROUP}`);
      expect(route!.AuthorizerId).toBeUndefined();
    });

    it('uses payload format 2.0 and one invoke permission per function, not per route', () => {
      for (const [, p] of resourcesOf(r, 'AWS::ApiGatewayV2::Integration')) {
        expect(p).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
      }
      const apiPermissions = resourcesOf(r, 'AWS::Lambda::Permission').filter(
        ([, p]) => p.Principal === 'apigateway.amazonaws.com',
      );
      // One per route-group function plus the authorizer's.
      const groups = new Set(Object.values(OPERATIONS).map((o) => o.group));
      expect(apiPermissions).toHaveLength(groups.size + 1);
    });

    it('has a REQUEST authorizer with simple responses, the Authorization header, and a cached result', () => {
      expect(authorizer).toMatchObject({
        AuthorizerType: 'REQUEST',
        EnableSimpleResponses: true,
        AuthorizerPayloadFormatVersion: '2.0',
        IdentitySource: ['$request.header.Authorization'],
        AuthorizerResultTtlInSeconds: DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS,
      });
      expect(functionNamed(authorizer.AuthorizerUri)).toBe(`${prefix}-authorizer`);
    });

    it('logs every request as JSON to a log group with a retention', () => {
      const [, stage] = resourcesOf(r, 'AWS::ApiGatewayV2::Stage')[0]!;
      expect(JSON.parse(stage.AccessLogSettings.Format)).toEqual(ACCESS_LOG_FIELDS);
      expect(JSON.parse(stage.AccessLogSettings.Format).requestId).toBe('$context.requestId');
      const logGroupId = stage.AccessLogSettings.DestinationArn['Fn::GetAtt'][0];
      expect(resources[logGroupId]!.Properties.RetentionInDays).toBeGreaterThan(0);
    });

    it('throttles the stage and, tighter, the login route', () => {
      const [, stage] = resourcesOf(r, 'AWS::ApiGatewayV2::Stage')[0]!;
      expect(stage).toMatchObject({ StageName: '$default', AutoDeploy: true });
      expect(stage.DefaultRouteSettings).toEqual({
        ThrottlingRateLimit: API_THROTTLING.stage.rateLimit,
        ThrottlingBurstLimit: API_THROTTLING.stage.burstLimit,
      });
      const login = stage.RouteSettings['POST /auth/sessions'];
      expect(login.throttlingRateLimit).toBeLessThan(API_THROTTLING.stage.rateLimit);
      expect(login.throttlingBurstLimit).toBeLessThan(API_THROTTLING.stage.burstLimit);
      // Shared by every client: a login rush must fit under it with room to spare.
      expect(login.throttlingRateLimit).toBeGreaterThanOrEqual(1.2 * LOGIN_PEAK_PER_SECOND);
      expect(login.throttlingBurstLimit).toBeGreaterThanOrEqual(2 * LOGIN_PEAK_PER_SECOND);
      for (const key of Object.keys(stage.RouteSettings)) expect(routeByKey.has(key), key).toBe(true);
    });

    it('deploys the stage after the routes its settings name', () => {
      const [stageId] = resourcesOf(r, 'AWS::ApiGatewayV2::Stage')[0]!;
      const dependsOn = (r.toJSON().Resources[stageId].DependsOn ?? []) as string[];
      for (const [routeId] of routes) expect(dependsOn).toContain(routeId);
    });

    it("allows CORS from the demo site's origin only", () => {
      const [, api] = resourcesOf(t, 'AWS::ApiGatewayV2::Api')[0]!;
      const cors = api.CorsConfiguration;
      expect(cors.AllowOrigins).toHaveLength(1);
      const [distributionId] = resourcesOf(t, 'AWS::CloudFront::Distribution')[0]!;
      expect(cors.AllowOrigins[0]).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]],
      });
      expect(JSON.stringify(cors.AllowOrigins)).not.toContain('*');
      expect(cors.AllowHeaders).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
      );
      expect(cors.AllowCredentials ?? false).toBe(false);
      // A browser client reads a deprecation (docs/api.md section 12) as any other client does.
      expect(cors.ExposeHeaders).toEqual(expect.arrayContaining(['deprecation', 'sunset', 'link']));
    });
  });

  describe('demo site CDN', () => {
    const [distributionId, distribution] = resourcesOf(t, 'AWS::CloudFront::Distribution')[0]!;
    const config = distribution.DistributionConfig;

    it('serves the private demo bucket through origin access control, never an OAI or a website endpoint', () => {
      const [oacId, oac] = resourcesOf(t, 'AWS::CloudFront::OriginAccessControl')[0]!;
      expect(oac.OriginAccessControlConfig).toMatchObject({
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      });
      expect(config.Origins).toHaveLength(1);
      expect(config.Origins[0].OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
      expect(config.Origins[0].S3OriginConfig.OriginAccessIdentity).toBe('');
      // The bucket's regional REST endpoint (not a website endpoint), by its fixed name.
      expect(JSON.stringify(config.Origins[0].DomainName)).toBe(
        JSON.stringify({
          'Fn::Join': [
            '',
            [
              `${prefix}-demo-`,
              { Ref: 'AWS::AccountId' },
              '-',
              { Ref: 'AWS::Region' },
              '.s3.',
              { Ref: 'AWS::Region' },
              '.',
              { Ref: 'AWS::URLSuffix' },
            ],
          ],
        }),
      );
    });

    it('is HTTPS only, GET/HEAD only, with the security-headers policy', () => {
      const [policyId] = resourcesOf(t, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
      expect(config.DefaultCacheBehavior).toMatchObject({
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD'],
        ResponseHeadersPolicyId: { Ref: policyId },
      });
      expect(config.DefaultRootObject).toBe('index.html');
      expect(config.Logging.Prefix).toBe('cloudfront/demo-site/');
    });

    it('sends HSTS, CSP, nosniff, frame DENY, a referrer policy and XSS protection', () => {
      t.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
        ResponseHeadersPolicyConfig: {
          SecurityHeadersConfig: {
            StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 31536000, Override: true }),
            ContentSecurityPolicy: Match.objectLike({ Override: true }),
            ContentTypeOptions: { Override: true },
            FrameOptions: { FrameOption: 'DENY', Override: true },
            ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
            XSSProtection: Match.objectLike({ Protection: true, ModeBlock: true }),
          },
        },
      });
      const [, policy] = resourcesOf(t, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
      const csp = JSON.stringify(
        policy.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy,
      );
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
    });

    it('sends exactly the headers of shared/demo/site-headers.ts, which the local runtime sends too', () => {
      const [, policy] = resourcesOf(t, 'AWS::CloudFront::ResponseHeadersPolicy')[0]!;
      const c = policy.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
      const region = (part: Cfn): string => {
        if (typeof part === 'string') return part;
        expect(part).toEqual({ Ref: 'AWS::Region' });
        return '<region>';
      };
      const csp = c.ContentSecurityPolicy.ContentSecurityPolicy;
      // The headers CloudFront writes from the policy.
      expect({
        'content-security-policy': typeof csp === 'string' ? csp : csp['Fn::Join'][1].map(region).join(''),
        'strict-transport-security': `max-age=${c.StrictTransportSecurity.AccessControlMaxAgeSec}${c.StrictTransportSecurity.IncludeSubdomains ? '; includeSubDomains' : ''}`,
        ...(c.ContentTypeOptions ? { 'x-content-type-options': 'nosniff' } : {}),
        'x-frame-options': c.FrameOptions.FrameOption,
        'referrer-policy': c.ReferrerPolicy.ReferrerPolicy,
        'x-xss-protection': `${c.XSSProtection.Protection ? 1 : 0}${c.XSSProtection.ModeBlock ? '; mode=block' : ''}`,
      }).toEqual(demoSiteSecurityHeaders('https://*.execute-api.<region>.amazonaws.com'));
    });

    it('deploys demo-static/ and config.json with the API URL, pruning and invalidating', () => {
      const [, deployment] = resourcesOf(t, 'Custom::CDKBucketDeployment')[0]!;
      expect(deployment.SourceObjectKeys).toHaveLength(2);
      expect(deployment.Prune).toBe(true);
      expect(deployment.RetainOnDelete).toBe(false);
      expect(deployment.DistributionId).toEqual({ Ref: distributionId });
      expect(deployment.DistributionPaths).toEqual(['/*']);
      // config.json's apiUrl is filled in at deploy time from the API's endpoint.
      const [apiId] = resourcesOf(t, 'AWS::ApiGatewayV2::Api')[0]!;
      expect(Object.values(deployment.SourceMarkers[1])).toEqual(
        expect.arrayContaining([{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }]),
      );
    });
  });

  describe('stack outputs', () => {
    it('name the API, the demo site, the dashboard and the alarms', () => {
      const outputs = t.toJSON().Outputs as Record<string, unknown>;
      for (const name of ['ApiUrl', 'DemoSiteUrl', 'DemoDistributionId', 'DashboardUrl', 'AlarmsUrl']) {
        expect(outputs[name], name).toBeDefined();
      }
      expect(JSON.stringify(outputs.DashboardUrl)).toContain(`dashboards/dashboard/${prefix}`);
    });
  });
}
