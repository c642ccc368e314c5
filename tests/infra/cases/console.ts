import { describe, expect, it } from 'vitest';
import { consoleSecurityHeaders } from '#shared/console/site-headers';
import { CONSOLE_ROUTES_FUNCTION } from '#infra/constructs/console-site';
import { type Cfn, resourcesOf, type Synthesized } from '../synth';

/**
 * The operator console in the cloud (docs/decisions.md, "The operator console"): served from the
 * demo site's private bucket under /console/ by the same distribution, with its own CSP, deep
 * links answered by its index.html, deployed beside the demo without either pruning the other,
 * and reaching the API cross-origin through CORS that allows this distribution's origin only.
 */
export function consoleCases(service: Synthesized) {
  const t = service.statelessTemplate;
  const [distributionId, distribution] = resourcesOf(t, 'AWS::CloudFront::Distribution')[0]!;
  const config = distribution.DistributionConfig;
  const behaviour = (config.CacheBehaviors ?? []).find((b: Cfn) => b.PathPattern === '/console/*');
  const policies = resourcesOf(t, 'AWS::CloudFront::ResponseHeadersPolicy');
  const consolePolicy = policies.find(([, p]) =>
    String(p.ResponseHeadersPolicyConfig.Name).endsWith('-console-security-headers'),
  );
  const deployments = resourcesOf(t, 'Custom::CDKBucketDeployment');
  const consoleDeployment = deployments.find(([, d]) => d.DestinationBucketKeyPrefix === 'console/');

  describe('operator console', () => {
    it('is a behaviour of the demo distribution on the same private bucket: HTTPS, GET/HEAD, compressed', () => {
      expect(behaviour).toBeDefined();
      expect(behaviour).toMatchObject({
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD'],
        Compress: true,
        TargetOriginId: config.Origins[0].Id,
      });
      expect(config.Origins).toHaveLength(1);
    });

    it('sends the CSP of shared/console/site-headers.ts (the local runtime sends the same)', () => {
      expect(consolePolicy).toBeDefined();
      const [policyId, policy] = consolePolicy!;
      expect(behaviour.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
      const c = policy.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
      const csp = c.ContentSecurityPolicy.ContentSecurityPolicy;
      const text = (csp['Fn::Join'][1] as Cfn[])
        .map((part) =>
          typeof part === 'string' ? part : (expect(part).toEqual({ Ref: 'AWS::Region' }), '<region>'),
        )
        .join('');
      const api = 'https://*.execute-api.<region>.amazonaws.com';
      const local = consoleSecurityHeaders(api);
      expect({
        'content-security-policy': text,
        'strict-transport-security': `max-age=${c.StrictTransportSecurity.AccessControlMaxAgeSec}${c.StrictTransportSecurity.IncludeSubdomains ? '; includeSubDomains' : ''}`,
        'x-content-type-options': c.ContentTypeOptions.Override ? 'nosniff' : '',
        'x-frame-options': c.FrameOptions.FrameOption,
        'referrer-policy': c.ReferrerPolicy.ReferrerPolicy,
      }).toEqual(local);
      // Scripts and styles from the console's own origin only; no inline script, no other origin.
      expect(text).toContain("script-src 'self';");
      expect(text).toContain("style-src 'self';");
      expect(text).toContain(`connect-src 'self' ${api};`);
      expect(text).not.toContain('unsafe');
      expect(Object.values(c).every((h: Cfn) => h.Override === true)).toBe(true);
    });

    it("answers a deep link with the app's index.html, and a file as itself", () => {
      const [fnId, fn] = resourcesOf(t, 'AWS::CloudFront::Function')[0]!;
      expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
      expect(fn.FunctionCode).toBe(CONSOLE_ROUTES_FUNCTION);
      expect(behaviour.FunctionAssociations).toEqual([
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [fnId, 'FunctionARN'] } },
      ]);
      // The function's own source, run as CloudFront runs it.
      const handler = new Function(`${CONSOLE_ROUTES_FUNCTION}; return handler;`)() as (e: Cfn) => Cfn;
      const uri = (u: string) => handler({ request: { uri: u } }).uri;
      expect(uri('/console/t/acme/exceptions/01a2')).toBe('/console/index.html');
      expect(uri('/console/')).toBe('/console/index.html');
      expect(uri('/console/app.js')).toBe('/console/app.js');
      expect(uri('/console/config.json')).toBe('/console/config.json');
    });

    it("deploys under console/ with the API's URL in config.json; the demo's deployment leaves it alone", () => {
      expect(consoleDeployment).toBeDefined();
      const [, d] = consoleDeployment!;
      expect(d.Prune).toBe(true);
      expect(d.DistributionId).toEqual({ Ref: distributionId });
      expect(d.DistributionPaths).toEqual(['/console/*']);
      const [apiId] = resourcesOf(t, 'AWS::ApiGatewayV2::Api')[0]!;
      expect(Object.values(d.SourceMarkers[1])).toEqual(
        expect.arrayContaining([{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }]),
      );
      const demo = deployments.find(([, x]) => x.DestinationBucketKeyPrefix === undefined);
      expect(demo?.[1].Exclude).toEqual(['console/*']);
      expect(d.DestinationBucketName).toEqual(demo?.[1].DestinationBucketName);
    });

    it("reaches the API through CORS that allows this distribution's origin, the console's, only", () => {
      const [, api] = resourcesOf(t, 'AWS::ApiGatewayV2::Api')[0]!;
      expect(api.CorsConfiguration.AllowOrigins).toEqual([
        { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] },
      ]);
      expect(api.CorsConfiguration.AllowHeaders).toEqual(
        expect.arrayContaining(['authorization', 'content-type']),
      );
      expect(api.CorsConfiguration.AllowMethods).toEqual(
        expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']),
      );
      // No cookie or credential crosses: the console sends its bearer token in a header.
      expect(api.CorsConfiguration.AllowCredentials ?? false).toBe(false);
    });
  });
}
