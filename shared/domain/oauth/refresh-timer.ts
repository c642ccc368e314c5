import type { Connection, ConnectionStore } from '#shared/domain/integrations/ports';
import type { OccurrenceResult, Timer } from '#shared/domain/timers/ports';
import { refreshAhead, type TokenDeps } from './tokens';

/**
 * Refresh before expiry (docs/api.md, "Connecting an accounting system"): each stored token pair
 * arms an `oauth_refresh` timer some minutes before its access token ends; its firing refreshes
 * the pair (by the same conditional claim as a refresh on use), and the new pair arms the next
 * timer. So a connection that nothing uses for a while still has a live pair, and the first call
 * after the pause does not wait for a token call.
 */

/** The timer fires this long before the access token ends: longer than the on-use margin (5 min). */
export const REFRESH_AHEAD_SECONDS = 10 * 60;

/** The `oauth_refresh` timer of a pair ending at `expiresAt`; arming it again replaces it. */
export function oauthRefreshTimer(c: Pick<Connection, 'id' | 'tenant_id'>, expiresAt: string): Timer {
  const due = Date.parse(expiresAt) - REFRESH_AHEAD_SECONDS * 1000;
  return {
    id: `oauth_refresh:${c.id}`,
    tenant_id: c.tenant_id,
    kind: 'oauth_refresh',
    subject_type: 'integration_connection',
    subject_id: c.id,
    due_at: new Date(due).toISOString(),
  };
}

/**
 * After the provider refused the service's app, the refresh is tried again this often: so a fixed
 * secret heals an idle connection too, and the alarm stays raised while it is not fixed.
 */
export const APP_REFUSED_RETRY_SECONDS = 15 * 60;

/** The token provider could not be reached: the firing fails, so the queue retries it. */
export class RefreshUnavailableError extends Error {}

export interface OAuthRefreshFireDeps {
  connections: Pick<ConnectionStore, 'get'>;
  tokens: TokenDeps;
}

/**
 * A firing. `written`: the pair was refreshed (and the next timer armed) or the provider refused
 * it (the connection is marked for reauthorization, as on use); `stale`: nothing to do, because
 * the connection is gone, has no pair, or its pair was already refreshed past this timer's time.
 */
export async function fireOAuthRefresh(deps: OAuthRefreshFireDeps, timer: Timer): Promise<OccurrenceResult> {
  const c = await deps.connections.get(timer.tenant_id, timer.subject_id);
  if (!c) return 'stale';
  const { token, refreshed, refused, appRefused } = await refreshAhead(deps.tokens, c, REFRESH_AHEAD_SECONDS);
  if (appRefused) {
    // The pair is kept; this timer comes back until the app's secret is fixed.
    // Armed as for a pair ending then: the timer is due APP_REFUSED_RETRY_SECONDS from now.
    const endsAt =
      deps.tokens.clock.now().getTime() + (REFRESH_AHEAD_SECONDS + APP_REFUSED_RETRY_SECONDS) * 1000;
    await deps.tokens.armRefresh?.(c, new Date(endsAt).toISOString());
    return 'written';
  }
  if (!token.ok && token.error === 'target_unavailable')
    throw new RefreshUnavailableError(`refresh of connection ${c.id} could not reach the provider`);
  // A refusal was handled by the refresh itself (health, issue, review item): no pair to arm for.
  return refreshed || refused ? 'written' : 'stale';
}
