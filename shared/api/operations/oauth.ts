import { OAuthCallbackQuery } from '#shared/api/schemas/integrations';
import { op } from './operation';

/**
 * The OAuth 2 callback (docs/api.md, "Connecting an accounting system"): public, since the
 * provider sends the person's browser here; it answers a short page, never JSON, and its own
 * function is the only API function that reads connection secrets' app credentials.
 */
export const OAUTH_OPERATIONS = {
  'oauth.callback': op({
    group: 'oauth',
    method: 'GET',
    path: '/oauth/callback',
    summary:
      "The provider's redirect after consent: exchanges the code, keeps the tokens as the connection's secret, answers a short page",
    auth: 'public',
    query: OAuthCallbackQuery,
    html: true,
    status: 200,
  }),
} as const;
