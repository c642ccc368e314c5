import { listSessions, login, me, revokeSession } from '../../shared/domain/identity';
import { storesFromEnv } from '../adapters/stores';
import { clock, SESSION_TTL_SECONDS } from '../config';
import { httpHandler } from '../lib/http';

const { identity } = storesFromEnv();
const deps = { identity, clock, sessionTtlSeconds: SESSION_TTL_SECONDS };

export const handler = httpHandler('auth', {
  'auth.login': ({ body }) => login(deps, body),
  'auth.me': ({ principal }) => me(deps, principal),
  'auth.sessions': ({ principal }) => listSessions(deps, principal),
  'auth.revoke': ({ principal, params }) => revokeSession(deps, principal, params.token_id),
});
