import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import type { Db } from '#functions/adapters/dynamo';
import { oauthTokenDeps, tokenFor } from '#functions/adapters/oauth-tokens';
import { clock, connectionSecretSettings, oauthSettings } from '#functions/config';

/** The workers' OAuth 2 access tokens: the only readers (and, on refresh, writers) of token pairs. */
export const workerTokens = (db: Db) =>
  tokenFor(oauthTokenDeps(db, oauthSettings(), connectionSecretsFor(connectionSecretSettings()), clock));
