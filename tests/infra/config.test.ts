import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS,
  FUNCTION_PROFILES,
  readConfig,
  stackNames,
} from '#infra/config';
import { visibilityTimeoutFor } from '#infra/constructs/queues';
import { ServiceFunction } from '#infra/constructs/service-function';

const appWith = (context: Record<string, unknown>) =>
  new App({ context: { 'aws:cdk:bundling-stacks': [], 'aws:cdk:disable-asset-staging': true, ...context } });

describe('deploy-time parameters (CDK context)', () => {
  it('defaults to stage dev, no alarm e-mail, a 60 s authorizer cache', () => {
    const config = readConfig(appWith({}));
    expect(config).toMatchObject({ stage: 'dev', prefix: 'dev-ops-platform', logLevel: 'INFO' });
    expect(config.alarmEmail).toBeUndefined();
    expect(config.authorizerCacheTtl.toSeconds()).toBe(DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS);
    expect(stackNames(config)).toEqual({
      stateful: 'dev-ops-platform-stateful',
      stateless: 'dev-ops-platform-stateless',
      apiRoutes: 'dev-ops-platform-api-routes',
    });
  });

  it('reads stage, alarm e-mail, cache TTL and log level', () => {
    const config = readConfig(
      appWith({
        stage: 'prod',
        alarmEmail: 'oncall@example.com',
        authorizerCacheTtlSeconds: '0',
        logLevel: 'warn',
      }),
    );
    expect(config).toMatchObject({
      stage: 'prod',
      prefix: 'prod-ops-platform',
      alarmEmail: 'oncall@example.com',
    });
    expect(config.authorizerCacheTtl.toSeconds()).toBe(0);
    expect(config.logLevel).toBe('WARN');
  });

  it.each([
    [{ stage: 'Prod' }, /stage/],
    [{ stage: 'a'.repeat(17) }, /stage/],
    [{ alarmEmail: 'not-an-email' }, /alarmEmail/],
    [{ authorizerCacheTtlSeconds: '3601' }, /authorizerCacheTtlSeconds/],
    [{ authorizerCacheTtlSeconds: 'soon' }, /authorizerCacheTtlSeconds/],
    [{ logLevel: 'TRACE' }, /logLevel/],
    [{ demoDistributionId: 'https://x' }, /demoDistributionId/],
    [{ cursorSecretVersionId: 'v1' }, /cursorSecretVersionId/],
    [{ xeroClientId: 'id with spaces' }, /xeroClientId/],
    [{ quickbooksClientId: 'short' }, /quickbooksClientId/],
    [{ oauthRedirectUrl: 'http://api.example.com/oauth/callback' }, /oauthRedirectUrl/],
    [{ oauthRedirectUrl: 'https://api.example.com/callback' }, /oauthRedirectUrl/],
  ])('refuses %j', (context, message) => {
    expect(() => readConfig(appWith(context))).toThrow(message);
  });

  it("reads the OAuth apps' client ids and callback URL, none by default", () => {
    expect(readConfig(appWith({})).oauth).toEqual({ clientIds: {} });
    expect(
      readConfig(
        appWith({
          xeroClientId: '0123456789ABCDEF0123456789ABCDEF',
          quickbooksClientId: 'ABqbo-client-id',
          oauthRedirectUrl: 'https://ops.example.com/oauth/callback',
        }),
      ).oauth,
    ).toEqual({
      clientIds: { xero: '0123456789ABCDEF0123456789ABCDEF', quickbooks_online: 'ABqbo-client-id' },
      redirectUrl: 'https://ops.example.com/oauth/callback',
    });
  });

  it('sets SQS visibility to 6x the consumer timeout', () => {
    expect(visibilityTimeoutFor(Duration.seconds(60)).toSeconds()).toBe(360);
    expect(visibilityTimeoutFor(FUNCTION_PROFILES.internalWorker.timeout).toSeconds()).toBe(
      6 * FUNCTION_PROFILES.internalWorker.timeout.toSeconds(),
    );
  });

  it("keeps API functions inside API Gateway's 30 s integration timeout", () => {
    expect(FUNCTION_PROFILES.api.timeout.toSeconds()).toBeLessThan(30);
    expect(FUNCTION_PROFILES.authorizer.timeout.toSeconds()).toBeLessThan(30);
  });
});

describe('cursor secret rotation', () => {
  const envOf = (context: Record<string, unknown>) => {
    const app = appWith(context);
    const config = readConfig(app);
    const stack = new Stack(app, 'S');
    const secret = new Secret(stack, 'Cursor');
    new ServiceFunction(stack, 'Fn', {
      config,
      name: 'authorizer',
      entry: 'authorizer/handler.ts',
      profile: 'authorizer',
      description: 'rotation test',
    }).bindCursorSecret(secret);
    const fn = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))[0] as {
      Properties: { Environment: { Variables: Record<string, unknown> } };
    };
    return JSON.stringify(fn.Properties.Environment.Variables.OPS_CURSOR_SECRET);
  };

  it('resolves the current version by default', () => {
    expect(envOf({})).toMatch(/\{\{resolve:secretsmanager:.*:SecretString:::\}\}/);
  });

  it('pins the version given as cursorSecretVersionId, so a deploy after rotation picks the new value', () => {
    const versionId = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
    expect(envOf({ cursorSecretVersionId: versionId })).toContain(`:SecretString:::${versionId}}}`);
  });
});
