import * as z from 'zod/mini';
import { workflowRuleEditable } from '#shared/table/entities/workflow-rule';
import { patchSchema } from './patch';
import { FIELD_PATH, invalidPlaceholders } from '#shared/kernel/placeholders';
import { Role } from './auth';
import { FreeForm, named, pageQuery, text, type TextKind, timestamp } from './common';
import {
  NotificationCategory,
  NotificationChannel,
  NotificationPriority,
  recipientChecks,
} from './notifications';
import { TimeZone } from './tenants';
import { RECORDED_EVENT_TYPES } from '#shared/kernel/event-types';
import { CronError, parseCron, shortestGapMinutes } from '#shared/kernel/cron';

/**
 * Workflow rules (docs/api.md section 9.1): a trigger (an audit event type of this service),
 * conditions on the event's entity, and the actions to take when they all pass.
 */

/** Every recorded change of the event-type declaration (shared/kernel/event-types.ts). */
export const WORKFLOW_EVENT_TYPES = RECORDED_EVENT_TYPES;
export const WorkflowEventType = z.enum(WORKFLOW_EVENT_TYPES);

export const CONDITION_OPS = ['eq', 'neq', 'in', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists'] as const;

/** A dotted path into the event's entity (`severity`, `lines.0.total`). */
export const FieldPath = z
  .string()
  .check(
    z.minLength(1),
    z.maxLength(200),
    z.regex(FIELD_PATH, 'must be a dotted path of letters, digits and underscores, like lines.0.total'),
  );

const Scalar = z.union([text(0, 1000, 'free'), z.number(), z.boolean(), z.null()]);
const Ordered = z.union([text(1, 1000, 'free'), z.number()]);

/** Each operator takes the value it can compare with; `exists` takes true (present) or false. */
export const Condition = named(
  z.discriminatedUnion('op', [
    z.strictObject({ field: FieldPath, op: z.enum(['eq', 'neq']), value: Scalar }),
    z.strictObject({
      field: FieldPath,
      op: z.literal('in'),
      value: z.array(Scalar).check(z.minLength(1), z.maxLength(50)),
    }),
    z.strictObject({ field: FieldPath, op: z.enum(['gt', 'gte', 'lt', 'lte']), value: Ordered }),
    z.strictObject({
      field: FieldPath,
      op: z.literal('contains'),
      value: z.union([text(1, 1000, 'free'), z.number(), z.boolean()]),
    }),
    z.strictObject({ field: FieldPath, op: z.literal('exists'), value: z._default(z.boolean(), true) }),
  ]),
  'WorkflowCondition',
);

/** Text with `{{field}}` placeholders, each a dotted path into the entity. */
const Template = (min: number, max: number, kind: TextKind = 'line') =>
  text(min, max, kind).check(
    z.refine((t) => invalidPlaceholders(t).length === 0, {
      message: 'a {{placeholder}} must hold a dotted field path, like {{subject_id}}',
      params: { code: 'invalid_placeholder' },
    }),
  );

export const CreateTaskAction = named(
  z.strictObject({
    type: z.literal('create_task'),
    title: Template(2, 255, 'name'),
    assignee_role: z.optional(z.nullable(Role)),
    due_in_hours: z.optional(z.nullable(z.int().check(z.minimum(1), z.maximum(8760)))),
  }),
  'WorkflowCreateTaskAction',
);

export const NotifyAction = named(
  z
    .strictObject({
      type: z.literal('notify'),
      channel: NotificationChannel,
      recipient: z.optional(Template(1, 2048)),
      recipient_user_id: z.optional(Template(1, 128)),
      category: z._default(NotificationCategory, 'general'),
      priority: z._default(NotificationPriority, 'normal'),
      subject: z.optional(z.nullable(Template(1, 255, 'name'))),
      body: Template(1, 65536, 'free'),
    })
    .check(...recipientChecks()),
  'WorkflowNotifyAction',
);

/** A delay's bounds: a minute to a week. */
export const DELAY_MINUTES_MAX = 10080;

/** The actions after it wait this long on a `rule_delay` timer, then run on the subject as it is then. */
export const DelayAction = named(
  z.strictObject({
    type: z.literal('delay'),
    minutes: z.int().check(z.minimum(1), z.maximum(DELAY_MINUTES_MAX)),
  }),
  'WorkflowDelayAction',
);

/** Every status a rule may move its subject to (each subject's own state machine decides whether it may). */
export const SUBJECT_STATUSES = [
  'open',
  'acknowledged',
  'resolved',
  'in_progress',
  'done',
  'cancelled',
  'draft',
  'paid',
  'void',
] as const;

/** Moves the triggering exception, task or document to `status`, as the system. */
export const SetStatusAction = named(
  z.strictObject({ type: z.literal('set_status'), status: z.enum(SUBJECT_STATUSES) }),
  'WorkflowSetStatusAction',
);

export const WorkflowAction = z.discriminatedUnion('type', [
  CreateTaskAction,
  NotifyAction,
  DelayAction,
  SetStatusAction,
]);

/** A scheduled rule fires at most every this many minutes (docs/api.md section 9.1). */
export const SCHEDULE_MIN_MINUTES = 15;

/** A 5-field cron that parses and cannot fire more often than every 15 minutes. */
export const Cron = z.string().check(
  z.minLength(9),
  z.maxLength(200),
  z.superRefine((cron, ctx) => {
    let problem: string | null = null;
    try {
      const gap = shortestGapMinutes(parseCron(cron));
      if (gap < SCHEDULE_MIN_MINUTES)
        problem = `can fire ${gap} minute(s) apart; a schedule fires at most every ${SCHEDULE_MIN_MINUTES} minutes`;
    } catch (err) {
      if (!(err instanceof CronError)) throw err;
      problem = err.message;
    }
    if (problem)
      ctx.issues.push({ code: 'custom', message: problem, params: { code: 'invalid_cron' }, input: cron });
  }),
);

export const EventTrigger = named(z.strictObject({ event_type: WorkflowEventType }), 'WorkflowEventTrigger');
export const ScheduleTrigger = named(
  z.strictObject({
    schedule: z.strictObject({
      cron: Cron,
      /** The rule's own zone; without it, the tenant's. */
      timezone: z.optional(TimeZone),
    }),
  }),
  'WorkflowScheduleTrigger',
);
export const WorkflowTrigger = z.union([EventTrigger, ScheduleTrigger]);

const fields = {
  name: text(2, 120, 'name'),
  trigger: WorkflowTrigger,
  conditions: z.array(Condition).check(z.maxLength(10)),
  actions: z.array(WorkflowAction).check(z.minLength(1), z.maxLength(5)),
  enabled: z.boolean(),
};

export const WorkflowRuleCreate = named(
  z.strictObject({
    name: fields.name,
    trigger: fields.trigger,
    conditions: z._default(fields.conditions, []),
    actions: fields.actions,
    enabled: z._default(fields.enabled, true),
  }),
  'WorkflowRuleCreate',
);

/**
 * The fields `workflowRuleEditable` declares (shared/table/entities/workflow-rule.ts), each
 * optional, and the version the change was made against (409 conflict when it is not the current one).
 */
export const WorkflowRuleUpdate = named(patchSchema(workflowRuleEditable, fields), 'WorkflowRuleUpdate');

export const WorkflowRuleTest = named(
  z.strictObject({ event: z.strictObject({ event_type: WorkflowEventType, entity: FreeForm }) }),
  'WorkflowRuleTest',
);

export const WorkflowRuleListQuery = z.strictObject({ ...pageQuery });

export const WorkflowRulePath = z.object({ tenant_id: text(1, 64), rule_id: text(1, 64) });

export const WORKFLOW_RUN_STATUS_VALUES = ['running', 'waiting', 'succeeded', 'failed'] as const;
export const WorkflowRunStatus = z.enum(WORKFLOW_RUN_STATUS_VALUES);

interface RunSubject {
  subject_type?: string | undefined;
  subject_id?: string | undefined;
}

/**
 * Each filter has a key of its own (docs/data-model.md), so a filtered first page is full: the
 * subject is one key, so its two halves come together.
 */
export const WorkflowRunListQuery = z
  .strictObject({
    rule_id: z.optional(text(1, 64)),
    status: z.optional(WorkflowRunStatus),
    subject_type: z.optional(text(1, 64)),
    subject_id: z.optional(text(1, 128)),
    since: z.optional(timestamp()),
    ...pageQuery,
  })
  .check(
    z.refine<RunSubject>((q) => (q.subject_type === undefined) === (q.subject_id === undefined), {
      path: ['subject_id'],
      message: 'give subject_type and subject_id together',
      params: { code: 'subject_incomplete' },
    }),
  );

export const WorkflowRunPath = z.object({ tenant_id: text(1, 64), workflow_run_id: text(1, 64) });

/** A replay of a rule's failed runs: `since` at most 30 days back (checked by the use case). */
export const WorkflowRuleReplay = named(
  z.strictObject({ since: timestamp(), until: z.optional(timestamp()), status: z.literal('failed') }),
  'WorkflowRuleReplay',
);

export const WorkflowReplayPath = z.object({ tenant_id: text(1, 64), replay_id: text(1, 64) });
