import type * as z from 'zod/mini';
import type { Role } from '#shared/kernel/policy';
import type {
  CreateTaskAction,
  NotifyAction,
  SetStatusAction,
  WorkflowAction,
} from '#shared/api/schemas/workflows';
import type { Channel } from '#shared/domain/notifications/ports';
import { evaluateConditions } from './conditions';
import { fillTemplate } from './templates';
import { ruleEventType } from './schedule';

/**
 * What a rule would do for one event (docs/api.md section 9.1): its conditions evaluated and its
 * actions planned, with every placeholder filled. Pure: the test route answers it, and the
 * internal worker runs the planned actions.
 */

/** A notify action stored before actions had a category and a priority lacks them (`general`, `normal`). */
type Stored<A> = A extends { type: 'notify' }
  ? Omit<A, 'category' | 'priority'> & Partial<Pick<A, Extract<keyof A, 'category' | 'priority'>>>
  : A;
export type Action = Stored<z.output<typeof WorkflowAction>>;

/** A triggering event: its type and the entity it is about, as the API answers that entity. */
export interface WorkflowEvent {
  event_type: string;
  entity: Record<string, unknown>;
}

export interface PlannedTask {
  type: z.output<typeof CreateTaskAction>['type'];
  title: string;
  assignee_role: Role | null;
  due_at: string | null;
  subject_type: string | null;
  subject_id: string | null;
  /** Fields of the event's entity that the action's placeholders named but had no value. */
  missing_fields: string[];
}

export interface PlannedNotification {
  type: z.output<typeof NotifyAction>['type'];
  channel: Channel;
  recipient: string | null;
  recipient_user_id: string | null;
  category: z.output<typeof NotifyAction>['category'];
  priority: z.output<typeof NotifyAction>['priority'];
  subject: string | null;
  body: string;
  missing_fields: string[];
}

export interface PlannedDelay {
  type: 'delay';
  minutes: number;
  /** When the actions after it run, counted from `at`. */
  until: string;
}

export interface PlannedStatus {
  type: 'set_status';
  status: z.output<typeof SetStatusAction>['status'];
  subject_type: string | null;
  subject_id: string | null;
  /** The subject's status in the event (null when it has none). */
  from: string | null;
}

export type PlannedAction = PlannedTask | PlannedNotification | PlannedDelay | PlannedStatus;

const TASK_TITLE_MAX = 255;
const NOTIFICATION_SUBJECT_MAX = 255;
const SUBJECT_ID_MAX = 128;

/** What a rule's task (and run) is about: the event's entity (`exception` and its id), when it has an id. */
export const subjectOf = (event: WorkflowEvent) => {
  const id = event.entity.id;
  return typeof id === 'string' && id.length > 0 && id.length <= SUBJECT_ID_MAX
    ? { subject_type: event.event_type.split('.')[0]!, subject_id: id }
    : { subject_type: null, subject_id: null };
};

const merged = (...lists: string[][]) => [...new Set(lists.flat())];

/** An action with its placeholders filled; `at` is when the event happened (a task's due time counts from it). */
export function planAction(action: Action, event: WorkflowEvent, at: Date): PlannedAction {
  if (action.type === 'delay')
    return {
      type: 'delay',
      minutes: action.minutes,
      until: new Date(at.getTime() + action.minutes * 60_000).toISOString(),
    };
  if (action.type === 'set_status') {
    const from = event.entity.status;
    return {
      type: 'set_status',
      status: action.status,
      ...subjectOf(event),
      from: typeof from === 'string' ? from : null,
    };
  }
  if (action.type === 'create_task') {
    const title = fillTemplate(action.title, event.entity);
    return {
      type: action.type,
      title: title.text.slice(0, TASK_TITLE_MAX),
      assignee_role: action.assignee_role ?? null,
      due_at: action.due_in_hours
        ? new Date(at.getTime() + action.due_in_hours * 3_600_000).toISOString()
        : null,
      ...subjectOf(event),
      missing_fields: title.missing,
    };
  }
  const recipient = action.recipient === undefined ? undefined : fillTemplate(action.recipient, event.entity);
  const member =
    action.recipient_user_id === undefined ? undefined : fillTemplate(action.recipient_user_id, event.entity);
  const subject = action.subject ? fillTemplate(action.subject, event.entity) : undefined;
  const body = fillTemplate(action.body, event.entity);
  return {
    type: action.type,
    channel: action.channel,
    recipient: recipient?.text ?? null,
    recipient_user_id: member?.text ?? null,
    category: action.category ?? 'general',
    priority: action.priority ?? 'normal',
    subject: subject?.text.slice(0, NOTIFICATION_SUBJECT_MAX) || null,
    body: body.text,
    missing_fields: merged(
      recipient?.missing ?? [],
      member?.missing ?? [],
      subject?.missing ?? [],
      body.missing,
    ),
  };
}

export interface RuleLike {
  /** A scheduled rule's firings carry its id (an event-triggered rule's is not needed). */
  id?: string;
  trigger: Parameters<typeof ruleEventType>[0]['trigger'];
  conditions: Parameters<typeof evaluateConditions>[0];
  actions: readonly Action[];
}

/**
 * A rule tried on an event: `matched` when the event has the rule's trigger type and every
 * condition passes; the planned actions only when it matched (otherwise nothing would happen).
 */
export function tryRule(rule: RuleLike, event: WorkflowEvent, at: Date) {
  const evaluation = evaluateConditions(rule.conditions, event.entity);
  const typeMatched = ruleEventType(rule) === event.event_type;
  const matched = typeMatched && evaluation.matched;
  return {
    matched,
    event_type_matched: typeMatched,
    conditions: evaluation.conditions,
    actions: matched ? rule.actions.map((a) => planAction(a, event, at)) : [],
  };
}
