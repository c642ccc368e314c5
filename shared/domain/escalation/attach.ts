import type { BusinessException, StoredException } from '#shared/domain/exceptions/ports';
import { timerId } from '#shared/domain/timers/arming';
import type { Timer } from '#shared/domain/timers/ports';
import type { EscalationPolicy, ExceptionEscalation } from './ports';

/**
 * Which policy an exception is under and which timer that arms (docs/api.md, "Escalation
 * policies"). Pure, and kept apart from the firing so that the API function bundles only this.
 */

const MINUTE = 60_000;

/** An empty match, or an absent list, fits every exception. */
export const policyFits = (
  policy: Pick<EscalationPolicy, 'match'>,
  e: Pick<BusinessException, 'severity' | 'exception_type'>,
): boolean =>
  (!policy.match.severities?.length || policy.match.severities.includes(e.severity)) &&
  (!policy.match.exception_types?.length || policy.match.exception_types.includes(e.exception_type));

/** The enabled policy with the lowest priority that fits (the oldest of equals: ids grow with time). */
export function choosePolicy(
  policies: readonly EscalationPolicy[],
  e: Pick<BusinessException, 'severity' | 'exception_type'>,
): EscalationPolicy | undefined {
  return policies
    .filter((p) => p.enabled && policyFits(p, e))
    .sort((a, b) => a.priority - b.priority || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
}

/** The escalation that makes `level` (1-based) of `policy` fire `after_minutes` after `from`. */
export function escalationAt(policy: EscalationPolicy, level: number, from: Date): ExceptionEscalation {
  const minutes = policy.levels[level - 1]!.after_minutes;
  return {
    policy_id: policy.id,
    level,
    next_at: new Date(from.getTime() + minutes * MINUTE).toISOString(),
  };
}

/** The `escalation` timer of an exception's escalation: one per exception, re-armed level by level. */
export const escalationTimer = (
  e: Pick<BusinessException, 'tenant_id' | 'id'>,
  escalation: ExceptionEscalation,
): Timer => ({
  id: timerId('escalation', e.id),
  tenant_id: e.tenant_id,
  kind: 'escalation',
  subject_type: 'exception',
  subject_id: e.id,
  due_at: escalation.next_at,
  policy_id: escalation.policy_id,
  level: escalation.level,
});

/** The `ack_timeout` timer of an acknowledged exception: it re-opens the exception at `due_at`. */
export const ackTimeoutTimer = (
  e: Pick<BusinessException, 'tenant_id' | 'id'>,
  policyId: string,
  dueAt: string,
): Timer => ({
  id: timerId('ack_timeout', e.id),
  tenant_id: e.tenant_id,
  kind: 'ack_timeout',
  subject_type: 'exception',
  subject_id: e.id,
  due_at: dueAt,
  policy_id: policyId,
});

/** When an acknowledgement made at `at` times out under `policy`, or null when the policy sets no timeout. */
export const ackTimeoutAt = (
  policy: Pick<EscalationPolicy, 'ack_timeout_minutes'>,
  at: Date,
): string | null =>
  policy.ack_timeout_minutes
    ? new Date(at.getTime() + policy.ack_timeout_minutes * MINUTE).toISOString()
    : null;

/**
 * A new exception under the policy that fits it (none: as it is), with the timer of its first
 * level: what every creator of exceptions writes in its create's transaction (the API, a
 * reconciliation run), so that none escapes its policy.
 */
export function underPolicy(
  policies: readonly EscalationPolicy[],
  opened: BusinessException,
  at: Date,
): { exception: StoredException; policy: EscalationPolicy | undefined; timer: Timer | null } {
  const policy = choosePolicy(policies, opened);
  const escalation = policy ? escalationAt(policy, 1, at) : null;
  const exception: StoredException = {
    ...opened,
    escalation,
    ...(policy && { escalation_policy_id: policy.id, escalation_round: 0 }),
  };
  return { exception, policy, timer: escalation && escalationTimer(exception, escalation) };
}
