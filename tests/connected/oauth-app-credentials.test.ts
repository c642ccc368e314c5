import { Metrics } from '@aws-lambda-powertools/metrics';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import { hubStore } from '#functions/adapters/hub-store';
import { APP_SECRETS_TENANT } from '#functions/adapters/oauth-provider';
import { oauthTokenDeps } from '#functions/adapters/oauth-tokens';
import { computeHealth } from '#shared/domain/integrations/health';
import type { Connection } from '#shared/domain/integrations/ports';
import { APP_REFUSED_RETRY_SECONDS, fireOAuthRefresh } from '#shared/domain/oauth/refresh-timer';
import { accessToken, type TokenDeps } from '#shared/domain/oauth/tokens';
import { METRICS } from '#shared/kernel/names';
import { SANDBOX_APPS, SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import { accountingConnection, type OAuthWorld, oauthWorld, storeConsentedPair } from '#tests/support/oauth';

/**
 * A wrong app secret is not a revoked consent (docs/api.md, "Connecting an accounting system"),
 * on DynamoDB Local against the sandbox's Xero, whose token endpoint answers 401 invalid_client
 * to a wrong client secret: the connection keeps its tokens, its health says
 * `app_credentials_invalid`, the alarm's metric is counted, and once the secret is fixed the next
 * refresh heals it. A refused refresh token (invalid_grant) still drops the pair.
 */

let world: OAuthWorld;
const clock = { now: () => new Date() };

beforeAll(async () => {
  world = await oauthWorld('xero');
});
afterAll(() => world?.sandbox.stop());

const setAppSecret = (secret: string) =>
  world.secrets.put(APP_SECRETS_TENANT, 'xero', { client_secret: secret });

async function connected(): Promise<Connection> {
  const c = await accountingConnection(world.db, clock, {
    adapter_key: 'xero',
    name: 'Xero books',
    scopes: ['accounting.transactions'],
    config: { sales_account_code: '200', organisation_id: SANDBOX_ORGANISATIONS.xero.tenantId },
  });
  // Stale: the next use refreshes.
  await storeConsentedPair(world, c, () => new Date(Date.now() - 1000));
  return c;
}

const deps = (): TokenDeps => oauthTokenDeps(world.db, world.settings, world.secrets, clock);
const health = async (c: Connection) =>
  computeHealth(await hubStore(world.db).health(c.tenant_id, c.id), 60, clock.now());
const lastTokenCall = () => world.sandbox.oauth.tokenCalls.at(-1);

describe('the token endpoint refuses the app (invalid_client)', () => {
  it('keeps the tokens, marks the health app_credentials_invalid, counts the alarm metric; the fixed secret heals it', async () => {
    const c = await connected();
    const before = (await world.secrets.read(c.tenant_id, c.id))!;
    const added = vi.spyOn(Metrics.prototype, 'addMetric');
    await setAppSecret('a-wrong-secret');
    try {
      expect(await accessToken(deps(), c)).toEqual({ ok: false, error: 'app_credentials_invalid' });
      expect(lastTokenCall()).toMatchObject({
        grant_type: 'refresh_token',
        status: 401,
        error: 'invalid_client',
      });
      // The pair is untouched and still good at the provider.
      expect(await world.secrets.read(c.tenant_id, c.id)).toEqual(before);
      expect(world.sandbox.oauth.validRefreshToken(before.refresh_token!)).toBe(true);
      expect(await health(c)).toMatchObject({ state: 'failing', reason: 'app_credentials_invalid' });
      const record = (await hubStore(world.db).health(c.tenant_id, c.id))!;
      expect(record.open_issue_codes).toEqual([]);
      expect(added.mock.calls.filter(([name]) => name === METRICS.oauthAppCredentialsInvalid)).toEqual([
        [METRICS.oauthAppCredentialsInvalid, 'Count', 1],
      ]);
      // A second refusal keeps when it began.
      const since = record.app_credentials_invalid_since;
      expect(await accessToken(deps(), c)).toEqual({ ok: false, error: 'app_credentials_invalid' });
      expect((await hubStore(world.db).health(c.tenant_id, c.id))!.app_credentials_invalid_since).toBe(since);
    } finally {
      added.mockRestore();
      await setAppSecret(SANDBOX_APPS.xero.client_secret);
    }
    // The operator fixed the secret: the next refresh succeeds and clears the reason.
    const healed = await accessToken(deps(), c);
    expect(healed.ok).toBe(true);
    const after = (await world.secrets.read(c.tenant_id, c.id))!;
    expect(after.generation).toBe('2');
    expect(
      (await hubStore(world.db).health(c.tenant_id, c.id))!.app_credentials_invalid_since,
    ).toBeUndefined();
    expect((await health(c)).reason).not.toBe('app_credentials_invalid');
  });

  it("the refresh timer's firing keeps the pair and comes back in 15 minutes, so an idle connection heals too", async () => {
    const c = await connected();
    const armRefresh = vi.fn(async () => {});
    await setAppSecret('a-wrong-secret');
    try {
      const firing = await fireOAuthRefresh(
        { connections: connectionStore(world.db), tokens: { ...deps(), armRefresh } },
        {
          id: `oauth_refresh:${c.id}`,
          tenant_id: c.tenant_id,
          kind: 'oauth_refresh',
          subject_type: 'integration_connection',
          subject_id: c.id,
          due_at: clock.now().toISOString(),
        },
      );
      expect(firing).toBe('written');
      expect(armRefresh).toHaveBeenCalledTimes(1);
      const [, expiresAt] = armRefresh.mock.calls[0] as unknown as [Connection, string];
      // The timer is due 10 minutes before the "end" it is armed with.
      const dueIn = Date.parse(expiresAt) - 10 * 60_000 - Date.now();
      expect(dueIn).toBeGreaterThan((APP_REFUSED_RETRY_SECONDS - 60) * 1000);
      expect(dueIn).toBeLessThanOrEqual(APP_REFUSED_RETRY_SECONDS * 1000);
      expect((await world.secrets.read(c.tenant_id, c.id))!.access_token).toBeDefined();
    } finally {
      await setAppSecret(SANDBOX_APPS.xero.client_secret);
    }
  });

  it('invalid_grant still drops the pair and asks for consent again, with no app-credentials mark', async () => {
    const c = await connected();
    world.sandbox.oauth.revokeRefreshTokens();
    expect(await accessToken(deps(), c)).toEqual({ ok: false, error: 'reauthorization_required' });
    expect((await world.secrets.read(c.tenant_id, c.id))!.access_token).toBeUndefined();
    expect(await health(c)).toMatchObject({ state: 'failing', reason: 'reauthorization_required' });
    expect(
      (await hubStore(world.db).health(c.tenant_id, c.id))!.app_credentials_invalid_since,
    ).toBeUndefined();
  });
});
