import type * as z from 'zod/mini';
import { ConflictError, InvalidTransitionError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { TaskCreate, TaskStatusChange, TaskUpdate } from '#shared/api/schemas/tasks';
import { taskEditable } from '#shared/table/entities/task';
import { auditEvent } from '#shared/domain/audit';
import { type RunCause, workflowEventRecorded } from '#shared/domain/workflows/events';
import type { Task, TaskFilter, TaskStatus, TaskStore } from './ports';

export interface TaskDeps {
  tasks: TaskStore;
  clock: Clock;
}

/** docs/api.md section 9: the only allowed moves; done and cancelled are final. */
const TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  open: ['in_progress', 'done', 'cancelled'],
  in_progress: ['open', 'done', 'cancelled'],
  done: [],
  cancelled: [],
};

export const canTransitionTask = (from: TaskStatus, to: TaskStatus): boolean =>
  TRANSITIONS[from].includes(to);

const notMember = () =>
  new ValidationError([
    { path: 'assignee_id', code: 'not_member', message: 'is not a member of this tenant' },
  ]);

/** A timestamp in the service's form (UTC, milliseconds). */
const utc = (at: string | null | undefined) => (at ? new Date(at).toISOString() : null);

/**
 * The `updated_at` of a write: now, but always later than the one it replaces, so that
 * `updated_at` orders a task's writes and serves as its version (TaskStore.replace).
 */
export const laterThan = (previous: string, now: Date): string =>
  now.toISOString() > previous ? now.toISOString() : new Date(Date.parse(previous) + 1).toISOString();

/** The task as stored: status `open`, due date in UTC; a rule's task names its rule. */
function newTask(
  tenantId: string,
  now: string,
  input: z.output<typeof TaskCreate>,
  origin: { id: string; sourceRuleId: string | null } = { id: newId(), sourceRuleId: null },
): Task {
  return {
    id: origin.id,
    tenant_id: tenantId,
    title: input.title,
    description: input.description ?? null,
    assignee_role: input.assignee_role ?? null,
    assignee_id: input.assignee_id ?? null,
    due_at: utc(input.due_at),
    subject_type: input.subject_type ?? null,
    subject_id: input.subject_id ?? null,
    status: 'open',
    source_rule_id: origin.sourceRuleId,
    created_at: now,
    updated_at: now,
    completed_at: null,
  };
}

/**
 * Create a task: `open`, with its `task.created` audit event, in one transaction that also
 * requires the assignee (when given) to be a member of the tenant (422 on `assignee_id`).
 */
export async function createTask(
  deps: TaskDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof TaskCreate>,
): Promise<Task> {
  const task = newTask(tenantId, deps.clock.now().toISOString(), input);
  const result = await deps.tasks.create(
    task,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'task.created',
      actor_id: actor.user_id,
      entity_type: 'task',
      entity_id: task.id,
      summary: task.title,
      metadata: { assignee_role: task.assignee_role, assignee_id: task.assignee_id },
    }),
  );
  if (result === 'not_member') throw notMember();
  if (result !== 'written') throw new Error(`task create: ${result}`);
  return task;
}

/**
 * The task a workflow rule's action creates (docs/api.md section 9.1), under the id the action
 * derives from its rule, event and position, so a redelivered event finds it there: `created`,
 * or `duplicate` when it already exists. Its audit event names the rule as the actor.
 */
export async function createRuleTask(
  deps: TaskDeps,
  rule: { id: string; name: string },
  tenantId: string,
  input: z.output<typeof TaskCreate>,
  id: string,
): Promise<'created' | 'duplicate'> {
  const task = newTask(tenantId, deps.clock.now().toISOString(), input, { id, sourceRuleId: rule.id });
  const result = await deps.tasks.create(
    task,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'task.created',
      actor_id: `workflow_rule:${rule.id}`,
      entity_type: 'task',
      entity_id: task.id,
      summary: task.title,
      metadata: { source_rule_id: rule.id, rule_name: rule.name, assignee_role: task.assignee_role },
    }),
  );
  if (result === 'written') return 'created';
  if (result === 'exists') return 'duplicate';
  throw new Error(`rule task create: ${result}`);
}

