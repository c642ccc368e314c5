import type * as z from 'zod/mini';
import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { TenantZoneReader } from '#shared/domain/identity/ports';
import { nextRunOf, ruleEventType, scheduleOf } from './schedule';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { WorkflowRuleCreate, WorkflowRuleTest, WorkflowRuleUpdate } from '#shared/api/schemas/workflows';
import { auditEvent } from '#shared/domain/audit';
import { tryRule } from './plan';
import type { WorkflowRule, WorkflowRuleStore } from './ports';
import { sameValue } from '#shared/kernel/same-value';
import { workflowRuleEditable } from '#shared/table/entities/workflow-rule';

export interface WorkflowRuleDeps {
  rules: WorkflowRuleStore;
  /** Whether a user is a member of the tenant: a `notify` action may name only the tenant's own. */
  members?: { isMember(tenantId: string, userId: string): Promise<boolean> };
  /** The tenant's time zone: a schedule without its own runs in it. */
  zones: TenantZoneReader;
  clock: Clock;
}

/**
 * A rule's next scheduled firing as it stands: null unless it is enabled and scheduled. A cron
 * that never fires (`0 0 31 2 *`) is 422 on its path.
 */
async function nextRunFor(
  deps: WorkflowRuleDeps,
  rule: Pick<WorkflowRule, 'tenant_id' | 'trigger' | 'enabled'>,
): Promise<string | null> {
  const schedule = scheduleOf(rule.trigger);
  if (!schedule || !rule.enabled) return null;
  const zone = schedule.timezone ?? (await deps.zones.timeZoneOf(rule.tenant_id));
  const next = nextRunOf(schedule, zone, deps.clock.now());
  if (!next)
    throw new ValidationError([
      { path: 'trigger.schedule.cron', code: 'invalid_cron', message: 'this schedule never fires' },
    ]);
  return next.toISOString();
}

const ruleAudit = (
  deps: WorkflowRuleDeps,
  actor: Principal,
  rule: Pick<WorkflowRule, 'tenant_id' | 'id' | 'name'>,
  verb: 'created' | 'updated' | 'deleted',
  metadata: Record<string, unknown>,
) =>
  auditEvent(deps.clock, {
    tenant_id: rule.tenant_id,
    event_type: `workflow_rule.${verb}`,
    actor_id: actor.user_id,
    entity_type: 'workflow_rule',
    entity_id: rule.id,
    summary: rule.name,
    metadata,
  });

/**
 * A `notify` action naming a member by id (no placeholder) must name a member of this tenant:
 * one of another tenant is 422 `not_a_member` on that action, when written and when tried.
 */
async function checkMembers(
  deps: WorkflowRuleDeps,
  tenantId: string,
  actions: readonly { type: string; recipient_user_id?: string | undefined }[],
): Promise<void> {
  if (!deps.members) return;
  const named = actions
    .map((a, index) => ({ index, user: a.type === 'notify' ? a.recipient_user_id : undefined }))
    .filter((a): a is { index: number; user: string } => !!a.user && !a.user.includes('{{'));
  const answers = await Promise.all(named.map((a) => deps.members!.isMember(tenantId, a.user)));
  const errors = named
    .filter((_, i) => !answers[i])
    .map((a) => ({
      path: `actions.${a.index}.recipient_user_id`,
      code: 'not_a_member',
      message: 'must be a member of the tenant',
    }));
  if (errors.length) throw new ValidationError(errors);
}

/** Create a rule at version 1, with its `workflow_rule.created` audit event. */
export async function createRule(
  deps: WorkflowRuleDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof WorkflowRuleCreate>,
): Promise<WorkflowRule> {
  await checkMembers(deps, tenantId, input.actions);
  const now = deps.clock.now().toISOString();
  const rule: WorkflowRule = {
    id: newId(),
    tenant_id: tenantId,
    name: input.name,
    trigger: input.trigger,
    conditions: input.conditions,
    actions: input.actions,
    enabled: input.enabled,
    next_run_at: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  rule.next_run_at = await nextRunFor(deps, rule);
  // A scheduled rule's timer rides in the rule's own write (docs/api.md section 9.7).
  await deps.rules.create(
    rule,
    ruleAudit(deps, actor, rule, 'created', { event_type: ruleEventType(rule), enabled: rule.enabled }),
  );
  return rule;
}

export async function getRule(deps: WorkflowRuleDeps, tenantId: string, id: string) {
  const found = await deps.rules.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listRules = (deps: WorkflowRuleDeps, tenantId: string, page: PageRequest) =>
  deps.rules.list(tenantId, page);

const stale = () => new ConflictError('The rule has changed since that version; read it again.');

/**
 * Change a rule.
 * 1. Read it (404); the change must name its current `version` (409 conflict otherwise).
 * 2. A change of nothing answers the rule as it is, with no write.
 * 3. Write it at the next version with its `workflow_rule.updated` audit event, on the condition
 *    that the stored version is still the one named: of two racing changes one wins, the other
 *    is 409 conflict.
 */
export async function updateRule(
  deps: WorkflowRuleDeps,
  actor: Principal,
  tenantId: string,
  id: string,
  change: z.output<typeof WorkflowRuleUpdate>,
): Promise<WorkflowRule> {
  const current = await getRule(deps, tenantId, id);
  if (change.version !== current.version) throw stale();
  if (change.actions) await checkMembers(deps, tenantId, change.actions);
  const { version } = change;
  const changed = workflowRuleEditable.fields.filter(
    // Compared whatever the order of their keys: actions parsed from the request list their
    // fields in the schema's order, the stored ones in the order they were written.
    (key) => change[key] !== undefined && !sameValue(change[key], current[key]),
  );
  if (changed.length === 0) return current;
  const next: WorkflowRule = {
    ...current,
    ...Object.fromEntries(changed.map((key) => [key, change[key]])),
    version: version + 1,
    updated_at: deps.clock.now().toISOString(),
  };
  // A new trigger or enabling re-arms the schedule from now; disabling cancels it.
  if (changed.includes('trigger') || changed.includes('enabled'))
    next.next_run_at = await nextRunFor(deps, next);
  const won = await deps.rules.update(
    next,
    { version, next_run_at: current.next_run_at },
    ruleAudit(deps, actor, next, 'updated', { changed, version: next.version }),
  );
  if (!won) throw stale();
  return next;
}

/** Delete a rule with its `workflow_rule.deleted` audit event (404 when there is none). */
export async function deleteRule(deps: WorkflowRuleDeps, actor: Principal, tenantId: string, id: string) {
  const current = await getRule(deps, tenantId, id);
  const removed = await deps.rules.remove(
    tenantId,
    id,
    ruleAudit(deps, actor, current, 'deleted', { event_type: ruleEventType(current) }),
  );
  if (!removed) throw new NotFoundError();
}

/**
 * Try a rule on a sample event, enabled or not: the real matcher and template engine, and
 * nothing else. It reads the rule and writes nothing, sends nothing, audits nothing.
 */
export async function testRule(
  deps: WorkflowRuleDeps,
  tenantId: string,
  id: string,
  input: z.output<typeof WorkflowRuleTest>,
) {
  const rule = await getRule(deps, tenantId, id);
  await checkMembers(deps, tenantId, rule.actions);
  return { ...tryRule(rule, input.event, deps.clock.now()), side_effects: 'none' as const };
}
