import type * as z from 'zod/mini';
import type { MemberInvitationRead } from '#shared/api/schemas/responses';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Role } from '#shared/kernel/policy';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';

/**
 * The ports of identity, tenants, members and invitations (docs/api.md section 3) and the
 * records they carry. Adapters (functions/adapters) implement them on DynamoDB; every method that changes state
 * writes the record and its audit event atomically.
 */

export interface User {
  id: string;
  email: string;
  display_name: string;
  created_at: string;
  platform_roles: 'platform_admin'[];
}

export interface Login {
  user: User;
  password_hash: string;
}

export interface Session {
  token_id: string;
  user_id: string;
  user_email: string;
  user_display_name: string;
  expires_at: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface Membership {
  tenant_id: string;
  tenant_name: string;
  tenant_created_at: string;
  user_id: string;
  email: string;
  display_name: string;
  role: Role;
  created_at: string;
  updated_at: string | null;
}

export interface Tenant {
  id: string;
  name: string;
  timezone: string;
  status: 'active';
  created_at: string;
}

/** An invitation to a tenant, for an email (lower-cased) that may or may not have an account. */
export type Invitation = z.output<typeof MemberInvitationRead> & { tenant_created_at: string };

/** Whose invitation: a tenant's (its owners') or an email's (the invitee's). */
export type InvitationsOf = { tenant_id: string } | { email: string };

/** What a login attempt reads in one round trip: the login, and this window's failures. */
export interface LoginAttempt {
  login: Login | undefined;
  failures: number;
}

export interface IdentityStore {
  findLogin(email: string): Promise<Login | undefined>;
  /** The login of `email` and the failed attempts on it in the window starting at `windowStart`. */
  loginAttempt(email: string, windowStart: string): Promise<LoginAttempt>;
  /**
   * Counts a failed attempt on `email` (known or not) in the window, atomically; forgotten after
   * `expiresAt`. Answers the window's failures, this one included.
   */
  recordLoginFailure(email: string, windowStart: string, expiresAt: Date): Promise<number>;
  createSession(session: Session, audit: AuditEvent): Promise<void>;
  getSession(tokenId: string): Promise<Session | undefined>;
  touchSession(tokenId: string, at: string): Promise<void>;
  /** The user and their memberships, from one query. */
  userWithMemberships(userId: string): Promise<{ user: User; memberships: Membership[] } | undefined>;
  listSessions(userId: string): Promise<Session[]>;
  /** Revokes the caller's own active session; false when there is none to revoke. */
  revokeSession(tokenId: string, userId: string, at: string, audit: AuditEvent): Promise<boolean>;
  /** Creates a user with its login; false when the email is taken. */
  createUser(login: Login, audit: AuditEvent | null): Promise<boolean>;
}

/** A tenant's time zone (docs/api.md section 9.7), for the use cases that turn dates into instants. */
export interface TenantZoneReader {
  /** The tenant's IANA time zone; `UTC` when it has none or is unknown. */
  timeZoneOf(tenantId: string): Promise<string>;
}

export interface TenantStore {
  createTenant(tenant: Tenant, audit: AuditEvent): Promise<boolean>;
  getTenant(tenantId: string): Promise<Tenant | undefined>;
  listTenants(page: PageRequest): Promise<Page<Tenant>>;
  listTenantsOf(userId: string, page: PageRequest): Promise<Page<Tenant>>;
  /**
   * Writes `next` on the condition that the tenant is still `current` (name and time zone), with
   * its audit event; false when it changed meanwhile. A new name is copied to the memberships.
   */
  /** `outbox`: the event of a time-zone change, written in the same transaction. */
  updateTenant(
    next: Tenant,
    current: Tenant,
    audit: AuditEvent,
    outbox?: OutboxEvent | null,
  ): Promise<boolean>;
  getMember(tenantId: string, userId: string): Promise<Membership | undefined>;
  listMembers(tenantId: string, page: PageRequest): Promise<Page<Membership>>;
  /**
   * Adds a membership (and the user, when `newUser` is given). Fails with `duplicate` when the
   * user is already a member, `email_taken` when a new user's email was registered meanwhile.
   */
  addMember(
    member: Membership,
    newUser: Login | null,
    audit: AuditEvent,
  ): Promise<'ok' | 'duplicate' | 'email_taken'>;
  /**
   * Changes a role or removes a membership if it still has `expectedRole`. The tenant's owner
   * count guards the last owner. `stale` means the membership changed meanwhile.
   */
  changeMember(
    current: Membership,
    next: Membership | null,
    audit: AuditEvent,
  ): Promise<'ok' | 'last_owner' | 'stale'>;
}

/**
 * What the owners' side and the invitee's side of invitations share. The two sides are two
 * ports, so that each Lambda bundles only its own side's adapter.
 */
export interface InvitationLookup {
  findInvitation(of: InvitationsOf, id: string): Promise<Invitation | undefined>;
  /** Declines or revokes the invitation if it is still pending and unexpired at `now`; false when not. */
  endInvitation(
    invitation: Invitation,
    status: 'declined' | 'revoked',
    audit: AuditEvent,
    now: string,
  ): Promise<boolean>;
}

/** A tenant's invitations, as its owners manage them. */
export interface InvitationStore extends InvitationLookup {
  /**
   * Writes a pending invitation with its audit events, and `newUser` (an account for an email
   * that has none) when given. Writes nothing and answers `pending` when the tenant already has
   * an unexpired pending invitation for the email, `email_taken` when `newUser`'s email was
   * registered meanwhile.
   */
  createInvitation(
    invitation: Invitation,
    newUser: Login | null,
    audits: AuditEvent[],
  ): Promise<'ok' | 'pending' | 'email_taken'>;
  /** The tenant's invitation of `email` (consistent read). */
  getInvitation(tenantId: string, email: string): Promise<Invitation | undefined>;
  /** A tenant's pending invitations (expired ones included), newest first. */
  listInvitations(tenantId: string, page: PageRequest): Promise<Page<Invitation>>;
}

/** The invitations sent to an email, as its user sees them. */
export interface InviteeStore extends InvitationLookup {
  /** The pending invitations (expired ones included) of an email, newest first: one at most per tenant. */
  invitationsOf(email: string): Promise<Invitation[]>;
  /**
   * Marks the invitation accepted and adds the membership, with its audit event, if it is still
   * pending and unexpired at `now`; `stale` when it is not, `member` when the user already is one.
   */
  acceptInvitation(
    invitation: Invitation,
    member: Membership,
    audit: AuditEvent,
    now: string,
  ): Promise<'ok' | 'stale' | 'member'>;
}
