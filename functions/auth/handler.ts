import { listSessions, login, me, revokeSession } from '#shared/domain/identity/sessions';
import { AUTH_OPERATIONS } from '#shared/api/operations/auth';
import { dbFromEnv } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { clock, SESSION_TTL_SECONDS } from '#functions/config';
import { httpHandler } from '#functions/lib/http';

const deps = { identity: identityStore(dbFromEnv()), clock, sessionTtlSeconds: SESSION_TTL_SECONDS };

export const handler = httpHandler(AUTH_OPERATIONS, {
  'auth.login': ({ body }) => login(deps, body),
  'auth.me': ({ principal }) => me(deps, principal),
  'auth.sessions': ({ principal }) => listSessions(deps, principal),
  'auth.revoke': ({ principal, params }) => revokeSession(deps, principal, params.token_id),
});
