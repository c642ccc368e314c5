import type * as z from 'zod/mini';
import { InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { BusinessExceptionCreate, BusinessExceptionStatusChange } from '#shared/api/schemas/exceptions';
import { auditEvent } from '#shared/domain/audit';
import { type RunCause, workflowEventRecorded } from '#shared/domain/workflows/events';
import { ackTimeoutAt, ackTimeoutTimer, underPolicy } from '#shared/domain/escalation/attach';
import type { EscalationPolicyStore } from '#shared/domain/escalation/ports';
import { timerId } from '#shared/domain/timers/arming';
import type {
  BusinessException,
  ExceptionFilter,
  ExceptionStatus,
  ExceptionStore,
  StoredException,
  TimerChanges,
} from './ports';
import { openException } from './record';

export interface ExceptionDeps {
  exceptions: ExceptionStore;
  clock: Clock;
  /** The tenant's escalation policies: without them no exception is put under one. */
  policies?: Pick<EscalationPolicyStore, 'all' | 'get'>;
}

/** docs/api.md section 6: the only allowed moves. */
const TRANSITIONS: Record<ExceptionStatus, readonly ExceptionStatus[]> = {
  open: ['acknowledged', 'resolved'],
  acknowledged: ['resolved'],
  resolved: [],
};

export const canTransitionException = (from: ExceptionStatus, to: ExceptionStatus): boolean =>
  TRANSITIONS[from].includes(to);

/**
 * Record a business exception: status `open`, detected now, impact and evidence kept as JSON
 * text, written together with its `exception.created` audit event and the outbox event that
 * workflow rules act on. The enabled escalation policy with the lowest priority that fits is
 * attached in the same transaction, with the timer of its first level.
 */
export async function createException(
  deps: ExceptionDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof BusinessExceptionCreate>,
): Promise<BusinessException> {
  const at = deps.clock.now();
  const now = at.toISOString();
  const opened = openException({ ...input, id: newId(), tenant_id: tenantId }, now);
  const { exception, policy, timer } = underPolicy(
    deps.policies ? await deps.policies.all(tenantId) : [],
    opened,
    at,
  );
  await deps.exceptions.create(
    exception,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'exception.created',
      actor_id: actor.user_id,
      entity_type: 'exception',
      entity_id: exception.id,
      summary: exception.title,
      metadata: {
        exception_type: exception.exception_type,
        severity: exception.severity,
        ...(policy && { escalation_policy_id: policy.id }),
      },
    }),
    workflowEventRecorded(deps.clock, 'exception.created', opened),
    timer,
  );
  return { ...opened, escalation: exception.escalation };
}

export async function getException(deps: ExceptionDeps, tenantId: string, id: string) {
  const found = await deps.exceptions.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listExceptions = (
  deps: ExceptionDeps,
  tenantId: string,
  filter: ExceptionFilter,
  page: PageRequest,
) => deps.exceptions.list(tenantId, filter, page);

/**
 * Acknowledge or resolve.
 * 1. Read the exception (404 when missing) and check the move against TRANSITIONS (409).
 * 2. Write the new status on the condition that the stored status is the one just read, with
 *    its `exception.status_changed` audit event and the outbox event workflow rules act on. A
 *    lost race is 409 as well.
 */
export async function changeExceptionStatus(
  deps: ExceptionDeps,
  /** Null: the system, for a workflow rule's `set_status` (audited with `actor_id` null). */
  actor: Principal | null,
  tenantId: string,
  id: string,
  change: z.output<typeof BusinessExceptionStatusChange>,
  cause?: RunCause,
): Promise<BusinessException> {
  const current = await deps.exceptions.getStored(tenantId, id);
  if (!current) throw new NotFoundError();
  if (!canTransitionException(current.status, change.status)) {
    throw new InvalidTransitionError(
      `An exception that is ${current.status} cannot become ${change.status}.`,
    );
  }
  const at = deps.clock.now();
  const now = at.toISOString();
  const { timers, ackTimeout } = await stopEscalation(deps, current, change.status, at);
  const next: StoredException = {
    ...current,
    status: change.status,
    updated_at: now,
    resolved_at: change.status === 'resolved' ? now : (current.resolved_at ?? null),
    escalation: null,
    ack_timeout_at: ackTimeout,
  };
  const { escalation_policy_id: _p, escalation_round: _r, ack_timeout_at: _a, ...record } = next;
  const won = await deps.exceptions.transition(
    next,
    current.status,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'exception.status_changed',
      actor_id: actor?.user_id ?? null,
      entity_type: 'exception',
      entity_id: id,
      summary: `${current.status} -> ${change.status}`,
      metadata: { from: current.status, to: change.status, note: change.note ?? null },
    }),
    workflowEventRecorded(deps.clock, 'exception.status_changed', record, cause),
    timers,
  );
  if (!won) throw new InvalidTransitionError('The exception changed meanwhile; read it again.');
  return record;
}

/**
 * Acknowledging or resolving stops the escalation: its pending level's timer (and any pending
 * acknowledgement timeout) is cancelled in the change's transaction. An acknowledgement under a
 * policy with `ack_timeout_minutes`, as the policy stands now, arms the `ack_timeout` timer.
 */
async function stopEscalation(
  deps: ExceptionDeps,
  current: StoredException,
  to: ExceptionStatus,
  at: Date,
): Promise<{ timers: TimerChanges; ackTimeout: string | null }> {
  const policyId = current.escalation_policy_id;
  if (!policyId) return { timers: {}, ackTimeout: null };
  const timers: TimerChanges = {
    cancel: [timerId('escalation', current.id), timerId('ack_timeout', current.id)],
  };
  if (to !== 'acknowledged' || !deps.policies) return { timers, ackTimeout: null };
  const policy = await deps.policies.get(current.tenant_id, policyId);
  const ackTimeout = policy?.enabled ? ackTimeoutAt(policy, at) : null;
  if (!ackTimeout) return { timers, ackTimeout };
  return {
    timers: {
      cancel: [timerId('escalation', current.id)],
      arm: [ackTimeoutTimer(current, policyId, ackTimeout)],
    },
    ackTimeout,
  };
}
