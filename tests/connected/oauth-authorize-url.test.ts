import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import { APP_SECRETS_TENANT, oauthProvider } from '#functions/adapters/oauth-provider';
import { consentStore } from '#functions/adapters/oauth-store';
import { authorizeConnection } from '#shared/domain/oauth/connect';
import { sha256 } from '#shared/kernel/secrets';
import { type OAuthProviderName, SANDBOX_APPS } from '#local/oauth-sandbox';
import { principal } from '#tests/support/fixtures';
import { accountingConnection, type OAuthWorld, oauthWorld } from '#tests/support/oauth';

/**
 * The consent URL of each provider as its documentation gives it for the service's app type, a
 * web app with a client secret (docs/connecting-accounting.md, "Consent flow"): Xero's standard
 * authorization code flow and Intuit's authorization code flow, neither with PKCE; the pending
 * consent keeps no verifier. Over DynamoDB Local with the real provider adapter.
 */

let world: OAuthWorld;
const clock = { now: () => new Date() };
const manager = principal('manager-1', {}, true);

beforeAll(async () => {
  world = await oauthWorld('xero');
  world.settings = {
    ...world.settings,
    clientIds: { ...world.settings.clientIds, quickbooks_online: SANDBOX_APPS.quickbooks_online.client_id },
  };
  await world.secrets.put(APP_SECRETS_TENANT, 'quickbooks_online', {
    client_secret: SANDBOX_APPS.quickbooks_online.client_secret,
  });
});
afterAll(() => world?.sandbox.stop());

const CASES: [OAuthProviderName, string[], string][] = [
  ['xero', ['accounting.transactions'], 'accounting.transactions offline_access'],
  ['quickbooks_online', ['com.intuit.quickbooks.accounting'], 'com.intuit.quickbooks.accounting'],
];

describe('the authorize URL', () => {
  it.each(CASES)(
    '%s: authorization code with the client id, redirect URI, scopes and state; no PKCE',
    async (provider, scopes, scope) => {
      const c = await accountingConnection(world.db, clock, {
        adapter_key: provider,
        name: provider,
        scopes,
        config: provider === 'xero' ? { sales_account_code: '200' } : { customer_id: '58', item_id: '1' },
      });
      const consents = consentStore(world.db);
      const { authorize_url } = await authorizeConnection(
        {
          connections: connectionStore(world.db),
          consents,
          provider: oauthProvider(world.settings, world.secrets),
          clock,
        },
        manager,
        c.tenant_id,
        c.id,
      );
      const url = new URL(authorize_url);
      expect(`${url.origin}${url.pathname}`).toBe(`${world.sandbox.url}/${provider}/oauth/authorize`);
      const params = Object.fromEntries(url.searchParams);
      expect(Object.keys(params).sort()).toEqual([
        'client_id',
        'redirect_uri',
        'response_type',
        'scope',
        'state',
      ]);
      expect(params).toMatchObject({
        response_type: 'code',
        client_id: SANDBOX_APPS[provider].client_id,
        redirect_uri: world.settings.redirectUrl,
        scope,
      });
      const pending = await consents.take(sha256(params.state!));
      expect(pending).toMatchObject({ connection_id: c.id, adapter_key: provider, code_verifier: null });
    },
  );
});
