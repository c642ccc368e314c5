import { describe, expect, it } from 'vitest';
import { OAUTH_APPS_PATH } from '#infra/constructs/function-grants';
import { APP_SECRETS_TENANT } from '#functions/adapters/oauth-provider';
import { GROUPS } from '#shared/api/manifest';
import { type Cfn, resourcesOf, type Synthesized, TEST_STAGE } from '#tests/infra/synth';

/** The context the service test synthesizes with: one client id per provider. */
export const OAUTH_TEST_CONTEXT = {
  xeroClientId: '0123456789ABCDEF0123456789ABCDEF',
  quickbooksClientId: 'ABntestQuickBooksClientId0001',
};

interface Grant {
  effect: 'Allow' | 'Deny';
  action: string;
  resource: string;
  condition?: Cfn;
}

/**
 * Connection secrets, OAuth 2 token pairs among them, and the OAuth apps' settings: who may read,
 * overwrite or delete a secret, and which functions get a client id or the callback URL.
 */
export function oauthCases(s: Synthesized): void {
  const t = s.statelessTemplate;
  const prefix = `${TEST_STAGE}-ops-platform`;
  const fnOf = (short: string): Cfn => {
    const found = resourcesOf(t, 'AWS::Lambda::Function').find(
      ([, p]) => p.FunctionName === `${prefix}-${short}`,
    );
    if (!found) throw new Error(`function ${short} not found`);
    return found[1];
  };
  const grantsOf = (short: string): Grant[] => {
    const roleId = fnOf(short).Role['Fn::GetAtt'][0];
    return resourcesOf(t, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Roles.some((r: Cfn) => r.Ref === roleId))
      .flatMap(([, p]) => p.PolicyDocument.Statement as Cfn[])
      .flatMap((st) =>
        [st.Action].flat().flatMap((action: string) =>
          [st.Resource].flat().map((r) => ({
            effect: st.Effect,
            action,
            resource: JSON.stringify(r),
            condition: st.Condition,
          })),
        ),
      );
  };
  const CONNECTIONS = `:parameter/ops-platform/${TEST_STAGE}/connections/*`;
  const APPS = `:parameter/ops-platform/${TEST_STAGE}/connections/${OAUTH_APPS_PATH}/*`;
  const secretGrants = (short: string) => {
    const g = grantsOf(short);
    const actions = (effect: string, path: string) =>
      g
        .filter((x) => x.effect === effect && x.action.startsWith('ssm:') && x.resource.includes(path))
        .map((x) => x.action)
        .sort();
    return {
      ssm: actions('Allow', CONNECTIONS),
      denied: actions('Deny', APPS),
      kms: g.filter((x) => x.action.startsWith('kms:') && x.resource.includes('ConnectionSecretsKey')),
      otherSsm: g.filter(
        (x) => x.action.startsWith('ssm:') && !x.resource.includes(CONNECTIONS) && !x.resource.includes(APPS),
      ),
      otherKms: g.filter((x) => x.action.startsWith('kms:') && !x.resource.includes('ConnectionSecretsKey')),
    };
  };
  const envOf = (short: string): Record<string, Cfn> => fnOf(short).Environment.Variables;
  const functionNames = resourcesOf(t, 'AWS::Lambda::Function')
    .map(([, p]) => String(p.FunctionName ?? ''))
    .filter((n) => n.startsWith(prefix))
    .map((n) => n.slice(prefix.length + 1));

  describe('connection secrets and OAuth 2 apps', () => {
    const ROTATE = ['worker-internal', 'worker-external', 'api-oauth'];
    /** The API groups that store secrets they never read back: connections', webhook endpoints'. */
    const WRITE_ONLY = ['api-integrations', 'api-webhooks'];

    it('the apps path is the one the functions read client secrets from', () => {
      expect(OAUTH_APPS_PATH).toBe(APP_SECRETS_TENANT);
    });

    it.each(WRITE_ONLY)('%s puts and deletes (encrypt only) and never reads a secret back', (name) => {
      const hub = secretGrants(name);
      expect(hub.ssm).toEqual(['ssm:DeleteParameter', 'ssm:PutParameter']);
      expect(hub.kms.map((x) => x.action).sort()).toEqual(['kms:Encrypt', 'kms:GenerateDataKey']);
      expect(envOf(name).OPS_CONNECTION_SECRETS).toBe(`ssm:/ops-platform/${TEST_STAGE}/connections/`);
    });

    it.each(ROTATE)(
      '%s reads and overwrites (token rotation), never deletes, with the service key via SSM',
      (name) => {
        const g = secretGrants(name);
        expect(g.ssm).toEqual(['ssm:GetParameter', 'ssm:PutParameter']);
        expect(g.kms.map((x) => x.action).sort()).toEqual([
          'kms:Decrypt',
          'kms:Encrypt',
          'kms:GenerateDataKey',
        ]);
        expect(envOf(name).OPS_CONNECTION_SECRETS).toBe(`ssm:/ops-platform/${TEST_STAGE}/connections/`);
        expect(envOf(name).OPS_CONNECTION_SECRETS_KMS_KEY).toBeDefined();
      },
    );

    it.each([...WRITE_ONLY, ...ROTATE])(
      "%s may neither overwrite nor delete the OAuth apps' client secrets; KMS only through SSM on that path",
      (name) => {
        const g = secretGrants(name);
        expect(g.denied).toEqual(['ssm:DeleteParameter', 'ssm:PutParameter']);
        for (const x of g.kms)
          expect(x.condition).toMatchObject({
            StringEquals: { 'kms:ViaService': expect.anything() },
            StringLike: { 'kms:EncryptionContext:PARAMETER_ARN': expect.anything() },
          });
        expect(g.otherSsm).toEqual([]);
        expect(g.otherKms).toEqual([]);
      },
    );

    it('no other function touches SSM or the key (the API never reads a token pair)', () => {
      const others = functionNames.filter((n) => !WRITE_ONLY.includes(n) && !ROTATE.includes(n));
      expect(others).toContain('api-accounting');
      for (const name of others)
        expect(
          grantsOf(name).filter((x) => x.action.startsWith('ssm:') || x.action.startsWith('kms:')),
          name,
        ).toEqual([]);
    });

    it('client ids go where consent URLs are built or tokens are asked for; nowhere else', () => {
      const withIds = ['api-integrations', 'api-oauth', 'worker-internal', 'worker-external'];
      for (const name of withIds)
        expect(envOf(name), name).toMatchObject({
          OPS_XERO_CLIENT_ID: OAUTH_TEST_CONTEXT.xeroClientId,
          OPS_QUICKBOOKS_CLIENT_ID: OAUTH_TEST_CONTEXT.quickbooksClientId,
        });
      for (const name of functionNames.filter((n) => !withIds.includes(n))) {
        expect(envOf(name).OPS_XERO_CLIENT_ID, name).toBeUndefined();
        expect(envOf(name).OPS_OAUTH_REDIRECT_URL, name).toBeUndefined();
      }
    });

    it("the callback URL (the HTTP API's /oauth/callback) reaches authorize and the callback only", () => {
      const apiId = resourcesOf(t, 'AWS::ApiGatewayV2::Api')[0]![0];
      for (const name of ['api-integrations', 'api-oauth']) {
        const url = JSON.stringify(envOf(name).OPS_OAUTH_REDIRECT_URL);
        expect(url, name).toContain(apiId);
        expect(url, name).toMatch(/\/oauth\/callback"/);
      }
      for (const name of ['worker-internal', 'worker-external'])
        expect(envOf(name).OPS_OAUTH_REDIRECT_URL, name).toBeUndefined();
    });

    it("the console's URL (where authorize's return_to may point) is the demo site's /console/, for authorize only", () => {
      const distributionId = resourcesOf(t, 'AWS::CloudFront::Distribution')[0]![0];
      const url = JSON.stringify(envOf('api-integrations').OPS_CONSOLE_URL);
      expect(url).toContain(distributionId);
      expect(url).toMatch(/\/console\/"/);
      for (const name of functionNames.filter((n) => n !== 'api-integrations'))
        expect(envOf(name).OPS_CONSOLE_URL, name).toBeUndefined();
    });

    it('no gateway setting: the cloud reaches the providers at their documented URLs', () => {
      for (const name of functionNames) {
        const env = envOf(name);
        expect(env.OPS_HUB_PROVIDER_URL, name).toBeUndefined();
        expect(env.OPS_OAUTH_SANDBOX_URL, name).toBeUndefined();
      }
      expect(GROUPS).toContain('oauth');
    });
  });
}
