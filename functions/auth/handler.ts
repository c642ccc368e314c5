import { listSessions, login, me, revokeSession } from '#shared/domain/identity/sessions';
import { AUTH_OPERATIONS } from '#shared/api/operations/auth';
import { httpHandler } from '#functions/http/handler';
import { identityDeps } from './deps';

const deps = identityDeps();

export const handler = httpHandler(AUTH_OPERATIONS, {
  'auth.login': ({ body }) => login(deps, body),
  'auth.me': ({ principal }) => me(deps, principal),
  'auth.sessions': ({ principal }) => listSessions(deps, principal),
  'auth.revoke': ({ principal, params }) => revokeSession(deps, principal, params.token_id),
});