export async function getTask(deps: TaskDeps, tenantId: string, id: string) {
  const found = await deps.tasks.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listTasks = (deps: TaskDeps, tenantId: string, filter: TaskFilter, page: PageRequest) =>
  deps.tasks.list(tenantId, filter, page);

/**
 * The fields a PATCH may change, as the task entity declares them (read from the declaration, a
 * list of names, not from the PATCH schema: the workflow worker bundles this module, and zod
 * schemas are not tree-shaken).
 */
const EDITABLE = taskEditable.fields;

/**
 * Change a task's title, description, assignee or due date.
 * 1. Read it (404) and apply the fields given; a field set to what it is changes nothing, and a
 *    PATCH that changes nothing answers the task with no write and no audit event.
 * 2. Write it with its `task.updated` audit event (the changed fields), on the condition that it
 *    is still the task read (else 409 conflict: read it again) and, with a new assignee, that the
 *    assignee is a member (else 422 on `assignee_id`).
 */
export async function updateTask(
  deps: TaskDeps,
  actor: Principal,
  tenantId: string,
  id: string,
  patch: z.output<typeof TaskUpdate>,
): Promise<Task> {
  const current = await getTask(deps, tenantId, id);
  const wanted: Partial<Task> = {
    ...patch,
    ...(patch.due_at === undefined ? {} : { due_at: utc(patch.due_at) }),
  };
  const changed = EDITABLE.filter((field) => wanted[field] !== undefined && wanted[field] !== current[field]);
  if (changed.length === 0) return current;
  const next: Task = { ...current, updated_at: laterThan(current.updated_at, deps.clock.now()) };
  for (const field of changed) Object.assign(next, { [field]: wanted[field] });
  const result = await deps.tasks.replace(
    next,
    current.updated_at,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'task.updated',
      actor_id: actor.user_id,
      entity_type: 'task',
      entity_id: id,
      summary: `changed ${changed.join(', ')}`,
      metadata: { changed },
    }),
    { checkAssignee: changed.includes('assignee_id') && next.assignee_id !== null, outbox: null },
  );
  if (result === 'not_member') throw notMember();
  if (result === 'changed') throw new ConflictError('The task changed meanwhile; read it again.');
  return next;
}

/**
 * Move a task through its states.
 * 1. Read it (404) and check the move against TRANSITIONS (409 invalid_transition).
 * 2. Write it with `completed_at` set on `done`, its `task.status_changed` audit event and the
 *    outbox event workflow rules act on, on the condition that it is still the task read: of
 *    two racing changes one wins, the other is 409 invalid_transition.
 */
export async function changeTaskStatus(
  deps: TaskDeps,
  /** Null: the system, for a workflow rule's `set_status` (audited with `actor_id` null). */
  actor: Principal | null,
  tenantId: string,
  id: string,
  change: z.output<typeof TaskStatusChange>,
  cause?: RunCause,
): Promise<Task> {
  const current = await getTask(deps, tenantId, id);
  if (!canTransitionTask(current.status, change.status)) {
    throw new InvalidTransitionError(`A task that is ${current.status} cannot become ${change.status}.`);
  }
  const now = laterThan(current.updated_at, deps.clock.now());
  const next: Task = {
    ...current,
    status: change.status,
    updated_at: now,
    completed_at: change.status === 'done' ? now : null,
  };
  const result = await deps.tasks.replace(
    next,
    current.updated_at,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'task.status_changed',
      actor_id: actor?.user_id ?? null,
      entity_type: 'task',
      entity_id: id,
      summary: `${current.status} -> ${change.status}`,
      metadata: { from: current.status, to: change.status, note: change.note ?? null },
    }),
    { checkAssignee: false, outbox: workflowEventRecorded(deps.clock, 'task.status_changed', next, cause) },
  );
  if (result !== 'written') throw new InvalidTransitionError('The task changed meanwhile; read it again.');
  return next;
}
