import type * as z from 'zod/mini';
import type { Channel } from '#shared/domain/notifications/ports';

/**
 * The adapter catalog (docs/api.md section 9.3): one declaration per adapter in `adapters/`, and
 * everything the API says about an adapter (`AdapterContractRead`) is read from it. The same
 * declaration's zod schemas validate a connection's `config` and `secret`, so what the catalog
 * shows and what a connection must satisfy cannot drift apart.
 */

export const ADAPTER_CATEGORIES = ['notification', 'accounting', 'bank_feed', 'crm'] as const;
export type AdapterCategory = (typeof ADAPTER_CATEGORIES)[number];

/**
 * How often a connection of a category is expected to succeed at its provider (a delivery, a
 * check, a sync): health calls it late past 1x and failing past 2x. Notification channels of a
 * quiet tenant may send nothing for days, so they get a week.
 */
export const EXPECTED_SYNC_MINUTES: Readonly<Record<AdapterCategory, number>> = {
  notification: 7 * 24 * 60,
  accounting: 24 * 60,
  bank_feed: 24 * 60,
  crm: 24 * 60,
};

/** How an adapter keeps a retried write from booking twice at the provider. */
export type IdempotencyContract =
  | { strategy: 'header'; header: string; key: string; retention_hours: number | null }
  | { strategy: 'natural_key'; lookup: string; key: string }
  | { strategy: 'consumer_claim'; key: string };

/** One call the adapter makes, with the limits the worker that makes it must respect. */
export interface OperationContract {
  name: string;
  /** What the call does at the provider, e.g. `POST /invoices`. */
  request: string;
  /** The connection scope the call needs. */
  scope: string;
  /** Records per provider call (1: one record per call). */
  batch_size: number;
  /** Per tenant: calls in flight at once, and calls per minute. `null`: the provider sets none. */
  rate_limit: { concurrent: number; per_minute: number; per_day?: number } | null;
  idempotency: IdempotencyContract;
  /** Failure modes (of the adapter's `failure_modes`) worth a retry with backoff. */
  retryable: readonly string[];
  /** Failure modes that no retry fixes: the job goes to review. */
  permanent: readonly string[];
}

export interface AdapterDeclaration {
  key: string;
  name: string;
  /**
   * `available`: connectable; `beta`: connectable, its contract may still change; `test_double`:
   * a provider that exists only in the local sandbox, kept for tests and demos.
   */
  status: 'available' | 'beta' | 'test_double';
  category: AdapterCategory;
  direction: 'outbound' | 'inbound' | 'bidirectional';
  purpose: string;
  /**
   * Notification adapters: the channel an active connection opens at the provider gate. Such an
   * adapter's key is its channel, so the gate finds the connection by the channel's name.
   */
  channel?: Exclude<Channel, 'in_app'>;
  capabilities: readonly string[];
  /** The non-secret settings a connection holds (returned on read). A strict object. */
  config: z.ZodMiniType<Record<string, unknown>>;
  config_example: Record<string, unknown>;
  /**
   * Config fields that name a URL the service will call: checked when a connection is saved
   * (https, no private, loopback, link-local, CGNAT or metadata address) and again at delivery.
   */
  target_url_fields?: readonly string[];
  /**
   * What diagnostics' `provider_reachable` requests (docs/api.md section 9.3): the provider's API
   * base (`{region}`: the deployment's AWS region; a deployment may point an adapter elsewhere by
   * configuration), or the config field naming the connection's own URL.
   */
  probe: { endpoint: string } | { config_field: string };
  /**
   * The secret a connection needs (write-only), or `null` when the adapter authenticates as the
   * service itself (SES and SNS run under the function's role).
   */
  secret: z.ZodMiniType<Record<string, string>> | null;
  /**
   * OAuth 2 adapters (docs/api.md, "Connecting an accounting system"): a connection gets its secret
   * (the token pair) by the provider's consent, never from a request body.
   */
  oauth?: OAuthProfile;
  /** How the adapter authenticates: the auth type and the secret's field names, never values. */
  auth: { type: string; secret_fields: readonly string[]; notes: string };
  scopes: { supported: readonly string[]; default: readonly string[] };
  required_mapping_keys: readonly string[];
  mapping_example: Record<string, string>;
  failure_modes: readonly string[];
  operations: readonly OperationContract[];
  /** The shape of what the adapter sends or receives (JSON Schema, informative). */
  payload_schema: Record<string, unknown>;
  public_notes: readonly string[];
}

/** Where and how an OAuth 2 adapter's provider grants and refreshes tokens (authorization code). */
export interface OAuthProfile {
  /** The provider's consent page. */
  authorize_url: string;
  /** The provider's token endpoint (code exchange and refresh). */
  token_url: string;
  /** PKCE with S256, only where the provider documents it for the service's app type (a web app with a client secret). */
  pkce: boolean;
  /** Scopes asked for on top of the connection's own (e.g. `offline_access` for a refresh token). */
  extra_scopes: readonly string[];
  /** How the provider names the organisation the consent was given for. */
  organisation: { config_field: string } & (
    { from: 'connections_endpoint'; url: string } | { from: 'callback_parameter'; parameter: string }
  );
  /** The access token's lifetime as the provider documents it; refreshed before it ends. */
  access_token_minutes: number;
}
