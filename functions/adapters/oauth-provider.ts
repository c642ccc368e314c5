import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import type { OAuthProfile } from '#shared/domain/integrations/catalog';
import type { ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { OAuthProvider, TokenResult } from '#shared/domain/oauth/ports';
import type { OAuthSettings } from '#functions/config';

/**
 * The providers' OAuth 2 endpoints over HTTPS (RFC 6749 section 4.1 and 6; the client
 * authenticates with HTTP Basic, as both Xero and Intuit document). The service's app at each
 * provider has a client id (configuration) and a client secret, kept like a connection's secret
 * under the pseudo-tenant `_oauth_apps` (an SSM SecureString in the cloud), read only when a
 * token call is made. Nothing of an answer but its tokens and an `error` code is kept.
 */

export const APP_SECRETS_TENANT = '_oauth_apps';

export interface OAuthEndpoints {
  authorize: string;
  token: string;
  /** The API base: Xero `.../api.xro/2.0`, QuickBooks `.../v3/company`. */
  api: string;
  /** Xero's `GET /connections`. */
  connections: string | undefined;
}

/** Where an OAuth adapter's provider is: its documented URLs, or the local sandbox's. */
export function oauthEndpoints(
  settings: Pick<OAuthSettings, 'sandboxUrl'>,
  adapterKey: string,
): OAuthEndpoints {
  const adapter = adapterByKey(adapterKey)!;
  const profile = adapter.oauth!;
  const apiPath = adapterKey === 'xero' ? '/api.xro/2.0' : '/v3/company';
  if (settings.sandboxUrl) {
    const base = `${settings.sandboxUrl}/${adapterKey}`;
    return {
      authorize: `${base}/oauth/authorize`,
      token: `${base}/oauth/token`,
      api: `${base}${apiPath}`,
      connections: profile.organisation.from === 'connections_endpoint' ? `${base}/connections` : undefined,
    };
  }
  const origin = 'endpoint' in adapter.probe ? adapter.probe.endpoint : '';
  return {
    authorize: profile.authorize_url,
    token: profile.token_url,
    api: `${origin}${apiPath}`,
    connections: profile.organisation.from === 'connections_endpoint' ? profile.organisation.url : undefined,
  };
}

const OAUTH_ERRORS = new Set([
  'invalid_grant',
  'invalid_request',
  'invalid_client',
  'unauthorized_client',
  'access_denied',
]);

export function oauthProvider(
  settings: OAuthSettings,
  appSecrets: Pick<ConnectionSecrets, 'read'>,
): OAuthProvider {
  const tokenCall = async (adapterKey: string, form: Record<string, string>): Promise<TokenResult> => {
    const clientId = settings.clientIds[adapterKey];
    const clientSecret = (await appSecrets.read(APP_SECRETS_TENANT, adapterKey))?.client_secret;
    if (!clientId || !clientSecret) return { ok: false, error: 'invalid_client' };
    let res: Response;
    try {
      res = await fetch(oauthEndpoints(settings, adapterKey).token, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams(form),
        redirect: 'error',
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
    } catch {
      return { ok: false, error: 'unavailable' };
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (res.status === 429 || res.status >= 500) {
      const retryAfter = Number(res.headers.get('retry-after'));
      return {
        ok: false,
        error: 'unavailable',
        ...(retryAfter > 0 ? { retry_after_seconds: retryAfter } : {}),
      };
    }
    if (!res.ok) {
      const error = typeof body.error === 'string' && OAUTH_ERRORS.has(body.error) ? body.error : 'other';
      return { ok: false, error: error as 'other' };
    }
    const { access_token, refresh_token, expires_in } = body;
    if (typeof access_token !== 'string' || !access_token) return { ok: false, error: 'other' };
    return {
      ok: true,
      tokens: {
        access_token,
        ...(typeof refresh_token === 'string' && refresh_token ? { refresh_token } : {}),
        expires_in: typeof expires_in === 'number' && expires_in > 0 ? expires_in : 1800,
      },
    };
  };

  return {
    authorizeUrl(adapterKey, _profile: OAuthProfile, params) {
      const url = new URL(oauthEndpoints(settings, adapterKey).authorize);
      url.searchParams.set('client_id', settings.clientIds[adapterKey] ?? '');
      url.searchParams.set('redirect_uri', settings.redirectUrl ?? '');
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      return url.toString();
    },
    exchange: (adapterKey, _profile, code, codeVerifier) =>
      tokenCall(adapterKey, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: settings.redirectUrl ?? '',
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      }),
    refresh: (adapterKey, _profile, refreshToken) =>
      tokenCall(adapterKey, { grant_type: 'refresh_token', refresh_token: refreshToken }),
    async organisation(adapterKey, _profile, accessToken) {
      const url = oauthEndpoints(settings, adapterKey).connections;
      if (!url) return undefined;
      try {
        const res = await fetch(url, {
          headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
          redirect: 'error',
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        if (!res.ok) return undefined;
        const list = (await res.json()) as {
          tenantId?: unknown;
          tenantType?: unknown;
          updatedDateUtc?: unknown;
        }[];
        // The organisation this consent added or renewed: the most recently updated one.
        const orgs = (Array.isArray(list) ? list : [])
          .filter((c) => c.tenantType === 'ORGANISATION' && typeof c.tenantId === 'string')
          .sort((a, b) => String(b.updatedDateUtc).localeCompare(String(a.updatedDateUtc)));
        return orgs[0] ? String(orgs[0].tenantId) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
