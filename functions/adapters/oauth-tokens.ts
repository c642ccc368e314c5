import { accessToken, type TokenDeps } from '#shared/domain/oauth/tokens';
import { markReauthorizationRequired } from '#shared/domain/oauth/reauthorization';
import type { ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { Clock } from '#shared/kernel/ids';
import type { OAuthSettings } from '#functions/config';
import type { Db } from './dynamo';
import { hubStore } from './hub-store';
import { armOAuthRefresh, refreshClaims } from './oauth-store';
import { oauthProvider } from './oauth-provider';
import type { TokenFor } from './oauth-calls';
import { timerWait } from './timer';

/** The workers' access tokens of OAuth 2 connections (shared/domain/oauth/tokens.ts), over the table and the provider. */
export function oauthTokenDeps(
  db: Db,
  settings: OAuthSettings,
  secrets: Pick<ConnectionSecrets, 'read' | 'put'>,
  clock: Clock,
): TokenDeps {
  return {
    secrets,
    claims: refreshClaims(db),
    provider: oauthProvider(settings, secrets),
    clock,
    wait: timerWait,
    revoked: markReauthorizationRequired({ hub: hubStore(db), clock }),
    armRefresh: armOAuthRefresh(db),
  };
}

export const tokenFor =
  (deps: TokenDeps): TokenFor =>
  (c, stale) =>
    accessToken(deps, c, stale);
