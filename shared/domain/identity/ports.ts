import type { Page, PageRequest } from '#shared/kernel/page';
import type { Role } from '#shared/kernel/policy';
import type { AuditEvent } from '#shared/domain/audit';

/**
 * The ports of identity, tenants and members (docs/api.md section 3) and the records they carry.
 * Adapters (functions/adapters) implement them on DynamoDB; every method that changes state
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
  status: 'active';
  created_at: string;
}

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

export interface TenantStore {
  createTenant(tenant: Tenant, audit: AuditEvent): Promise<boolean>;
  getTenant(tenantId: string): Promise<Tenant | undefined>;
  listTenants(page: PageRequest): Promise<Page<Tenant>>;
  listTenantsOf(userId: string, page: PageRequest): Promise<Page<Tenant>>;
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
