/**
 * The sandbox providers' names, the service's app at each and the organisation each consents to:
 * what the consent side (oauth-sandbox.ts) and the API side (oauth-apis.ts) both know, kept apart
 * so neither imports the other's module back.
 */

export const OAUTH_PROVIDERS = ['xero', 'quickbooks_online'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

/** The service's app at the sandbox providers: the local runtime configures these. */
export const SANDBOX_APPS: Record<OAuthProviderName, { client_id: string; client_secret: string }> = {
  xero: { client_id: 'ops-local-xero-app', client_secret: 'sandbox-xero-client-secret-0001' },
  quickbooks_online: { client_id: 'ops-local-qbo-app', client_secret: 'sandbox-qbo-client-secret-0001' },
};

/** The organisation each sandbox provider consents to. */
export const SANDBOX_ORGANISATIONS = {
  xero: { tenantId: '7f9c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10', tenantName: 'Demo Company (Sandbox)' },
  quickbooks_online: { realmId: '4620816365257778930' },
} as const;
