import { NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { newAccessToken, sha256 } from '#shared/kernel/secrets';
import { auditEvent } from '#shared/domain/audit';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import type { AdapterDeclaration, OAuthProfile } from '#shared/domain/integrations/catalog';
import type { Connection, ConnectionSecrets, ConnectionStore } from '#shared/domain/integrations/ports';
import type { ConsentStore, OAuthProvider, RefreshClaims, TokenSecret } from './ports';

/**
 * OAuth 2 connect (docs/api.md, "Connecting an accounting system"): a manager asks for the
 * provider's consent URL; the provider sends the browser back to the public callback with a code
 * and the `state`, which is single-use, bound to tenant, connection and caller, and valid 10
 * minutes; the code is exchanged for the token pair, which becomes the connection's secret.
 */

export const CONSENT_TTL_SECONDS = 600;

/** The callback's throttle, like login's: failed callbacks per client address and window. */
export const CALLBACK_FAILURE_LIMIT = 20;
export const CALLBACK_WINDOW_SECONDS = 15 * 60;

export interface CallbackThrottle {
  failures(key: string, windowStart: string): Promise<number>;
  /** Counts one failure atomically; returns the window's count. */
  fail(key: string, windowStart: string, windowEnd: Date): Promise<number>;
}

export interface ConnectDeps {
  connections: ConnectionStore;
  consents: ConsentStore;
  provider: OAuthProvider;
  clock: Clock;
  /**
   * The console's URL (`OPS_CONSOLE_URL`, e.g. `https://d1.cloudfront.net/console/`): the only
   * place a `return_to` may point. Unset: no `return_to` is accepted.
   */
  consoleUrl?: string | undefined;
}

export interface CallbackDeps extends ConnectDeps {
  secrets: Pick<ConnectionSecrets, 'put'>;
  claims: Pick<RefreshClaims, 'reset'>;
  throttle: CallbackThrottle;
  /** Resolves an open `reauthorization_required` issue once the consent is back (best effort). */
  reauthorized?: (c: Connection) => Promise<void>;
  /** Arms the refresh before the new access token ends (the timer of refresh.ts). */
  armRefresh?: (c: Connection, expiresAt: string) => Promise<void>;
}

const oauthAdapter = (c: Connection): AdapterDeclaration & { oauth: OAuthProfile } => {
  const adapter = adapterByKey(c.adapter_key);
  if (!adapter?.oauth)
    throw new ValidationError([
      {
        path: 'connection_id',
        code: 'not_oauth2',
        message: `${c.adapter_key} is not connected by OAuth 2: set its secret instead`,
      },
    ]);
  return adapter as AdapterDeclaration & { oauth: OAuthProfile };
};

/**
 * A `return_to` the callback page may link to: an absolute URL of the console's own origin, under
 * its path, with no credentials. Anything else (or any, with no console configured) is 422, so the
 * public callback can never send a person to an address a third party chose (no open redirect).
 */
export function consoleReturn(consoleUrl: string | undefined, returnTo: string): string {
  const to = URL.parse(returnTo);
  const base = consoleUrl ? new URL(consoleUrl) : undefined;
  if (
    !to ||
    !base ||
    to.origin !== base.origin ||
    !to.pathname.startsWith(base.pathname) ||
    to.username ||
    to.password
  )
    throw new ValidationError([
      {
        path: 'return_to',
        code: 'not_console_url',
        message: `must be a page of this service's console (${base?.href ?? 'none is configured'})`,
      },
    ]);
  return to.href;
}

/**
 * `POST .../integration-connections/{id}/authorize`.
 * 0. A `return_to` must be a page of the console (422 on `return_to` otherwise).
 * 1. The connection must exist and belong to an OAuth 2 adapter (422 otherwise).
 * 2. A fresh 256-bit `state` and, where the provider documents PKCE for the service's app type
 *    (neither does for a web app with a client secret), a verifier; only the state's hash is
 *    stored, with the tenant, connection and caller it is bound to and its expiry.
 * 3. The consent URL asks for the connection's scopes (and the adapter's extra ones).
 */
export async function authorizeConnection(
  deps: ConnectDeps,
  principal: Principal,
  tenantId: string,
  connectionId: string,
  returnTo?: string,
) {
  const back = returnTo === undefined ? null : consoleReturn(deps.consoleUrl, returnTo);
  const c = await deps.connections.get(tenantId, connectionId);
  if (!c) throw new NotFoundError();
  const adapter = oauthAdapter(c);
  const now = deps.clock.now();
  const state = newAccessToken();
  const verifier = adapter.oauth.pkce ? newAccessToken() : null;
  const expiresAt = new Date(now.getTime() + CONSENT_TTL_SECONDS * 1000).toISOString();
  await deps.consents.put({
    state_hash: sha256(state),
    tenant_id: tenantId,
    connection_id: c.id,
    adapter_key: c.adapter_key,
    user_id: principal.user_id,
    code_verifier: verifier,
    expires_at: expiresAt,
    return_to: back,
  });
  const params: Record<string, string> = {
    response_type: 'code',
    scope: [...c.scopes, ...adapter.oauth.extra_scopes].join(' '),
    state,
    ...(verifier ? { code_challenge: sha256(verifier), code_challenge_method: 'S256' } : {}),
  };
  return {
    authorize_url: deps.provider.authorizeUrl(c.adapter_key, adapter.oauth, params),
    expires_at: expiresAt,
  };
}

/** What the callback page says: a short sentence the person can act on, and nothing else. */
export const CALLBACK_ANSWERS = {
  connected: { status: 200, text: 'is connected. You can close this page.' },
  invalid_request: {
    status: 400,
    text: 'This address is not a valid answer from the provider. Start the connection again.',
  },
  state_unknown: {
    status: 400,
    text: 'This authorization link is not valid or was already used. Start the connection again.',
  },
  state_expired: {
    status: 400,
    text: 'This authorization link has expired (it is valid 10 minutes). Start the connection again.',
  },
  denied: {
    status: 400,
    text: 'Access was not granted at the provider. Start the connection again to retry.',
  },
  refused: { status: 400, text: 'The provider refused the authorization. Start the connection again.' },
  no_organisation: {
    status: 400,
    text: 'The provider named no organisation for this consent. Start again and choose one.',
  },
  connection_gone: { status: 400, text: 'The connection no longer exists. Create it again, then connect.' },
  unavailable: {
    status: 503,
    text: 'The provider did not answer. Start the connection again in a few minutes.',
  },
  rate_limited: {
    status: 429,
    text: 'Too many attempts. Wait a few minutes, then start the connection again.',
  },
} as const;
export type CallbackAnswer = keyof typeof CALLBACK_ANSWERS;

export interface CallbackInput {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  realmId?: string | undefined;
  /** Who is calling (the client address): what the throttle counts failures by. */
  client: string;
}

export type CallbackOutcome = {
  answer: CallbackAnswer;
  adapter_name?: string;
  retry_after_seconds?: number;
  /** The console page the consent was asked from, once the state named it: the page links back. */
  return_to?: string;
};

const window = (now: Date) => {
  const start = Math.floor(now.getTime() / 1000 / CALLBACK_WINDOW_SECONDS) * CALLBACK_WINDOW_SECONDS;
  return {
    start: new Date(start * 1000).toISOString(),
    end: new Date((start + CALLBACK_WINDOW_SECONDS) * 1000),
  };
};

const STATE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * `GET /oauth/callback?code&state` (public).
 * 1. Past the window's failure limit for this client: 429, nothing read.
 * 2. The state is taken out of the store (so it is used once, whatever follows); unknown or used,
 *    expired: a failure, counted, and nothing changes.
 * 3. An `error` from the provider (the person declined) or no `code`: a failure.
 * 4. The code is exchanged (with the PKCE verifier); a refusal or no answer: a failure.
 * 5. The organisation: Xero's connections endpoint, QuickBooks' `realmId` parameter.
 * 6. The token pair is stored as the connection's secret before the connection says it has one;
 *    then the refresh count restarts, and the connection is written with the organisation in
 *    `config` and its audit event `integration_connection.authorized` (no token in it).
 */
export async function completeConsent(deps: CallbackDeps, input: CallbackInput): Promise<CallbackOutcome> {
  const now = deps.clock.now();
  const w = window(now);
  const throttleKey = `oauth-callback\u0000${input.client}`;
  const limited = (): CallbackOutcome => ({
    answer: 'rate_limited',
    retry_after_seconds: Math.max(1, Math.ceil((w.end.getTime() - now.getTime()) / 1000)),
  });
  if ((await deps.throttle.failures(throttleKey, w.start)) >= CALLBACK_FAILURE_LIMIT) return limited();
  let back: { return_to?: string } = {};
  const failed = async (answer: CallbackAnswer): Promise<CallbackOutcome> =>
    (await deps.throttle.fail(throttleKey, w.start, w.end)) > CALLBACK_FAILURE_LIMIT
      ? limited()
      : { answer, ...back };

  if (!input.state || !STATE.test(input.state)) return failed('invalid_request');
  const consent = await deps.consents.take(sha256(input.state));
  if (!consent) return failed('state_unknown');
  // Only a state that was ours names a page to go back to (checked when it was asked for).
  if (consent.return_to) back = { return_to: consent.return_to };
  if (Date.parse(consent.expires_at) <= now.getTime()) return failed('state_expired');
  if (input.error) return failed('denied');
  if (!input.code) return failed('invalid_request');

  const c = await deps.connections.get(consent.tenant_id, consent.connection_id);
  if (!c || c.adapter_key !== consent.adapter_key) return failed('connection_gone');
  const adapter = oauthAdapter(c);
  const exchanged = await deps.provider.exchange(
    c.adapter_key,
    adapter.oauth,
    input.code,
    consent.code_verifier,
  );
  if (!exchanged.ok) return failed(exchanged.error === 'unavailable' ? 'unavailable' : 'refused');
  const { tokens } = exchanged;
  if (!tokens.refresh_token) return failed('refused');

  const org = adapter.oauth.organisation;
  const organisationId =
    org.from === 'callback_parameter'
      ? input.realmId && /^[0-9]{1,20}$/.test(input.realmId)
        ? input.realmId
        : undefined
      : await deps.provider.organisation(c.adapter_key, adapter.oauth, tokens.access_token);
  if (!organisationId) return failed('no_organisation');

  const expiresAt = new Date(now.getTime() + tokens.expires_in * 1000).toISOString();
  const secret: TokenSecret = {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    expires_at: expiresAt,
    generation: '1',
  };
  await deps.secrets.put(c.tenant_id, c.id, secret);
  await deps.claims.reset(c.tenant_id, c.id, 1);
  const next: Connection = {
    ...c,
    config: { ...c.config, [org.config_field]: organisationId },
    secret_configured: true,
    updated_at: now.toISOString(),
  };
  const written = await deps.connections.update(
    next,
    c,
    auditEvent(deps.clock, {
      tenant_id: c.tenant_id,
      event_type: 'integration_connection.authorized',
      actor_id: consent.user_id,
      entity_type: 'integration_connection',
      entity_id: c.id,
      summary: `Connected ${adapter.name} (${org.config_field} ${organisationId})`,
      metadata: { adapter_key: c.adapter_key, [org.config_field]: organisationId, scopes: c.scopes },
    }),
  );
  // The tokens are stored either way; a connection changed meanwhile is only told on the next try.
  if (written !== 'written') return failed('connection_gone');
  await deps.reauthorized?.(next);
  await deps.armRefresh?.(next, expiresAt);
  return { answer: 'connected', adapter_name: adapter.name, ...back };
}
