import type { WorkflowRuleCreate, WorkflowRuleRead } from '../../../../clients/typescript/index.js';

/**
 * A rule as the form edits it (every value as the operator typed it) and the conversions to and
 * from the API's shape. Numbers typed as text go to the API as numbers when they are numbers and
 * as typed otherwise, so a wrong one comes back as the API's 422 beside its field, not as a
 * second set of rules kept here.
 */

export type Trigger = WorkflowRuleRead['trigger'];
export type Action = WorkflowRuleRead['actions'][number];
export type Condition = WorkflowRuleRead['conditions'][number];

export const CONDITION_OPS = ['eq', 'neq', 'in', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists'] as const;
export const ACTION_TYPES = ['create_task', 'notify', 'delay', 'set_status'] as const;
export const ROLES = ['operator', 'accountant', 'manager', 'owner', 'support'] as const;
export const CHANNELS = ['in_app', 'email', 'sms', 'telegram', 'webhook'] as const;
export const CATEGORIES = [
  'general',
  'exceptions',
  'tasks',
  'documents',
  'integrations',
  'accounting',
  'security',
] as const;
export const STATUSES = [
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

export interface ConditionDraft {
  field: string;
  op: (typeof CONDITION_OPS)[number];
  value: string;
}

/** One action's fields, by name, as text; `type` says which of them count. */
export type ActionDraft = { type: (typeof ACTION_TYPES)[number] } & Record<string, string>;

export interface RuleDraft {
  name: string;
  on: 'event' | 'schedule';
  event_type: string;
  cron: string;
  timezone: string;
  conditions: ConditionDraft[];
  actions: ActionDraft[];
  enabled: boolean;
}

export const EMPTY_RULE: RuleDraft = {
  name: '',
  on: 'event',
  event_type: 'exception.created',
  cron: '0 8 * * 1-5',
  timezone: '',
  conditions: [],
  actions: [{ type: 'create_task', title: '', assignee_role: '', due_in_hours: '' }],
  enabled: true,
};

export const newAction = (type: ActionDraft['type']): ActionDraft =>
  type === 'create_task'
    ? { type, title: '', assignee_role: '', due_in_hours: '' }
    : type === 'notify'
      ? {
          type,
          channel: 'in_app',
          recipient: '',
          recipient_user_id: '',
          category: 'general',
          priority: 'normal',
          subject: '',
          body: '',
        }
      : type === 'delay'
        ? { type, minutes: '60' }
        : { type, status: 'acknowledged' };

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

export function draftOf(rule: WorkflowRuleRead): RuleDraft {
  const t = rule.trigger;
  return {
    name: rule.name,
    on: 'schedule' in t ? 'schedule' : 'event',
    event_type: 'event_type' in t ? t.event_type : EMPTY_RULE.event_type,
    cron: 'schedule' in t ? t.schedule.cron : EMPTY_RULE.cron,
    timezone: 'schedule' in t ? text(t.schedule.timezone) : '',
    conditions: rule.conditions.map((c) => ({
      field: c.field,
      op: c.op,
      value: Array.isArray(c.value) ? c.value.map(valueText).join(', ') : valueText(c.value),
    })),
    actions: rule.actions.map((a) => {
      const fields: ActionDraft = { ...newAction(a.type) };
      for (const [k, v] of Object.entries(a)) if (k !== 'type') fields[k] = text(v);
      return fields;
    }),
    enabled: rule.enabled,
  };
}

const valueText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `true`, `false` and `null` are those values; anything else is text (a number as text compares exactly). */
const scalar = (s: string): string | boolean | null =>
  s === 'true' ? true : s === 'false' ? false : s === 'null' ? null : s;

const number = (s: string): number | string => (/^-?\d+$/.test(s.trim()) ? Number(s.trim()) : s);

/** The API's body for the draft: only the fields each part needs, empty optional ones left out. */
export function bodyOf(d: RuleDraft): WorkflowRuleCreate {
  const trigger =
    d.on === 'event'
      ? { event_type: d.event_type }
      : { schedule: { cron: d.cron.trim(), ...(d.timezone.trim() ? { timezone: d.timezone.trim() } : {}) } };
  const conditions = d.conditions.map((c) => ({
    field: c.field.trim(),
    op: c.op,
    value:
      c.op === 'exists'
        ? c.value !== 'false'
        : c.op === 'in'
          ? c.value.split(',').map((v) => scalar(v.trim()))
          : scalar(c.value),
  }));
  const actions = d.actions.map((a) => {
    const present = (k: string) => (a[k]?.trim() ? { [k]: a[k]!.trim() } : {});
    switch (a.type) {
      case 'create_task':
        return {
          type: a.type,
          title: a.title ?? '',
          ...(a.assignee_role ? { assignee_role: a.assignee_role } : {}),
          ...(a.due_in_hours?.trim() ? { due_in_hours: number(a.due_in_hours) } : {}),
        };
      case 'notify':
        return {
          type: a.type,
          channel: a.channel,
          ...present('recipient'),
          ...present('recipient_user_id'),
          category: a.category,
          priority: a.priority,
          ...present('subject'),
          body: a.body ?? '',
        };
      case 'delay':
        return { type: a.type, minutes: number(a.minutes ?? '') };
      case 'set_status':
        return { type: a.type, status: a.status };
    }
  });
  // The casts stand for the API's checks: a typed value the schema refuses is its 422.
  return {
    name: d.name.trim(),
    trigger: trigger as WorkflowRuleCreate['trigger'],
    conditions: conditions as WorkflowRuleCreate['conditions'],
    actions: actions as WorkflowRuleCreate['actions'],
    enabled: d.enabled,
  };
}

export const triggerSummary = (t: Trigger) =>
  'event_type' in t
    ? `on ${t.event_type}`
    : `schedule ${t.schedule.cron}${t.schedule.timezone ? ` (${t.schedule.timezone})` : ''}`;

export function actionSummary(a: Action): string {
  switch (a.type) {
    case 'create_task':
      return `task "${a.title}"${a.assignee_role ? ` for ${a.assignee_role}` : ''}`;
    case 'notify':
      return `${a.channel.replace('_', '-')} message`;
    case 'delay':
      return `wait ${a.minutes} min`;
    case 'set_status':
      return `set status ${a.status}`;
  }
}

export const conditionSummary = (c: Condition) =>
  `${c.field} ${c.op} ${Array.isArray(c.value) ? c.value.map(valueText).join(', ') : valueText(c.value)}`;
