import { type AccessDoc, entity } from '../entity';

/**
 * A pending OAuth 2 consent (docs/api.md, "Connecting an accounting system"): what a `state` is
 * bound to (tenant, connection, caller, PKCE verifier, expiry), under the state's SHA-256 only.
 * Taken out by a conditional delete, so a state is used once; expired ones go by TTL.
 */
export const oauthConsent = /* @__PURE__ */ entity('oauth_consent', {
  table: { pk: 'OAUTH_CONSENT#{state_hash}', sk: 'CONSENT' },
});

export const access = {
  entity: oauthConsent,
  labels: { state_hash: 'sha256(state)' },
  patterns: [
    {
      name: 'Take a pending consent (OAuth callback)',
      sortKey: 'equals',
      notes:
        'DeleteItem with ReturnValues ALL_OLD: the first callback gets it, a replay nothing; TTL after expiry',
    },
  ],
} satisfies AccessDoc<typeof oauthConsent>;
