import { InvalidCredentialsError, NotFoundError, RateLimitedError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { PLATFORM_ADMIN, type Principal } from '#shared/kernel/policy';
import { DECOY_PASSWORD_HASH, newAccessToken, tokenId, verifyPassword } from '#shared/kernel/secrets';
import { auditEvent, PLATFORM_AUDIT_TENANT } from '#shared/domain/audit';
import type { IdentityStore, Membership, Session, User } from './ports';

export interface IdentityDeps {
  identity: IdentityStore;
  clock: Clock;
  /** Token lifetime; docs/api.md section 3 sets 12 hours by default. */
  sessionTtlSeconds: number;
}

/** What the token check needs: three calls of the identity store, and the clock. */
export interface TokenCheckDeps {
  identity: Pick<IdentityStore, 'getSession' | 'touchSession' | 'userWithMemberships'>;
  clock: Clock;
}

/**
 * Login throttle: at most this many failed attempts per email in a fixed window; then 429 until
 * the window ends. Unknown emails are counted like known ones, so the throttle reveals nothing.
 */
export const LOGIN_FAILURE_LIMIT = 10;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

const loginWindow = (now: Date) => {
  const start = Math.floor(now.getTime() / 1000 / LOGIN_WINDOW_SECONDS) * LOGIN_WINDOW_SECONDS;
  return {
    start: new Date(start * 1000).toISOString(),
    end: new Date((start + LOGIN_WINDOW_SECONDS) * 1000),
  };
};

/** last_used_at is refreshed at most this often, so a busy token does not write on every call. */
export const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export const userRead = (u: User) => ({
  id: u.id,
  email: u.email,
  display_name: u.display_name,
  created_at: u.created_at,
});

export const membershipRead = (m: Membership) => ({
  tenant_id: m.tenant_id,
  tenant_name: m.tenant_name,
  role: m.role,
  created_at: m.created_at,
});

export const sessionStatus = (s: Session, now: Date): 'active' | 'revoked' | 'expired' =>
  s.revoked_at ? 'revoked' : Date.parse(s.expires_at) <= now.getTime() ? 'expired' : 'active';

/**
 * Log in.
 * 1. Read the login by email and the window's failed attempts on it (one round trip); past
 *    LOGIN_FAILURE_LIMIT, answer 429 until the window ends, without checking the password.
 * 2. Check the password; when there is no login, against a decoy hash, so unknown emails and
 *    wrong passwords answer alike and in similar time.
 * 3. A failure is counted with an atomic increment, and the count it returns decides: the
 *    attempt that takes the window past LOGIN_FAILURE_LIMIT is 429, not 401. The read of step 1
 *    cannot decide alone: concurrent attempts all read the same count before any of them adds
 *    to it.
 * 4. Create a session under the SHA-256 of a fresh 256-bit token, with its audit event.
 * 5. Return the token once; it is never stored.
 */
export async function login(deps: IdentityDeps, input: { email: string; password: string }) {
  const now = deps.clock.now();
  const window = loginWindow(now);
  const rateLimited = () =>
    new RateLimitedError(Math.max(1, Math.ceil((window.end.getTime() - now.getTime()) / 1000)));
  const { login: found, failures } = await deps.identity.loginAttempt(input.email, window.start);
  if (failures >= LOGIN_FAILURE_LIMIT) throw rateLimited();
  const ok = await verifyPassword(input.password, found?.password_hash ?? DECOY_PASSWORD_HASH);
  if (!found || !ok) {
    const counted = await deps.identity.recordLoginFailure(input.email, window.start, window.end);
    throw counted > LOGIN_FAILURE_LIMIT ? rateLimited() : new InvalidCredentialsError();
  }

  const accessToken = newAccessToken();
  const session: Session = {
    token_id: tokenId(accessToken),
    user_id: found.user.id,
    user_email: found.user.email,
    user_display_name: found.user.display_name,
    expires_at: new Date(now.getTime() + deps.sessionTtlSeconds * 1000).toISOString(),
    created_at: now.toISOString(),
    last_used_at: null,
    revoked_at: null,
  };
  await deps.identity.createSession(
    session,
    auditEvent(deps.clock, {
      tenant_id: PLATFORM_AUDIT_TENANT,
      event_type: 'session.created',
      actor_id: found.user.id,
      entity_type: 'session',
      entity_id: session.token_id,
      summary: 'Signed in',
    }),
  );
  return {
    access_token: accessToken,
    expires_at: session.expires_at,
    token_type: 'bearer' as const,
    user: userRead(found.user),
  };
}

/**
 * The token check, shared by the cloud's Lambda authorizer, the local runtime and the route
 * guard (which runs it itself when the authorizer could not: docs/decisions.md).
 * 1. Look the session up by the token's hash; refuse it when missing, revoked or expired.
 * 2. Read the user and their memberships in one query: they are the principal's roles.
 * 3. Refresh last_used_at when it is older than TOUCH_INTERVAL_MS.
 * Returns undefined for any token that must get 401. A store that fails throws (503
 * `unavailable`): a token that cannot be checked is never answered as a bad one.
 */
export async function authenticate(
  deps: TokenCheckDeps,
  accessToken: string,
): Promise<Principal | undefined> {
  if (accessToken.length < 16 || accessToken.length > 128) return undefined;
  const id = tokenId(accessToken);
  const session = await deps.identity.getSession(id);
  const now = deps.clock.now();
  if (!session || sessionStatus(session, now) !== 'active') return undefined;

  const [found] = await Promise.all([
    deps.identity.userWithMemberships(session.user_id),
    session.last_used_at === null || now.getTime() - Date.parse(session.last_used_at) > TOUCH_INTERVAL_MS
      ? deps.identity.touchSession(id, now.toISOString())
      : undefined,
  ]);
  if (!found) return undefined;
  return {
    user_id: found.user.id,
    token_id: id,
    email: found.user.email,
    display_name: found.user.display_name,
    platform_roles: found.user.platform_roles.filter((r) => r === PLATFORM_ADMIN),
    memberships: Object.fromEntries(found.memberships.map((m) => [m.tenant_id, m.role])),
  };
}

export async function me(deps: IdentityDeps, principal: Principal) {
  const found = await deps.identity.userWithMemberships(principal.user_id);
  if (!found) throw new NotFoundError();
  return {
    user: userRead(found.user),
    memberships: found.memberships.map(membershipRead),
    platform_roles: found.user.platform_roles,
  };
}

/** The caller's sessions; `tenant_ids` are the tenants the session reaches now (its memberships). */
export async function listSessions(deps: IdentityDeps, principal: Principal) {
  const now = deps.clock.now();
  const sessions = await deps.identity.listSessions(principal.user_id);
  const tenantIds = Object.keys(principal.memberships).sort();
  return {
    items: sessions.map((s) => ({ ...s, status: sessionStatus(s, now), tenant_ids: tenantIds })),
  };
}

/** Revoke one of the caller's own sessions; anyone else's token id is 404. */
export async function revokeSession(deps: IdentityDeps, principal: Principal, targetTokenId: string) {
  const at = deps.clock.now().toISOString();
  const revoked = await deps.identity.revokeSession(
    targetTokenId,
    principal.user_id,
    at,
    auditEvent(deps.clock, {
      tenant_id: PLATFORM_AUDIT_TENANT,
      event_type: 'session.revoked',
      actor_id: principal.user_id,
      entity_type: 'session',
      entity_id: targetTokenId,
      summary: 'Session revoked',
    }),
  );
  if (!revoked) throw new NotFoundError('No active session with that id.');
}
