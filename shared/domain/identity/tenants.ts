import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import { isPlatformAdmin, PLATFORM_ADMIN, type Principal, type Role } from '#shared/kernel/policy';
import { hashPassword } from '#shared/kernel/secrets';
import { DEFAULT_TIME_ZONE } from '#shared/kernel/time-zone';
import { auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { EVENT_KINDS } from '#shared/kernel/names';
import { tenantEditable } from '#shared/table/entities/tenant';
import { type InviteDeps, inviteMember } from './invitations';
import type { IdentityStore, Membership, Tenant, TenantStore } from './ports';

export interface TenantDeps {
  tenants: TenantStore;
  identity: IdentityStore;
  clock: Clock;
}

export const tenantRead = (t: Tenant) => ({
  id: t.id,
  name: t.name,
  timezone: t.timezone,
  status: t.status,
  created_at: t.created_at,
});

export const memberRead = (m: Membership) => ({
  tenant_id: m.tenant_id,
  user_id: m.user_id,
  email: m.email,
  display_name: m.display_name,
  role: m.role,
  created_at: m.created_at,
  updated_at: m.updated_at,
});

export async function createTenant(deps: TenantDeps, actor: Principal, input: { id: string; name: string }) {
  const tenant: Tenant = {
    id: input.id,
    name: input.name,
    timezone: DEFAULT_TIME_ZONE,
    status: 'active',
    created_at: deps.clock.now().toISOString(),
  };
  const created = await deps.tenants.createTenant(
    tenant,
    auditEvent(deps.clock, {
      tenant_id: tenant.id,
      event_type: 'tenant.created',
      actor_id: actor.user_id,
      entity_type: 'tenant',
      entity_id: tenant.id,
      summary: `Tenant ${tenant.name} created`,
    }),
  );
  if (!created) throw new ConflictError(`Tenant id ${input.id} is taken.`);
  return tenantRead(tenant);
}

export async function listTenants(deps: TenantDeps, principal: Principal, page: PageRequest) {
  const result = isPlatformAdmin(principal)
    ? await deps.tenants.listTenants(page)
    : await deps.tenants.listTenantsOf(principal.user_id, page);
  return { items: result.items.map(tenantRead), next_cursor: result.next_cursor };
}

export async function getTenant(deps: TenantDeps, tenantId: string) {
  const tenant = await deps.tenants.getTenant(tenantId);
  if (!tenant) throw new NotFoundError();
  return tenantRead(tenant);
}

/**
 * Rename a tenant or set its time zone (docs/api.md section 3; the zone: section 9.7).
 * 1. Read it (404); a field set to what it is changes nothing, and a PATCH that changes nothing
 *    answers the tenant with no write and no audit event.
 * 2. Write it with its `tenant.updated` audit event (the changed fields), on the condition that
 *    it is still the tenant read (else 409 conflict).
 */
/** The internal worker moves the timers that depend on the tenant's zone (shared/domain/timers/rezone.ts). */
const zoneChanged = (clock: Clock, t: Tenant): OutboxEvent => {
  const eventId = newId();
  return {
    event_id: eventId,
    kind: EVENT_KINDS.tenantTimezoneChanged,
    tenant_id: t.id,
    idempotency_key: `tenant-zone:${t.id}:${eventId}`,
    occurred_at: clock.now().toISOString(),
    payload: { timezone: t.timezone },
  };
};

export async function updateTenant(
  deps: TenantDeps,
  actor: Principal,
  tenantId: string,
  patch: { name?: string | undefined; timezone?: string | undefined },
) {
  const current = await deps.tenants.getTenant(tenantId);
  if (!current) throw new NotFoundError();
  const changed = tenantEditable.fields.filter(
    (field) => patch[field] !== undefined && patch[field] !== current[field],
  );
  if (changed.length === 0) return tenantRead(current);
  const next: Tenant = { ...current };
  for (const field of changed) next[field] = patch[field]!;
  const written = await deps.tenants.updateTenant(
    next,
    current,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'tenant.updated',
      actor_id: actor.user_id,
      entity_type: 'tenant',
      entity_id: tenantId,
      summary: `changed ${changed.join(', ')}`,
      metadata: { changed, ...(changed.includes('timezone') ? { timezone: next.timezone } : {}) },
    }),
    changed.includes('timezone') ? zoneChanged(deps.clock, next) : null,
  );
  if (!written) throw new ConflictError('The tenant changed meanwhile; read it again.');
  return tenantRead(next);
}

export async function listMembers(deps: TenantDeps, tenantId: string, page: PageRequest) {
  const result = await deps.tenants.listMembers(tenantId, page);
  return { items: result.items.map(memberRead), next_cursor: result.next_cursor };
}

