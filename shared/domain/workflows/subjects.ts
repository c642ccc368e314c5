import type * as z from 'zod/mini';
import type { SetStatusAction } from '#shared/api/schemas/workflows';
import type { TenantZoneReader } from '#shared/domain/identity/ports';
import { changeDocumentStatus, type DocumentDeps, getDocument } from '#shared/domain/documents/use-cases';
import { changeExceptionStatus, type ExceptionDeps, getException } from '#shared/domain/exceptions/use-cases';
import { changeTaskStatus, getTask, type TaskDeps } from '#shared/domain/tasks/use-cases';
import { InvalidTransitionError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { RunCause } from './events';

/**
 * The records a run's actions read and move (docs/api.md, "Workflow runs"): the subject of its
 * triggering change, read again when a delay ends, and moved by `set_status` through its own
 * state machine, as the system.
 */

type Status = z.output<typeof SetStatusAction>['status'];

/** `changed`; `already`: it is in that status (a redelivery's move was made); the rest fail the action. */
export type StatusResult = 'changed' | 'already' | 'invalid_transition' | 'not_found' | 'unsupported';

export interface RunSubjects {
  read(type: string, tenantId: string, id: string): Promise<Record<string, unknown> | undefined>;
  setStatus(
    type: string,
    tenantId: string,
    id: string,
    status: Status,
    cause: RunCause,
  ): Promise<StatusResult>;
}

export interface RunSubjectDeps {
  exceptions: ExceptionDeps;
  tasks: TaskDeps;
  documents: DocumentDeps & { zones: TenantZoneReader };
}

const orUndefined = async <T>(read: Promise<T>): Promise<T | undefined> => {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
};

export function runSubjects(deps: RunSubjectDeps): RunSubjects {
  const read = (type: string, tenantId: string, id: string): Promise<Record<string, unknown> | undefined> => {
    if (type === 'exception') return orUndefined(getException(deps.exceptions, tenantId, id));
    if (type === 'task') return orUndefined(getTask(deps.tasks, tenantId, id));
    if (type === 'document') return orUndefined(getDocument(deps.documents, tenantId, id));
    return Promise.resolve(undefined);
  };
  return {
    read,
    async setStatus(type, tenantId, id, status, cause) {
      if (!['exception', 'task', 'document'].includes(type)) return 'unsupported';
      const current = await read(type, tenantId, id);
      if (!current) return 'not_found';
      if (current.status === status) return 'already';
      try {
        // Each use case checks the move against its own machine and answers 409 otherwise.
        if (type === 'exception')
          await changeExceptionStatus(
            deps.exceptions,
            null,
            tenantId,
            id,
            { status: status as never },
            cause,
          );
        else if (type === 'task')
          await changeTaskStatus(deps.tasks, null, tenantId, id, { status: status as never }, cause);
        else
          await changeDocumentStatus(deps.documents, null, tenantId, id, { status: status as never }, cause);
        return 'changed';
      } catch (err) {
        if (err instanceof InvalidTransitionError || err instanceof ValidationError)
          return 'invalid_transition';
        if (err instanceof NotFoundError) return 'not_found';
        throw err;
      }
    },
  };
}
