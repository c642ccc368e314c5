import * as z from 'zod/mini';
import { Role } from './auth';
import { listOf, named } from './common';
import { DateTime } from './datetime';
import { DocumentStatus, DocumentType, Money } from './documents';
import { NotificationCategory, NotificationChannel, NotificationPriority } from './notifications';
import { TaskStatus } from './tasks';
import { Condition, CONDITION_OPS, WorkflowAction, WorkflowEventType, WorkflowRunStatus } from './workflows';
import { workflowRunRecord } from '#shared/table/entities/workflow-run';
import { workflowReplayRecord } from '#shared/table/entities/workflow-replay';
import { documentRecord } from '#shared/table/entities/document';
import { taskRecord } from '#shared/table/entities/task';
import { workflowRuleRecord } from '#shared/table/entities/workflow-rule';
import { readSchema } from './records';

/**
 * The response records of the business records (documents, tasks, workflow rules), apart from
 * responses.ts for the same reason: only the OpenAPI document and the domain's types use them.
 */

export const DocumentLineRead = named(
  z.object({
    description: z.string(),
    quantity: z.string(),
    unit_amount: Money,
    /** quantity x unit_amount, rounded half up to the cent. */
    total: Money,
  }),
  'DocumentLineRead',
);

export const DocumentRead = named(
  readSchema(documentRecord, {
    document_type: DocumentType,
    amount: Money,
    external_refs: z.record(z.string(), z.string()),
    lines: z.array(DocumentLineRead),
    status: DocumentStatus,
  }),
  'DocumentRead',
);

export const DocumentList = named(listOf(DocumentRead), 'DocumentList');

export const TaskRead = named(
  readSchema(taskRecord, { assignee_role: Role, status: TaskStatus }),
  'TaskRead',
);

export const TaskList = named(listOf(TaskRead), 'TaskList');

export const WorkflowRuleRead = named(
  readSchema(workflowRuleRecord, {
    trigger: z.union([
      z.object({ event_type: WorkflowEventType }),
      z.object({ schedule: z.object({ cron: z.string(), timezone: z.optional(z.string()) }) }),
    ]),
    conditions: z.array(Condition),
    actions: z.array(WorkflowAction),
  }),
  'WorkflowRuleRead',
);

export const WorkflowRuleList = named(listOf(WorkflowRuleRead), 'WorkflowRuleList');

const PlannedMissing = z.array(z.string());

export const WorkflowPlannedTask = named(
  z.object({
    type: z.literal('create_task'),
    title: z.string(),
    assignee_role: z.nullable(Role),
    due_at: z.nullable(DateTime),
    subject_type: z.nullable(z.string()),
    subject_id: z.nullable(z.string()),
    /** Fields of the entity that a placeholder named but that had no value (filled with nothing). */
    missing_fields: PlannedMissing,
  }),
  'WorkflowPlannedTask',
);

export const WorkflowPlannedNotification = named(
  z.object({
    type: z.literal('notify'),
    channel: NotificationChannel,
    /** Null when the action names a member: their address is read when the notification is drafted. */
    recipient: z.nullable(z.string()),
    recipient_user_id: z.nullable(z.string()),
    category: NotificationCategory,
    priority: NotificationPriority,
    subject: z.nullable(z.string()),
    body: z.string(),
    missing_fields: PlannedMissing,
  }),
  'WorkflowPlannedNotification',
);

export const WorkflowPlannedDelay = named(
  z.object({
    type: z.literal('delay'),
    minutes: z.int(),
    /** When the actions after it would run, counted from now. */
    until: DateTime,
  }),
  'WorkflowPlannedDelay',
);

export const WorkflowPlannedStatus = named(
  z.object({
    type: z.literal('set_status'),
    status: z.string(),
    /** The subject it would move; null when the event has none (the action would fail). */
    subject_type: z.nullable(z.string()),
    subject_id: z.nullable(z.string()),
    /** Its status in the event; null when the event has none. */
    from: z.nullable(z.string()),
  }),
  'WorkflowPlannedStatus',
);

export const WorkflowRuleTestRead = named(
  z.object({
    matched: z.boolean(),
    /** Whether the event has the rule's trigger type (matched needs it and every condition). */
    event_type_matched: z.boolean(),
    conditions: z.array(
      z.object({
        field: z.string(),
        op: z.enum(CONDITION_OPS),
        value: z.unknown(),
        actual: z.unknown(),
        passed: z.boolean(),
      }),
    ),
    /** What the rule would do, placeholders filled; empty when it did not match. */
    actions: z.array(
      z.discriminatedUnion('type', [
        WorkflowPlannedTask,
        WorkflowPlannedNotification,
        WorkflowPlannedDelay,
        WorkflowPlannedStatus,
      ]),
    ),
    side_effects: z.literal('none'),
  }),
  'WorkflowRuleTestRead',
);

export const WorkflowRunAction = named(
  z.object({
    index: z.int(),
    type: z.string(),
    status: z.enum(['pending', 'waiting', 'done', 'failed', 'skipped']),
    result: z.optional(
      z.object({
        task_id: z.optional(z.string()),
        notification_id: z.optional(z.string()),
        status: z.optional(z.string()),
      }),
    ),
    error: z.optional(z.object({ code: z.string(), message: z.string() })),
    at: z.optional(DateTime),
  }),
  'WorkflowRunAction',
);

export const WorkflowRunRead = named(
  readSchema(workflowRunRecord, {
    trigger: z.object({
      event_id: z.string(),
      event_type: z.optional(z.string()),
      scheduled_for: z.optional(DateTime),
    }),
    status: WorkflowRunStatus,
    actions: z.array(WorkflowRunAction),
    replays: z.array(z.object({ at: DateTime, actor_id: z.string(), rule_version: z.int() })),
  }),
  'WorkflowRunRead',
);

export const WorkflowRunList = named(listOf(WorkflowRunRead), 'WorkflowRunList');

export const WorkflowReplayRead = named(
  readSchema(workflowReplayRecord, { status: z.enum(['queued', 'running', 'done']) }),
  'WorkflowReplayRead',
);
