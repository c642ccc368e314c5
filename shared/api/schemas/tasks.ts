import * as z from 'zod/mini';
import { Role } from './auth';
import { taskEditable } from '#shared/table/entities/task';
import { named, pageQuery, SubjectId, SubjectType, text, timestamp } from './common';
import { patchSchema } from './patch';

export const TASK_STATUSES = ['open', 'in_progress', 'done', 'cancelled'] as const;
export const TaskStatus = z.enum(TASK_STATUSES);

const DueAt = timestamp();

/** The values of what a task's PATCH may change (the fields: `taskEditable`, shared/table/entities/task.ts). */
const editable = {
  title: text(2, 255, 'name'),
  description: z.nullable(text(1, 2000, 'free')),
  assignee_role: z.nullable(Role),
  assignee_id: z.nullable(text(1, 64)),
  due_at: z.nullable(DueAt),
} satisfies Record<(typeof taskEditable.body)[number], z.ZodMiniType>;

/** docs/api.md section 9. A subject is both fields or neither. */
export const TaskCreate = named(
  z
    .strictObject({
      title: editable.title,
      description: z.optional(editable.description),
      assignee_role: z.optional(editable.assignee_role),
      assignee_id: z.optional(editable.assignee_id),
      due_at: z.optional(editable.due_at),
      subject_type: z.optional(z.nullable(SubjectType)),
      subject_id: z.optional(z.nullable(SubjectId)),
    })
    .check(
      z.superRefine((t, ctx) => {
        const [have, missing] = t.subject_type
          ? ['subject_type', 'subject_id']
          : ['subject_id', 'subject_type'];
        if (Boolean(t.subject_type) !== Boolean(t.subject_id)) {
          ctx.issues.push({
            code: 'custom',
            path: [missing],
            message: `is required with ${have}`,
            params: { code: 'required' },
            input: undefined,
          });
        }
      }),
    ),
  'TaskCreate',
);

/** docs/api.md section 9: the declared editable fields, each optional; anything else is an unknown field. */
export const TaskUpdate = named(patchSchema(taskEditable, editable), 'TaskUpdate');

export const TaskStatusChange = named(
  z.strictObject({ status: TaskStatus, note: z.optional(z.nullable(text(2, 255, 'free'))) }),
  'TaskStatusChange',
);

export const TaskListQuery = z.strictObject({
  status: z.optional(TaskStatus),
  assignee_id: z.optional(text(1, 64)),
  subject_type: z.optional(SubjectType),
  subject_id: z.optional(SubjectId),
  ...pageQuery,
});

export const TaskPath = z.object({ tenant_id: text(1, 64), task_id: text(1, 64) });
