import { type AccessDoc, entity } from '../entity';

/** A task (docs/api.md section 9), created by a person or by a workflow rule. */
export const task = /* @__PURE__ */ entity('task', {
  table: { pk: 'TENANT#{tenant_id}#TASK', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#TASK#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#TASK#ASSIGNEE#{assignee_id}', sk: '{id}' },
});

/** The task record the stores read back (TaskRead's fields, in order). */
export const TASK_FIELDS = [
  'id',
  'tenant_id',
  'title',
  'description',
  'assignee_role',
  'assignee_id',
  'due_at',
  'subject_type',
  'subject_id',
  'status',
  'source_rule_id',
  'created_at',
  'updated_at',
  'completed_at',
] as const;

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
