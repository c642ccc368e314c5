import { ConflictError, InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal, Role } from '#shared/kernel/policy';
import { hashPassword } from '#shared/kernel/secrets';
import { auditEvent, PLATFORM_AUDIT_TENANT } from '#shared/domain/audit';
import type {
  IdentityStore,
  Invitation,
  InvitationLookup,
  InvitationsOf,
  InvitationStore,
  InviteeStore,
  Login,
  Membership,
  TenantStore,
} from './ports';
import { membershipRead } from './sessions';

/**
 * Invitations (docs/api.md section 3): how a tenant's owner adds a member without learning
 * whether the email has an account, and how the invitee accepts.
 */

/** `S`: the owners' side (the default), the invitee's (InviteeStore), or what both share. */
export interface InvitationDeps<S extends InvitationLookup = InvitationStore> {
  invitations: S;
  clock: Clock;
}

export interface InviteDeps extends InvitationDeps {
  tenants: TenantStore;
  identity: IdentityStore;
}

/** An invitation can be accepted, declined or revoked for a week. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;

export const invitationRead = (i: Invitation) => ({
  id: i.id,
  tenant_id: i.tenant_id,
  tenant_name: i.tenant_name,
  email: i.email,
  role: i.role,
  status: i.status,
  invited_by: i.invited_by,
  created_at: i.created_at,
  expires_at: i.expires_at,
});

const expired = (i: Invitation, now: Date) => Date.parse(i.expires_at) <= now.getTime();

/**
 * Invite an email to a tenant. The answer, and as far as practical its time, is the same
 * whether or not the email has an account, and never shows that account.
 * 1. Read the tenant and the email's login; hash the password whenever one is given.
 * 2. With a password, an email that has no account gets one now (not yet a member); an existing
 *    account's password is never changed, so it is ignored then.
 * 3. Write the invitation with its audit event; a new account is audited as `user.created` under
 *    `_platform`, not in the tenant's log the owner reads. When the email has an invitation
 *    pending already, answer that one and write nothing.
 */
export async function inviteMember(
  deps: InviteDeps,
  actor: Principal,
  tenantId: string,
  input: { email: string; display_name: string; role: Role; password?: string | undefined },
) {
  const [tenant, login, passwordHash] = await Promise.all([
    deps.tenants.getTenant(tenantId),
    deps.identity.findLogin(input.email),
    input.password === undefined ? undefined : hashPassword(input.password),
  ]);
  if (!tenant) throw new NotFoundError();
  const now = deps.clock.now();
  const email = input.email.toLowerCase();
  const invitation: Invitation = {
    id: newId(),
    tenant_id: tenant.id,
    tenant_name: tenant.name,
    tenant_created_at: tenant.created_at,
    email,
    role: input.role,
    status: 'pending',
    invited_by: actor.user_id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
  };
  const audit = auditEvent(deps.clock, {
    tenant_id: tenant.id,
    event_type: 'invitation.created',
    actor_id: actor.user_id,
    entity_type: 'invitation',
    entity_id: invitation.id,
    summary: `${email} invited as ${input.role}`,
    metadata: { role: input.role },
  });
  const create = (newUser: Login | null) =>
    deps.invitations.createInvitation(
      invitation,
      newUser,
      newUser
        ? [
            audit,
            auditEvent(deps.clock, {
              tenant_id: PLATFORM_AUDIT_TENANT,
              event_type: 'user.created',
              actor_id: actor.user_id,
              entity_type: 'user',
              entity_id: newUser.user.id,
              summary: `${email} created with an invitation`,
              metadata: { tenant_id: tenant.id, invitation_id: invitation.id },
            }),
          ]
        : [audit],
    );

  let outcome = await create(
    login || passwordHash === undefined
      ? null
      : {
          user: {
            id: newId(),
            email,
            display_name: input.display_name,
            created_at: invitation.created_at,
            platform_roles: [],
          },
          password_hash: passwordHash,
        },
  );
  // Registered meanwhile: now it is an existing account, whose password is not ours to set.
  if (outcome === 'email_taken') outcome = await create(null);
  if (outcome === 'ok') return invitationRead(invitation);
  const pending = await deps.invitations.getInvitation(tenant.id, email);
  if (pending?.status !== 'pending') throw new ConflictError('The invitation changed meanwhile; retry.');
  return invitationRead(pending);
}

