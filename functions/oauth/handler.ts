import { completeConsent } from '#shared/domain/oauth/connect';
import { reauthorized } from '#shared/domain/oauth/reauthorization';
import { OAUTH_OPERATIONS } from '#shared/api/operations/oauth';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import { dbFor } from '#functions/adapters/dynamo';
import { hubStore } from '#functions/adapters/hub-store';
import {
  armOAuthRefresh,
  callbackThrottle,
  consentStore,
  refreshClaims,
} from '#functions/adapters/oauth-store';
import { oauthProvider } from '#functions/adapters/oauth-provider';
import { clock, connectionSecretSettings, oauthSettings, tableConfig } from '#functions/config';
import { logger } from '#functions/observability';
import { UNAVAILABLE_RETRY_AFTER_SECONDS, UnavailableError } from '#shared/kernel/errors';
import { httpHandler } from '#functions/http/handler';
import { page } from './page';

/**
 * `GET /oauth/callback`: the only public route that writes. Its function reads the app's client
 * secret and writes the connection's token pair (docs/api.md, "Connecting an accounting system");
 * it answers a short page and nothing of a failure but what the person can act on.
 */

const db = dbFor(tableConfig());
const secrets = connectionSecretsFor(connectionSecretSettings());
const hub = hubStore(db);
const deps = {
  connections: connectionStore(db),
  consents: consentStore(db),
  provider: oauthProvider(oauthSettings(), secrets),
  secrets,
  claims: refreshClaims(db),
  throttle: callbackThrottle(db),
  reauthorized: reauthorized({ hub, clock }),
  armRefresh: armOAuthRefresh(db),
  clock,
};

export const handler = httpHandler(OAUTH_OPERATIONS, {
  'oauth.callback': async ({ query, sourceIp }) => {
    try {
      return page(await completeConsent(deps, { ...query, client: sourceIp }));
    } catch (err) {
      if (!(err instanceof UnavailableError)) throw err;
      // A person in a browser reads this answer: the table's failure is the page's 503, not a JSON problem.
      logger.warn('oauth callback: table unavailable', { error: err.cause });
      return page({ answer: 'unavailable', retry_after_seconds: UNAVAILABLE_RETRY_AFTER_SECONDS });
    }
  },
});
