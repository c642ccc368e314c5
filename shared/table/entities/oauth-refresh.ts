import { type AccessDoc, entity } from '../entity';

/**
 * The refresh claim of a connection's OAuth 2 token pair: the `generation` of the stored pair and
 * a short `lease_until` while one worker refreshes it. No token: the pair is the connection's
 * secret, in private storage.
 */
export const oauthRefresh = /* @__PURE__ */ entity('oauth_refresh', {
  table: { pk: 'TENANT#{tenant_id}#OAUTH_REFRESH', sk: '{connection_id}' },
});

export const access = {
  entity: oauthRefresh,
  patterns: [
    {
      name: 'Claim, settle or release the refresh of a token pair',
      sortKey: 'equals',
      notes:
        'conditional UpdateItem on generation and lease: of two concurrent refreshes one calls the provider',
    },
  ],
} satisfies AccessDoc<typeof oauthRefresh>;
