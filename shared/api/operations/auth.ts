import { SessionCreate, SessionPath } from '#shared/api/schemas/auth';
import { op } from './operation';

/** Sessions and identity (docs/api.md section 3). */
export const AUTH_OPERATIONS = {
  'auth.login': op({
    group: 'auth',
    method: 'POST',
    path: '/auth/sessions',
    summary: 'Log in: exchange email and password for a bearer token',
    auth: 'public',
    body: SessionCreate,
    status: 201,
  }),
  'auth.sessions': op({
    group: 'auth',
    method: 'GET',
    path: '/auth/sessions',
    summary: "List the caller's own sessions",
    auth: 'bearer',
    status: 200,
  }),
  'auth.revoke': op({
    group: 'auth',
    method: 'DELETE',
    path: '/auth/sessions/{token_id}',
    summary: 'Revoke one of the caller’s sessions',
    auth: 'bearer',
    params: SessionPath,
    status: 204,
  }),
  'auth.me': op({
    group: 'auth',
    method: 'GET',
    path: '/auth/me',
    summary: 'The caller, their memberships and platform roles',
    auth: 'bearer',
    status: 200,
  }),
} as const;
