import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { TaskListQuery } from '#shared/api/schemas/tasks';
import type { TaskRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';

/** The port of tasks (docs/api.md section 9) and the records it carries. */

export type Task = z.output<typeof TaskRead>;
export type TaskStatus = Task['status'];
export type TaskFilter = Omit<z.output<typeof TaskListQuery>, 'limit' | 'cursor'>;

/**
 * `written`; `changed`: the task is no longer the one read (its `updated_at` moved, or it does
 * not exist); `exists`: a task with this id was already created; `not_member`: the assignee is
 * not a member of the tenant.
 */
export type TaskWriteResult = 'written' | 'changed' | 'exists' | 'not_member';

export interface TaskStore {
  /**
   * A new task and its audit event in one transaction, on the conditions that the id is new and,
   * with an assignee, that the assignee is a member of the tenant.
   */
  create(task: Task, audit: AuditEvent): Promise<TaskWriteResult>;
  get(tenantId: string, id: string): Promise<Task | undefined>;
  list(tenantId: string, filter: TaskFilter, page: PageRequest): Promise<Page<Task>>;
  /**
   * Replaces the task with `next` and writes its audit event, on the condition that the stored
   * `updated_at` is still `readAt` (every write moves it forward, so it is the task's version);
   * `checkAssignee`: also on the condition that `next.assignee_id` is a member. A status change
   * also writes the outbox event workflow rules act on.
   */
  replace(
    next: Task,
    readAt: string,
    audit: AuditEvent,
    options: { checkAssignee: boolean; outbox: OutboxEvent | null },
  ): Promise<TaskWriteResult>;
}
