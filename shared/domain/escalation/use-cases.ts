import type * as z from 'zod/mini';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import { sameValue } from '#shared/kernel/same-value';
import { escalationPolicyEditable } from '#shared/table/entities/escalation-policy';
import type { EscalationPolicyCreate, EscalationPolicyUpdate } from '#shared/api/schemas/escalation-policies';
import { auditEvent } from '#shared/domain/audit';
import type { EscalationPolicy, EscalationPolicyStore, MemberDirectory } from './ports';

/** Escalation policies (docs/api.md, "Escalation policies"): create, read, change by version, delete. */

export interface EscalationPolicyDeps {
  policies: EscalationPolicyStore;
  members: Pick<MemberDirectory, 'isMember'>;
  clock: Clock;
}

const policyAudit = (
  deps: EscalationPolicyDeps,
  actor: Principal,
  policy: Pick<EscalationPolicy, 'tenant_id' | 'id' | 'name'>,
  verb: 'created' | 'updated' | 'deleted',
  metadata: Record<string, unknown>,
) =>
  auditEvent(deps.clock, {
    tenant_id: policy.tenant_id,
    event_type: `escalation_policy.${verb}`,
    actor_id: actor.user_id,
    entity_type: 'escalation_policy',
    entity_id: policy.id,
    summary: policy.name,
    metadata,
  });

/**
 * A `recipient_user_id` must name a member of the tenant: 422 naming each target that does not,
 * before anything is written. The schema has already checked every other bound.
 */
async function checkMembers(
  deps: EscalationPolicyDeps,
  tenantId: string,
  levels: EscalationPolicy['levels'],
) {
  const named = levels.flatMap((level, l) =>
    level.notify.flatMap((target, t) =>
      target.recipient_user_id ? [{ userId: target.recipient_user_id, path: `levels.${l}.notify.${t}` }] : [],
    ),
  );
  const found = await Promise.all(named.map((n) => deps.members.isMember(tenantId, n.userId)));
  const errors: FieldError[] = named
    .filter((_, i) => !found[i])
    .map((n) => ({
      path: `${n.path}.recipient_user_id`,
      code: 'not_a_member',
      message: 'must be a member of the tenant',
    }));
  if (errors.length) throw new ValidationError(errors, 'A notify target names a user who is not a member.');
}

/** Create a policy at version 1, with its `escalation_policy.created` audit event. */
export async function createPolicy(
  deps: EscalationPolicyDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof EscalationPolicyCreate>,
): Promise<EscalationPolicy> {
  await checkMembers(deps, tenantId, input.levels);
  const now = deps.clock.now().toISOString();
  const policy: EscalationPolicy = {
    id: newId(),
    tenant_id: tenantId,
    name: input.name,
    priority: input.priority,
    match: input.match,
    levels: input.levels,
    repeat: input.repeat,
    ack_timeout_minutes: input.ack_timeout_minutes,
    enabled: input.enabled,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await deps.policies.create(
    policy,
    policyAudit(deps, actor, policy, 'created', { priority: policy.priority, enabled: policy.enabled }),
  );
  return policy;
}

export async function getPolicy(deps: Pick<EscalationPolicyDeps, 'policies'>, tenantId: string, id: string) {
  const found = await deps.policies.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listPolicies = (
  deps: Pick<EscalationPolicyDeps, 'policies'>,
  tenantId: string,
  page: PageRequest,
) => deps.policies.list(tenantId, page);

const stale = () => new ConflictError('The policy has changed since that version; read it again.');

/**
 * Change a policy.
 * 1. Read it (404); the change must name its current `version` (409 conflict otherwise).
 * 2. A change of nothing answers the policy as it is, with no write.
 * 3. New levels name members only (422 otherwise).
 * 4. Write it at the next version with its `escalation_policy.updated` audit event, on the
 *    condition that the stored version is still the one named (of two racing changes one wins).
 * 5. Disabling it cancels its pending timers. Any other change needs nothing more: a firing
 *    follows the policy as it stands when its level falls due.
 */
export async function updatePolicy(
  deps: EscalationPolicyDeps,
  actor: Principal,
  tenantId: string,
  id: string,
  change: z.output<typeof EscalationPolicyUpdate>,
): Promise<EscalationPolicy> {
  const current = await getPolicy(deps, tenantId, id);
  if (change.version !== current.version) throw stale();
  const { version } = change;
  const changed = escalationPolicyEditable.fields.filter(
    (key) => change[key] !== undefined && !sameValue(change[key], current[key]),
  );
  if (changed.length === 0) return current;
  if (change.levels && changed.includes('levels')) await checkMembers(deps, tenantId, change.levels);
  const next: EscalationPolicy = {
    ...current,
    ...Object.fromEntries(changed.map((key) => [key, change[key]])),
    version: version + 1,
    updated_at: deps.clock.now().toISOString(),
  };
  const won = await deps.policies.update(
    next,
    version,
    policyAudit(deps, actor, next, 'updated', { changed, version: next.version }),
  );
  if (!won) throw stale();
  if (current.enabled && !next.enabled) await deps.policies.cancelTimers(tenantId, id);
  return next;
}

/** Delete a policy with its `escalation_policy.deleted` audit event (404 when there is none), then cancel its timers. */
export async function deletePolicy(
  deps: EscalationPolicyDeps,
  actor: Principal,
  tenantId: string,
  id: string,
) {
  const current = await getPolicy(deps, tenantId, id);
  const removed = await deps.policies.remove(
    tenantId,
    id,
    policyAudit(deps, actor, current, 'deleted', { enabled: current.enabled }),
  );
  if (!removed) throw new NotFoundError();
  await deps.policies.cancelTimers(tenantId, id);
}
