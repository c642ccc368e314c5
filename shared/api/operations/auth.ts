import { InvitationPath, SessionCreate, SessionPath } from '#shared/api/schemas/auth';
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
  'auth.invitations': op({
    group: 'auth',
    method: 'GET',
    path: '/auth/invitations',
    summary: "The caller's pending invitations (by the caller's email)",
    auth: 'bearer',
    status: 200,
  }),
  'auth.acceptInvitation': op({
    group: 'auth',
    method: 'POST',
    path: '/auth/invitations/{invitation_id}/accept',
    summary: 'Accept an invitation: become a member of its tenant',
    auth: 'bearer',
    params: InvitationPath,
    status: 201,
  }),
  'auth.declineInvitation': op({
    group: 'auth',
    method: 'POST',
    path: '/auth/invitations/{invitation_id}/decline',
    summary: 'Decline an invitation',
    auth: 'bearer',
    params: InvitationPath,
    status: 204,
  }),
} as const;
