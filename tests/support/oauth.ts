import { randomUUID } from 'node:crypto';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { refreshClaims } from '#functions/adapters/oauth-store';
import { APP_SECRETS_TENANT, oauthProvider } from '#functions/adapters/oauth-provider';
import type { OAuthSettings } from '#functions/config';
import { auditEvent } from '#shared/domain/audit';
import type { Connection } from '#shared/domain/integrations/ports';
import type { Clock } from '#shared/kernel/ids';
import { type OAuthProviderName, SANDBOX_APPS } from '#local/oauth-sandbox';
import { ProviderSandbox } from '#local/provider-sandbox';
import { freshDb } from './db';

/**
 * The OAuth tests' world on DynamoDB Local: the provider sandbox (consent pages, token endpoints,
 * the accounting APIs), the settings that point the adapters at it, and the app's client secret
 * stored where a deployment stores it, so every token call goes through the real adapter.
 */
export interface OAuthWorld {
  db: Db;
  sandbox: ProviderSandbox;
  settings: OAuthSettings;
  secrets: ReturnType<typeof localConnectionSecrets>;
}

export async function oauthWorld(provider: OAuthProviderName): Promise<OAuthWorld> {
  const { db } = await freshDb();
  const sandbox = new ProviderSandbox();
  await sandbox.listen();
  const secrets = localConnectionSecrets(undefined);
  const settings: OAuthSettings = {
    redirectUrl: 'http://127.0.0.1:9/oauth/callback',
    clientIds: { [provider]: SANDBOX_APPS[provider].client_id },
    sandboxUrl: sandbox.url,
    timeoutMs: 5000,
  };
  await secrets.put(APP_SECRETS_TENANT, provider, { client_secret: SANDBOX_APPS[provider].client_secret });
  return { db, sandbox, settings, secrets };
}

/** The code the sandbox's consent page redirects back with, as a user's browser would get it. */
export async function consentCode(
  world: OAuthWorld,
  provider: OAuthProviderName,
  state = 's',
): Promise<string> {
  const url = new URL(`${world.sandbox.url}/${provider}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    client_id: SANDBOX_APPS[provider].client_id,
    redirect_uri: world.settings.redirectUrl!,
    state,
    prompt: 'auto',
  }))
    url.searchParams.set(k, v);
  const back = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!);
  return back.searchParams.get('code')!;
}

/**
 * A consented pair exchanged by the real adapter and stored as the connection's secret of
 * generation 1, its refresh claim reset: a connection as the callback leaves it, with the expiry
 * the test chooses (`expiresAt` gets the pair's lifetime in seconds).
 */
export async function storeConsentedPair(
  world: OAuthWorld,
  c: Connection,
  expiresAt: (expiresInSeconds: number) => Date,
): Promise<void> {
  const provider = c.adapter_key as OAuthProviderName;
  const code = await consentCode(world, provider);
  const answer = await oauthProvider(world.settings, world.secrets).exchange(
    provider,
    {} as never,
    code,
    null,
  );
  if (!answer.ok) throw new Error(answer.error);
  await world.secrets.put(c.tenant_id, c.id, {
    access_token: answer.tokens.access_token,
    refresh_token: answer.tokens.refresh_token!,
    expires_at: expiresAt(answer.tokens.expires_in).toISOString(),
    generation: '1',
  });
  await refreshClaims(world.db).reset(c.tenant_id, c.id, 1);
}

/** An active accounting connection of a fresh tenant, written through the real store with its audit event. */
export async function accountingConnection(
  db: Db,
  clock: Clock,
  fields: Pick<Connection, 'adapter_key' | 'name' | 'scopes' | 'config'>,
): Promise<Connection> {
  const now = clock.now().toISOString();
  const c: Connection = {
    id: randomUUID(),
    tenant_id: `t-${randomUUID().slice(0, 8)}`,
    category: 'accounting',
    status: 'active',
    mapping: {},
    secret_configured: true,
    created_at: now,
    updated_at: now,
    ...fields,
  };
  const audit = auditEvent(clock, {
    tenant_id: c.tenant_id,
    event_type: 'integration_connection.created',
    actor_id: null,
    entity_type: 'integration_connection',
    entity_id: c.id,
    summary: 'test setup',
  });
  if ((await connectionStore(db).create(c, audit)) !== 'written') throw new Error('connection not written');
  return c;
}
