import { acceptInvitation, declineInvitation, myInvitations } from '#shared/domain/identity/invitations';
import { listSessions, login, me, revokeSession } from '#shared/domain/identity/sessions';
import { AUTH_OPERATIONS } from '#shared/api/operations/auth';
import { dbFor } from '#functions/adapters/dynamo';
import { identityStore } from '#functions/adapters/identity-store';
import { clock, sessionTtlSeconds, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { inviteeStore } from '#functions/adapters/invitation-store';

const db = dbFor(tableConfig());
const deps = {
  identity: identityStore(db),
  clock,
  sessionTtlSeconds: sessionTtlSeconds(),
  invitations: inviteeStore(db),
};

export const handler = httpHandler(AUTH_OPERATIONS, {
  'auth.login': ({ body }) => login(deps, body),
  'auth.me': ({ principal }) => me(deps, principal),
  'auth.sessions': ({ principal }) => listSessions(deps, principal),
  'auth.revoke': ({ principal, params }) => revokeSession(deps, principal, params.token_id),
  'auth.invitations': ({ principal }) => myInvitations(deps, principal),
  'auth.acceptInvitation': ({ principal, params }) => acceptInvitation(deps, principal, params.invitation_id),
  'auth.declineInvitation': ({ principal, params }) =>
    declineInvitation(deps, principal, params.invitation_id),
});
