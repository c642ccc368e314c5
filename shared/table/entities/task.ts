import { type AccessDoc, entity, record } from '../entity';
import { editable } from '../editable';

/** A task (docs/api.md section 9), created by a person or by a workflow rule. */
export const task = /* @__PURE__ */ entity('task', {
  table: { pk: 'TENANT#{tenant_id}#TASK', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#TASK#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#TASK#ASSIGNEE#{assignee_id}', sk: '{id}' },
});

/** The task record, in the order the API returns it (TaskRead derives from it). */
export const taskRecord = /* @__PURE__ */ record(task, {
  id: 'string',
  tenant_id: 'string',
  title: 'string',
  description: 'string|null',
  assignee_role: 'enum|null',
  assignee_id: 'string|null',
  due_at: 'datetime|null',
  subject_type: 'string|null',
  subject_id: 'string|null',
  status: 'enum',
  /** The workflow rule that created the task; null for a task a person created. */
  source_rule_id: 'string|null',
  created_at: 'datetime',
  updated_at: 'datetime',
  completed_at: 'datetime|null',
});

/** What a task's PATCH may change (docs/api.md section 9): TaskUpdate and updateTask derive from it. */
export const taskEditable = /* @__PURE__ */ editable(taskRecord, [
  'title',
  'description',
  'assignee_role',
  'assignee_id',
  'due_at',
]);

export const access = {
  entity: task,
  labels: { id: 'task_id' },
  patterns: [
    { name: 'Get task', sortKey: 'equals' },
    {
      name: 'List tasks, newest first',
      notes: 'subject_type and subject_id are filter expressions on whichever index answers',
    },
    {
      name: 'List tasks by assignee',
      index: 'gsi2',
      notes: 'sparse: unassigned tasks carry no gsi2 keys; status, when also given, is a filter',
    },
    { name: 'List tasks by status', index: 'gsi1' },
  ],
} satisfies AccessDoc<typeof task>;
