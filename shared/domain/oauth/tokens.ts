import type { Clock } from '#shared/kernel/ids';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import type { Connection, ConnectionSecret, ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { OAuthProvider, RefreshClaims, TokenSecret } from './ports';

/**
 * A connection's access token, refreshed when it is about to end (or once after a 401), by one
 * worker at a time: the refresh claim is a conditional write on the table, so two workers that
 * find the same pair stale make one call to the provider; the other waits for the pair the first
 * stores. The rotated refresh token is stored before anything uses it again, since the provider
 * may refuse the old one from then on.
 */

/** Refreshed this long before the access token ends: a call never starts with a dying token. */
export const REFRESH_MARGIN_SECONDS = 5 * 60;
/** How long a refresh claim holds: longer than one token call, short enough to recover from a crash. */
export const REFRESH_LEASE_SECONDS = 30;
/** How a worker that lost the claim waits for the winner's pair: this many looks, this far apart. */
const WAIT_LOOKS = 20;
const WAIT_STEP_MS = 250;

export interface TokenDeps {
  secrets: Pick<ConnectionSecrets, 'read' | 'put'>;
  claims: RefreshClaims;
  provider: OAuthProvider;
  clock: Clock;
  wait: (ms: number) => Promise<void>;
  /**
   * The provider refused the refresh token (`invalid_grant`): health, issue and review item
   * (reauthorization.ts). Called once, by the worker whose refresh was refused.
   */
  revoked: (c: Connection) => Promise<void>;
  /** Arms the next refresh before the new token ends (the refresh timer), when there is one. */
  armRefresh?: (c: Connection, expiresAt: string) => Promise<void>;
  /** The app's credentials as the token endpoint judged them (app-credentials.ts). */
  appCredentials?: AppCredentials;
}

/**
 * A refusal of the service's own app (`invalid_client`: its client id or secret is wrong), which
 * no tenant can fix: `refused` marks the connection's health and counts it for the alarm;
 * `accepted`, on every successful token call, clears a mark (a no-op without one).
 */
export interface AppCredentials {
  refused(c: Connection): Promise<void>;
  accepted(c: Connection): Promise<void>;
}

export type AccessToken =
  | { ok: true; token: string }
  | {
      ok: false;
      error: 'reauthorization_required' | 'target_unavailable' | 'not_configured' | 'app_credentials_invalid';
    };

const asPair = (s: ConnectionSecret | undefined): TokenSecret | undefined =>
  s?.access_token && s.refresh_token && s.expires_at && s.generation ? (s as TokenSecret) : undefined;

/**
 * The access token to call the provider with.
 * - `stale`: the token a call was just refused with (401): refresh once, unless another worker
 *   already stored a newer pair.
 * 1. No pair (never authorized, or refused since): `reauthorization_required` without a call;
 *    sending stays paused until the consent is given again.
 * 2. A pair valid past the margin (and not the stale one): its access token.
 * 3. Else claim the refresh of its generation; lost: wait for the next generation's pair.
 * 4. Won: refresh; the new pair (with the rotated refresh token, or the old one where the provider
 *    keeps it) is stored, then the claim settles. `invalid_grant`: the pair is dropped (so no one
 *    uses it again) and the connection is marked for reauthorization. `invalid_client` is the
 *    service's app refused, not the consent: the pair stays (it is still good at the provider),
 *    the claim ends, and the connection's health says `app_credentials_invalid` until a token
 *    call succeeds again.
 */
export async function accessToken(deps: TokenDeps, c: Connection, stale?: string): Promise<AccessToken> {
  return (await obtain(deps, c, stale, REFRESH_MARGIN_SECONDS)).token;
}

/**
 * The refresh timer's way in: the pair is refreshed when it ends within `marginSeconds` (longer
 * than a call's margin); says whether this call refreshed it, or had its refresh refused.
 */
export const refreshAhead = (deps: TokenDeps, c: Connection, marginSeconds: number) =>
  obtain(deps, c, undefined, marginSeconds);

interface Obtained {
  token: AccessToken;
  refreshed?: true;
  refused?: true;
  /** The token endpoint refused the service's app (invalid_client); the pair was kept. */
  appRefused?: true;
}

async function obtain(
  deps: TokenDeps,
  c: Connection,
  stale: string | undefined,
  marginSeconds: number,
): Promise<Obtained> {
  const got = (token: AccessToken): Obtained => ({ token });
  const profile = adapterByKey(c.adapter_key)?.oauth;
  if (!profile) return got({ ok: false, error: 'not_configured' });
  const pair = asPair(await deps.secrets.read(c.tenant_id, c.id));
  if (!pair) return got({ ok: false, error: 'reauthorization_required' });
  const now = deps.clock.now();
  const fresh = Date.parse(pair.expires_at) - marginSeconds * 1000 > now.getTime();
  if (fresh && pair.access_token !== stale) return got({ ok: true, token: pair.access_token });

  const generation = Number(pair.generation);
  const leaseUntil = new Date(now.getTime() + REFRESH_LEASE_SECONDS * 1000).toISOString();
  if (!(await deps.claims.claim(c.tenant_id, c.id, generation, leaseUntil, now.toISOString()))) {
    for (let look = 0; look < WAIT_LOOKS; look += 1) {
      await deps.wait(WAIT_STEP_MS);
      const next = await deps.secrets.read(c.tenant_id, c.id);
      const newer = asPair(next);
      if (newer && Number(newer.generation) > generation) return got({ ok: true, token: newer.access_token });
      if (!newer) return got({ ok: false, error: 'reauthorization_required' });
    }
    return got({ ok: false, error: 'target_unavailable' });
  }

  const answer = await deps.provider.refresh(c.adapter_key, profile, pair.refresh_token);
  if (!answer.ok) {
    if (answer.error === 'unavailable' || answer.error === 'other') {
      await deps.claims.release(c.tenant_id, c.id, generation);
      return got({ ok: false, error: 'target_unavailable' });
    }
    if (answer.error === 'invalid_client') {
      await deps.claims.release(c.tenant_id, c.id, generation);
      await deps.appCredentials?.refused(c);
      return { token: { ok: false, error: 'app_credentials_invalid' }, appRefused: true };
    }
    // Refused: the stored pair is worthless; keep its generation so no claim reuses it.
    await deps.secrets.put(c.tenant_id, c.id, {
      reauthorization_required: 'true',
      generation: String(generation + 1),
    });
    await deps.claims.settle(c.tenant_id, c.id, generation);
    await deps.revoked(c);
    return { token: { ok: false, error: 'reauthorization_required' }, refused: true };
  }
  const expiresAt = new Date(deps.clock.now().getTime() + answer.tokens.expires_in * 1000).toISOString();
  const next: TokenSecret = {
    access_token: answer.tokens.access_token,
    refresh_token: answer.tokens.refresh_token ?? pair.refresh_token,
    expires_at: expiresAt,
    generation: String(generation + 1),
  };
  await deps.secrets.put(c.tenant_id, c.id, next);
  await deps.claims.settle(c.tenant_id, c.id, generation);
  await deps.appCredentials?.accepted(c);
  await deps.armRefresh?.(c, expiresAt);
  return { token: { ok: true, token: next.access_token }, refreshed: true };
}
