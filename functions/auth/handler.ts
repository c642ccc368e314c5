import { listSessions, login, me, revokeSession } from '#shared/domain/identity/sessions';
import { AUTH_OPERATIONS } from '#shared/api/operations/auth';
import { dbFor } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { clock, sessionTtlSeconds, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';

const deps = {
  identity: identityStore(dbFor(tableConfig())),
  clock,
  sessionTtlSeconds: sessionTtlSeconds(),
};

export const handler = httpHandler(AUTH_OPERATIONS, {
  'auth.login': ({ body }) => login(deps, body),
  'auth.me': ({ principal }) => me(deps, principal),
  'auth.sessions': ({ principal }) => listSessions(deps, principal),
  'auth.revoke': ({ principal, params }) => revokeSession(deps, principal, params.token_id),
});