const unexpired = (deps: InvitationDeps<InvitationLookup>, items: Invitation[]) => {
  const now = deps.clock.now();
  return items.filter((i) => !expired(i, now)).map(invitationRead);
};

/** A tenant's pending, unexpired invitations, newest first. */
export async function listInvitations(deps: InvitationDeps, tenantId: string, page: PageRequest) {
  const result = await deps.invitations.listInvitations(tenantId, page);
  return { items: unexpired(deps, result.items), next_cursor: result.next_cursor };
}

/** The caller's pending, unexpired invitations (sent to the caller's email), newest first. */
export const myInvitations = async (deps: InvitationDeps<InviteeStore>, principal: Principal) => ({
  items: unexpired(deps, await deps.invitations.invitationsOf(principal.email)),
});

/** The invitation, if it may still change: 404 when `of` has no such one, 409 when it has ended or expired. */
async function pendingInvitation(
  deps: InvitationDeps<InvitationLookup>,
  of: InvitationsOf,
  id: string,
  now: Date,
) {
  const found = await deps.invitations.findInvitation(of, id);
  if (!found) throw new NotFoundError();
  if (found.status !== 'pending') throw new InvalidTransitionError(`The invitation was ${found.status}.`);
  if (expired(found, now)) throw new InvalidTransitionError('The invitation has expired.');
  return found;
}

/**
 * Accept one of the caller's invitations (sent to the caller's email): the membership, the
 * invitation marked accepted and `member.added` in one transaction. Someone else's is 404.
 */
export async function acceptInvitation(deps: InvitationDeps<InviteeStore>, principal: Principal, id: string) {
  const now = deps.clock.now();
  const invitation = await pendingInvitation(deps, { email: principal.email }, id, now);
  const member: Membership = {
    tenant_id: invitation.tenant_id,
    tenant_name: invitation.tenant_name,
    tenant_created_at: invitation.tenant_created_at,
    user_id: principal.user_id,
    email: principal.email,
    display_name: principal.display_name,
    role: invitation.role,
    created_at: now.toISOString(),
    updated_at: null,
  };
  const outcome = await deps.invitations.acceptInvitation(
    invitation,
    member,
    auditEvent(deps.clock, {
      tenant_id: invitation.tenant_id,
      event_type: 'member.added',
      actor_id: principal.user_id,
      entity_type: 'member',
      entity_id: principal.user_id,
      summary: `${principal.email} joined as ${invitation.role}`,
      metadata: { role: invitation.role, via: 'invitation', invitation_id: invitation.id },
    }),
    now.toISOString(),
  );
  if (outcome === 'member') throw new ConflictError('You are already a member of this tenant.');
  if (outcome === 'stale') throw new InvalidTransitionError('The invitation changed meanwhile.');
  return membershipRead(member);
}

async function endInvitation(
  deps: InvitationDeps<InvitationLookup>,
  actor: Principal,
  of: InvitationsOf,
  id: string,
  status: 'declined' | 'revoked',
) {
  const now = deps.clock.now();
  const invitation = await pendingInvitation(deps, of, id, now);
  const ended = await deps.invitations.endInvitation(
    invitation,
    status,
    auditEvent(deps.clock, {
      tenant_id: invitation.tenant_id,
      event_type: `invitation.${status}`,
      actor_id: actor.user_id,
      entity_type: 'invitation',
      entity_id: invitation.id,
      summary: `Invitation of ${invitation.email} ${status}`,
    }),
    now.toISOString(),
  );
  if (!ended) throw new InvalidTransitionError('The invitation changed meanwhile.');
}

export const declineInvitation = (deps: InvitationDeps<InviteeStore>, principal: Principal, id: string) =>
  endInvitation(deps, principal, { email: principal.email }, id, 'declined');

export const revokeInvitation = (deps: InvitationDeps, actor: Principal, tenantId: string, id: string) =>
  endInvitation(deps, actor, { tenant_id: tenantId }, id, 'revoked');
