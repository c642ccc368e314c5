import type { Construct } from 'constructs';

/**
 * The deploy-time settings of the service's own app at each OAuth 2 provider (CDK context,
 * docs/infrastructure.md "OAuth 2 apps").
 */

export const OAUTH_CONTEXT = {
  xeroClientId: 'xeroClientId',
  quickbooksClientId: 'quickbooksClientId',
  oauthRedirectUrl: 'oauthRedirectUrl',
} as const;

/**
 * Client ids are public (they travel in the consent URL); the client secrets are not context at
 * all but SecureStrings an operator puts under `<connections>/_oauth_apps/<adapter_key>`.
 */
export interface OAuthAppConfig {
  readonly clientIds: { readonly xero?: string; readonly quickbooks_online?: string };
  /** The public callback URL registered with each provider; default `<ApiUrl>oauth/callback`. */
  readonly redirectUrl?: string;
}

/** Xero's are 32 hex characters, Intuit's about 50 letters and digits; nothing that needs quoting. */
const CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{8,128}$/;

const str = (scope: Construct, key: string): string | undefined => {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
};

export function readOAuthApps(scope: Construct): OAuthAppConfig {
  const clientId = (key: string) => {
    const value = str(scope, key);
    if (value !== undefined && !CLIENT_ID_PATTERN.test(value))
      throw new Error(`context "${key}" is not an OAuth client id`);
    return value;
  };
  const xero = clientId(OAUTH_CONTEXT.xeroClientId);
  const quickbooks_online = clientId(OAUTH_CONTEXT.quickbooksClientId);
  const redirectUrl = str(scope, OAUTH_CONTEXT.oauthRedirectUrl);
  // Providers only redirect to https (localhost aside), and only to the path registered.
  if (redirectUrl !== undefined && !/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?\/oauth\/callback$/.test(redirectUrl))
    throw new Error(
      `context "${OAUTH_CONTEXT.oauthRedirectUrl}" must be an https URL ending in /oauth/callback`,
    );
  return {
    clientIds: { ...(xero ? { xero } : {}), ...(quickbooks_online ? { quickbooks_online } : {}) },
    ...(redirectUrl ? { redirectUrl } : {}),
  };
}
