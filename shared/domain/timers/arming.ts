import type { Task } from '#shared/domain/tasks/ports';
import type { BusinessDocument } from '#shared/domain/documents/ports';
import { endOfLocalDate } from '#shared/kernel/time-zone';
import type { Timer } from './ports';

/**
 * Which timer a record should have as it now stands: the stores put (arm, re-arm) or delete
 * (cancel) it in the transaction of the change. Kept apart from the firing use cases so that the
 * API functions bundle only this.
 */

/** The id of a subject's timer of one kind: arming it again replaces it. */
export const timerId = (kind: Timer['kind'], subjectId: string) => `${kind}:${subjectId}`;

/** Statuses in which a task can become overdue (docs/api.md, "Time events"). */
export const OPEN_TASK = new Set<Task['status']>(['open', 'in_progress']);

/**
 * The `task_due` timer a task should have as it now stands: armed at its `due_at` while it is
 * open or in progress, none otherwise (the store then deletes any it had). Moving `due_at`
 * re-arms it, so a task that was overdue becomes overdue again when the new time passes.
 */
export function taskDueTimer(task: Pick<Task, 'id' | 'tenant_id' | 'status' | 'due_at'>): Timer | null {
  if (!task.due_at || !OPEN_TASK.has(task.status)) return null;
  return {
    id: timerId('task_due', task.id),
    tenant_id: task.tenant_id,
    kind: 'task_due',
    subject_type: 'task',
    subject_id: task.id,
    due_at: new Date(task.due_at).toISOString(),
  };
}

/** Whether a document can become overdue as it stands: an open invoice with a `due_on`. */
export const canBecomeOverdue = (d: Pick<BusinessDocument, 'document_type' | 'status' | 'due_on'>) =>
  d.document_type === 'invoice' && d.status === 'open' && !!d.due_on;

/**
 * The `document_due` timer a document should have as it stands: an open invoice's, at the end of
 * its `due_on` in the tenant's time zone (docs/api.md section 9.7); none otherwise (paid, void).
 */
export function documentDueTimer(
  d: Pick<BusinessDocument, 'id' | 'tenant_id' | 'document_type' | 'status' | 'due_on'>,
  zone: string,
): Timer | null {
  if (!canBecomeOverdue(d)) return null;
  return {
    id: timerId('document_due', d.id),
    tenant_id: d.tenant_id,
    kind: 'document_due',
    subject_type: 'document',
    subject_id: d.id,
    due_at: endOfLocalDate(d.due_on!, zone).toISOString(),
  };
}