/**
 * `members.add` (docs/api.md section 3): platform_admin, who already sees every user, adds the
 * member at once; a tenant's owner invites, and learns nothing about the email's account.
 */
export const addOrInviteMember = async (
  deps: InviteDeps,
  actor: Principal,
  tenantId: string,
  input: Parameters<typeof addMember>[3],
) =>
  isPlatformAdmin(actor)
    ? { member: await addMember(deps, actor, tenantId, input) }
    : { invitation: await inviteMember(deps, actor, tenantId, input) };

/**
 * Add a member at once (platform_admin).
 * 1. Read the tenant (for its name) and the login of the email.
 * 2. A new email needs a password: the user is created with it. For a known email the
 *    password and display name are ignored: an owner never sets another user's credentials.
 * 3. Write the membership (and the new user) with its audit event; a second membership is 409.
 */
export async function addMember(
  deps: TenantDeps,
  actor: Principal,
  tenantId: string,
  input: { email: string; display_name: string; role: Role; password?: string | undefined },
) {
  const [tenant, login] = await Promise.all([
    deps.tenants.getTenant(tenantId),
    deps.identity.findLogin(input.email),
  ]);
  if (!tenant) throw new NotFoundError();
  const now = deps.clock.now().toISOString();

  let newUser = null;
  let user = login?.user;
  if (!user) {
    if (input.password === undefined) {
      throw new ValidationError([
        {
          path: 'password',
          code: 'required',
          message: 'A new user needs a password of at least 12 characters.',
        },
      ]);
    }
    user = {
      id: newId(),
      email: input.email.toLowerCase(),
      display_name: input.display_name,
      created_at: now,
      platform_roles: [],
    };
    newUser = { user, password_hash: await hashPassword(input.password) };
  }

  const member: Membership = {
    tenant_id: tenant.id,
    tenant_name: tenant.name,
    tenant_created_at: tenant.created_at,
    user_id: user.id,
    email: user.email,
    display_name: user.display_name,
    role: input.role,
    created_at: now,
    updated_at: null,
  };
  const outcome = await deps.tenants.addMember(
    member,
    newUser,
    auditEvent(deps.clock, {
      tenant_id: tenant.id,
      event_type: 'member.added',
      actor_id: actor.user_id,
      entity_type: 'member',
      entity_id: user.id,
      summary: `${user.email} added as ${input.role}`,
      metadata: { role: input.role, new_user: newUser !== null },
    }),
  );
  if (outcome === 'duplicate') throw new ConflictError('That user is already a member of this tenant.');
  if (outcome === 'email_taken') throw new ConflictError('That email was registered meanwhile; retry.');
  return memberRead(member);
}

async function changeMember(
  deps: TenantDeps,
  actor: Principal,
  tenantId: string,
  userId: string,
  role: Role | null,
) {
  const current = await deps.tenants.getMember(tenantId, userId);
  if (!current) throw new NotFoundError();
  if (role === current.role) return memberRead(current);

  const next = role === null ? null : { ...current, role, updated_at: deps.clock.now().toISOString() };
  const outcome = await deps.tenants.changeMember(
    current,
    next,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: next ? 'member.role_changed' : 'member.removed',
      actor_id: actor.user_id,
      entity_type: 'member',
      entity_id: userId,
      summary: next ? `${current.email} is now ${role}` : `${current.email} removed`,
      metadata: next ? { from: current.role, to: role } : { role: current.role },
    }),
  );
  if (outcome === 'last_owner') throw new ConflictError('The last owner cannot be removed or demoted.');
  if (outcome === 'stale') throw new ConflictError('The membership changed meanwhile; read it again.');
  return next ? memberRead(next) : undefined;
}

export const updateMemberRole = (
  deps: TenantDeps,
  actor: Principal,
  tenantId: string,
  userId: string,
  role: Role,
) => changeMember(deps, actor, tenantId, userId, role);

export const removeMember = async (deps: TenantDeps, actor: Principal, tenantId: string, userId: string) => {
  await changeMember(deps, actor, tenantId, userId, null);
};

/**
 * The platform admin of a fresh deployment, from OPS_BOOTSTRAP_ADMIN_EMAIL/PASSWORD. Does
 * nothing when that email already has a user.
 */
export async function bootstrapAdmin(
  deps: Pick<TenantDeps, 'identity' | 'clock'>,
  email: string,
  password: string,
): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  return deps.identity.createUser(
    {
      user: {
        id: newId(),
        email: email.toLowerCase(),
        display_name: 'Platform admin',
        created_at: now,
        platform_roles: [PLATFORM_ADMIN],
      },
      password_hash: await hashPassword(password),
    },
    null,
  );
}
