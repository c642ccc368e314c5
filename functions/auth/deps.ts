import { type Db, dbFor } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { clock, sessionTtlSeconds, tableConfig } from '#functions/config';

/** What the auth routes and the authorizer share: the identity store, the clock, the session lifetime. */
export const identityDeps = (db: Db = dbFor(tableConfig())) => ({
  identity: identityStore(db),
  clock,
  sessionTtlSeconds: sessionTtlSeconds(),
});
