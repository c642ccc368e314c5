import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OAuthApis } from './oauth-apis';
import {
  OAUTH_PROVIDERS,
  type OAuthProviderName,
  SANDBOX_APPS,
  SANDBOX_ORGANISATIONS,
} from './oauth-providers';

/**
 * Xero's and Intuit's OAuth 2 on loopback (docs/connecting-accounting.md): a consent page that
 * approves at once when asked with `prompt=auto` (a browser, or curl, is sent straight back to the
 * redirect URI), a token endpoint that checks the app's Basic credentials, the code's redirect
 * URI and PKCE verifier, and rotates refresh tokens strictly (a used one is refused with
 * `invalid_grant`, as a revoked one is), and Xero's `GET /connections`. Their APIs are in
 * oauth-apis.ts. Tests script refusals (`refuseNextToken`, `revokeRefreshTokens`).
 */

export { OAUTH_PROVIDERS, type OAuthProviderName, SANDBOX_APPS, SANDBOX_ORGANISATIONS };

interface Grant {
  provider: OAuthProviderName;
  scope: string;
}

const ACCESS_SECONDS: Record<OAuthProviderName, number> = { xero: 1800, quickbooks_online: 3600 };

export class OAuthSandbox {
  readonly apis = new OAuthApis(this);
  /** Token endpoint calls, by grant type and answer. */
  readonly tokenCalls: { provider: OAuthProviderName; grant_type: string; status: number; error?: string }[] =
    [];
  private readonly codes = new Map<string, Grant & { redirect_uri: string; challenge: string | null }>();
  private readonly access = new Map<string, Grant>();
  private readonly refresh = new Map<string, Grant>();
  private readonly refused: string[] = [];

  /** The next token calls answer 400 with this OAuth error (e.g. `invalid_grant`). */
  refuseNextToken(...errors: string[]): void {
    this.refused.push(...errors);
  }

  /** The provider revokes the consent: every refresh token is refused from now on. */
  revokeRefreshTokens(): void {
    this.refresh.clear();
  }

  /** Every access token ends now (the next API call answers 401). */
  expireAccessTokens(): void {
    this.access.clear();
  }

  /** Whether a request's bearer token is one this sandbox issued and has not expired. */
  authorized(req: IncomingMessage): Grant | undefined {
    const token = req.headers.authorization?.replace(/^Bearer /, '');
    return token ? this.access.get(token) : undefined;
  }

  /** Whether this refresh token is the current one of its grant (tests check the stored pair). */
  validRefreshToken(token: string): boolean {
    return this.refresh.has(token);
  }

  answer(
    provider: OAuthProviderName,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: string,
  ): void {
    const path = url.pathname.slice(provider.length + 1);
    const json = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    };
    if (path === '/oauth/authorize' && req.method === 'GET') return this.consent(provider, url, res);
    if (path === '/oauth/token' && req.method === 'POST') return this.token(provider, req, body, json);
    if (path === '/connections' && req.method === 'GET' && provider === 'xero') {
      if (!this.authorized(req)) return json(401, { Title: 'Unauthorized', Status: 401 });
      const org = SANDBOX_ORGANISATIONS.xero;
      return json(200, [
        {
          id: randomUUID(),
          tenantId: org.tenantId,
          tenantType: 'ORGANISATION',
          tenantName: org.tenantName,
          createdDateUtc: '2026-01-01T00:00:00.0000000',
          updatedDateUtc: new Date().toISOString(),
        },
      ]);
    }
    this.apis.answer(provider, req, res, url, path, body);
  }

  private consent(provider: OAuthProviderName, url: URL, res: ServerResponse): void {
    const p = url.searchParams;
    const redirect = p.get('redirect_uri') ?? '';
    if (p.get('client_id') !== SANDBOX_APPS[provider].client_id || !/^https?:\/\//.test(redirect)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown client or redirect_uri');
      return;
    }
    const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    if (p.get('prompt') !== 'auto') {
      const approve = new URL(url);
      approve.searchParams.set('prompt', 'auto');
      const href = `${approve.pathname}${approve.search}`;
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(
          `<!doctype html><title>Sandbox consent</title><h1>${provider} sandbox</h1><p>Allow access to ${escape(p.get('scope') ?? '')}?</p><a href="${escape(href)}">Allow</a>`,
        );
      return;
    }
    const code = randomUUID();
    this.codes.set(code, {
      provider,
      scope: p.get('scope') ?? '',
      redirect_uri: redirect,
      challenge: p.get('code_challenge_method') === 'S256' ? p.get('code_challenge') : null,
    });
    const back = new URL(redirect);
    back.searchParams.set('code', code);
    back.searchParams.set('state', p.get('state') ?? '');
    if (provider === 'quickbooks_online')
      back.searchParams.set('realmId', SANDBOX_ORGANISATIONS.quickbooks_online.realmId);
    res.writeHead(302, { location: back.toString() }).end();
  }

  private token(
    provider: OAuthProviderName,
    req: IncomingMessage,
    body: string,
    json: (status: number, value: unknown) => void,
  ) {
    const form = new URLSearchParams(body);
    const grantType = form.get('grant_type') ?? '';
    const refuse = (status: number, error: string) => {
      this.tokenCalls.push({ provider, grant_type: grantType, status, error });
      json(status, { error });
    };
    const app = SANDBOX_APPS[provider];
    const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}`;
    if (req.headers.authorization !== basic) return refuse(401, 'invalid_client');
    const scripted = this.refused.shift();
    if (scripted) return refuse(400, scripted);
    let grant: Grant | undefined;
    if (grantType === 'authorization_code') {
      const code = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      if (!code || code.provider !== provider || code.redirect_uri !== form.get('redirect_uri'))
        return refuse(400, 'invalid_grant');
      const verifier = form.get('code_verifier');
      if (code.challenge) {
        const computed = verifier ? createHash('sha256').update(verifier).digest('base64url') : '';
        if (computed !== code.challenge) return refuse(400, 'invalid_grant');
      }
      grant = { provider, scope: code.scope };
    } else if (grantType === 'refresh_token') {
      const token = form.get('refresh_token') ?? '';
      grant = this.refresh.get(token);
      // Rotation: a refresh token is good for one use.
      this.refresh.delete(token);
      if (!grant || grant.provider !== provider) return refuse(400, 'invalid_grant');
    } else return refuse(400, 'unsupported_grant_type');
    const access = `sbx-at-${randomUUID()}`;
    const refresh = `sbx-rt-${randomUUID()}`;
    this.access.set(access, grant);
    this.refresh.set(refresh, grant);
    this.tokenCalls.push({ provider, grant_type: grantType, status: 200 });
    json(200, {
      access_token: access,
      refresh_token: refresh,
      expires_in: ACCESS_SECONDS[provider],
      token_type: 'Bearer',
      scope: grant.scope,
    });
  }
}
