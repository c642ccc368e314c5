import type * as z from 'zod/mini';
import { InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { BusinessExceptionCreate, BusinessExceptionStatusChange } from '#shared/api/schemas/exceptions';
import { auditEvent } from '#shared/domain/audit';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import type { BusinessException, ExceptionFilter, ExceptionStatus, ExceptionStore } from './ports';
import { openException } from './record';

export interface ExceptionDeps {
  exceptions: ExceptionStore;
  clock: Clock;
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
 * workflow rules act on.
 */
export async function createException(
  deps: ExceptionDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof BusinessExceptionCreate>,
): Promise<BusinessException> {
  const now = deps.clock.now().toISOString();
  const exception = openException({ ...input, id: newId(), tenant_id: tenantId }, now);
  await deps.exceptions.create(
    exception,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'exception.created',
      actor_id: actor.user_id,
      entity_type: 'exception',
      entity_id: exception.id,
      summary: exception.title,
      metadata: { exception_type: exception.exception_type, severity: exception.severity },
    }),
    workflowEventRecorded(deps.clock, 'exception.created', exception),
  );
  return exception;
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
  actor: Principal,
  tenantId: string,
  id: string,
  change: z.output<typeof BusinessExceptionStatusChange>,
): Promise<BusinessException> {
  const current = await getException(deps, tenantId, id);
  if (!canTransitionException(current.status, change.status)) {
    throw new InvalidTransitionError(
      `An exception that is ${current.status} cannot become ${change.status}.`,
    );
  }
  const now = deps.clock.now().toISOString();
  const next: BusinessException = {
    ...current,
    status: change.status,
    updated_at: now,
    resolved_at: change.status === 'resolved' ? now : (current.resolved_at ?? null),
  };
  const won = await deps.exceptions.transition(
    next,
    current.status,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'exception.status_changed',
      actor_id: actor.user_id,
      entity_type: 'exception',
      entity_id: id,
      summary: `${current.status} -> ${change.status}`,
      metadata: { from: current.status, to: change.status, note: change.note ?? null },
    }),
    workflowEventRecorded(deps.clock, 'exception.status_changed', next),
  );
  if (!won) throw new InvalidTransitionError('The exception changed meanwhile; read it again.');
  return next;
}
