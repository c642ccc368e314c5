import { accessToken, type TokenDeps } from '#shared/domain/oauth/tokens';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { markReauthorizationRequired } from '#shared/domain/oauth/reauthorization';
import { appCredentials } from '#shared/domain/oauth/app-credentials';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { logger, metricsFor, publishRecorded } from '#functions/observability';
import type { Connection, ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { Clock } from '#shared/kernel/ids';
import type { OAuthSettings } from '#functions/config';
import type { Db } from './dynamo';
import { appCredentialsMarks } from './app-credentials-store';
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
    appCredentials: appCredentials({ marks: appCredentialsMarks(db), clock, counted: appRefused }),
  };
}

const metrics = metricsFor('oauth-tokens');

/** A refused app: the metric the oauth-app-credentials alarm sums, published at once, and an error line. */
export function appRefused(c: Connection): void {
  metrics.addMetric(METRICS.oauthAppCredentialsInvalid, MetricUnit.Count, 1);
  publishRecorded(metrics);
  logger.error('the token endpoint refused the OAuth app credentials', {
    event: LOG_EVENTS.oauthAppCredentialsInvalid,
    adapter_key: c.adapter_key,
    tenant_id: c.tenant_id,
    connection_id: c.id,
  });
}

export const tokenFor =
  (deps: TokenDeps): TokenFor =>
  (c, stale) =>
    accessToken(deps, c, stale);
