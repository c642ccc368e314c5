import type { AuditEvent } from '#shared/domain/audit';
import type { OAuthProfile } from '#shared/domain/integrations/catalog';

/**
 * The ports of connecting an accounting system by OAuth 2 (docs/api.md, "Connecting an accounting
 * system"): the pending consents (`state`), the refresh claim that makes one of two concurrent
 * refreshes win, and the provider's token endpoint. Tokens themselves live only in the
 * connection's secret (integrations/ports.ts `ConnectionSecrets`), never in the table.
 */

/** A consent in flight: what a `state` is bound to. Stored under the state's SHA-256 only. */
export interface PendingConsent {
  state_hash: string;
  tenant_id: string;
  connection_id: string;
  adapter_key: string;
  /** The member who asked for the consent: the audit's actor when it comes back. */
  user_id: string;
  /** PKCE verifier (S256), or null where the provider offers no PKCE. Useless without the code. */
  code_verifier: string | null;
  expires_at: string;
  /** The console page the callback page links back to (checked when the consent was asked), or null. */
  return_to?: string | null;
}

export interface ConsentStore {
  put(consent: PendingConsent): Promise<void>;
  /**
   * Takes the consent of a state hash out of the store (a conditional delete): the first caller
   * gets it, every later one `undefined`, so a state is used once whatever happens next.
   */
  take(stateHash: string): Promise<PendingConsent | undefined>;
}

/**
 * The token pair as the connection's secret keeps it (every value a string, as secrets are).
 * `generation` counts refreshes; `reauthorization_required` is set when the provider refused one.
 */
export interface TokenSecret extends Record<string, string> {
  access_token: string;
  refresh_token: string;
  expires_at: string;
  generation: string;
}

/**
 * The table's side of a refresh (no token in it): one item per connection with the generation of
 * the stored pair and a short lease. `claim` is a conditional write, so of two workers refreshing
 * the same generation at once exactly one calls the provider; the other waits for the new pair.
 */
export interface RefreshClaims {
  claim(
    tenantId: string,
    connectionId: string,
    generation: number,
    leaseUntil: string,
    now: string,
  ): Promise<boolean>;
  /** The pair of `generation + 1` is stored: the claim ends. */
  settle(tenantId: string, connectionId: string, generation: number): Promise<void>;
  /** The refresh failed: the claim ends, the generation stays. */
  release(tenantId: string, connectionId: string, generation: number): Promise<void>;
  /** A new consent starts the count again (`generation`: the new pair's). */
  reset(tenantId: string, connectionId: string, generation: number): Promise<void>;
}

export interface TokenAnswer {
  access_token: string;
  /** Absent when the provider keeps the refresh token (then the stored one stays). */
  refresh_token?: string;
  expires_in: number;
}

/** What a token endpoint answered: tokens, a refusal (`invalid_grant`, ...) or no usable answer. */
export type TokenResult =
  | { ok: true; tokens: TokenAnswer }
  | {
      ok: false;
      error:
        | 'invalid_grant'
        | 'invalid_request'
        | 'invalid_client'
        | 'unauthorized_client'
        | 'access_denied'
        | 'other';
    }
  | { ok: false; error: 'unavailable'; retry_after_seconds?: number };

/** The provider's OAuth endpoints, for one adapter's profile. */
export interface OAuthProvider {
  /** The consent page's URL (the provider's authorize endpoint with the request's parameters). */
  authorizeUrl(adapterKey: string, profile: OAuthProfile, params: Record<string, string>): string;
  exchange(
    adapterKey: string,
    profile: OAuthProfile,
    code: string,
    codeVerifier: string | null,
  ): Promise<TokenResult>;
  refresh(adapterKey: string, profile: OAuthProfile, refreshToken: string): Promise<TokenResult>;
  /** Xero: the organisation the consent was given for (GET /connections); undefined when none. */
  organisation(adapterKey: string, profile: OAuthProfile, accessToken: string): Promise<string | undefined>;
}

export type { AuditEvent };
