import { describe, expect, it } from 'vitest';
import { parse } from '#shared/api/issues';
import {
  WORKFLOW_EVENT_TYPES,
  WorkflowRuleCreate,
  WorkflowRuleTest,
  WorkflowRuleUpdate,
  WorkflowRunListQuery,
} from '#shared/api/schemas/workflows';
import { SUBSCRIBABLE_EVENTS } from '#shared/kernel/event-types';
import { ValidationError } from '#shared/kernel/errors';

const valid = {
  name: 'Critical exceptions need a manager',
  trigger: { event_type: 'exception.created' },
  conditions: [{ field: 'severity', op: 'eq', value: 'critical' }],
  actions: [{ type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager', due_in_hours: 4 }],
};

const errorsOf = (
  schema: typeof WorkflowRuleCreate | typeof WorkflowRuleUpdate | typeof WorkflowRuleTest,
  body: unknown,
) => {
  try {
    parse(schema, body);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.errors!.map((e) => `${e.path} ${e.code}`);
  }
};
const withCondition = (condition: unknown) => ({ ...valid, conditions: [condition] });
const withAction = (action: unknown) => ({ ...valid, actions: [action] });

describe('WorkflowRuleCreate (docs/api.md section 9.1)', () => {
  it('defaults conditions to none and enabled to true', () => {
    const { conditions: _, ...bare } = valid;
    expect(parse(WorkflowRuleCreate, bare)).toMatchObject({ conditions: [], enabled: true });
    expect(parse(WorkflowRuleCreate, { ...valid, enabled: false }).enabled).toBe(false);
  });

  it('takes every event type of the contract, and nothing else', () => {
    for (const event_type of [
      'exception.created',
      'exception.status_changed',
      'document.created',
      'document.status_changed',
      'task.status_changed',
      'accounting_export.failed',
      'integration.issue_opened',
    ])
      expect(errorsOf(WorkflowRuleCreate, { ...valid, trigger: { event_type } }), event_type).toEqual([]);
    expect(errorsOf(WorkflowRuleCreate, { ...valid, trigger: { event_type: 'task.created' } })).toEqual([
      'trigger.event_type invalid_value',
    ]);
  });

  it.each([
    [{ ...valid, name: 'x' }, 'name too_small'],
    [{ ...valid, name: 'x'.repeat(121) }, 'name too_big'],
    [{ ...valid, conditions: Array.from({ length: 11 }, () => valid.conditions[0]) }, 'conditions too_big'],
    [{ ...valid, actions: [] }, 'actions too_small'],
    [{ ...valid, actions: Array.from({ length: 6 }, () => valid.actions[0]) }, 'actions too_big'],
    [{ ...valid, enabled: 'yes' }, 'enabled invalid_type'],
    [{ ...valid, version: 3 }, 'version unrecognized_key'],
  ])('%# %j answers %s', (body, expected) => {
    expect(errorsOf(WorkflowRuleCreate, body)).toEqual([expected]);
  });

  describe('conditions', () => {
    it.each([
      [{ field: 'severity', op: 'eq', value: 'critical' }],
      [{ field: 'amount', op: 'gte', value: '1000.00' }],
      [{ field: 'amount', op: 'lt', value: 1000 }],
      [{ field: 'lines.0.total', op: 'neq', value: null }],
      [{ field: 'severity', op: 'in', value: ['warning', 'critical'] }],
      [{ field: 'tags', op: 'contains', value: 'vip' }],
      [{ field: 'due_on', op: 'exists' }],
      [{ field: 'due_on', op: 'exists', value: false }],
    ])('accepts %j', (condition) => {
      expect(errorsOf(WorkflowRuleCreate, withCondition(condition))).toEqual([]);
    });

    it.each([
      [{ field: 'severity', op: 'like', value: 'x' }, 'conditions.0.op invalid_union'],
      [{ field: 'severity', op: 'eq' }, 'conditions.0.value invalid_union'],
      [{ field: 'severity', op: 'eq', value: { a: 1 } }, 'conditions.0.value invalid_union'],
      [{ field: 'severity', op: 'in', value: 'critical' }, 'conditions.0.value invalid_type'],
      [{ field: 'severity', op: 'in', value: [] }, 'conditions.0.value too_small'],
      [{ field: 'amount', op: 'gt', value: true }, 'conditions.0.value invalid_union'],
      [{ field: 'amount', op: 'gt', value: null }, 'conditions.0.value invalid_union'],
      [{ field: 'x', op: 'exists', value: 'yes' }, 'conditions.0.value invalid_type'],
      [{ field: 'a..b', op: 'exists' }, 'conditions.0.field invalid_format'],
      [{ field: 'a b', op: 'exists' }, 'conditions.0.field invalid_format'],
      [{ field: '', op: 'exists' }, 'conditions.0.field too_small'],
      [{ field: 'x', op: 'exists', extra: 1 }, 'conditions.0.extra unrecognized_key'],
    ])('refuses %j: %s', (condition, expected) => {
      expect(errorsOf(WorkflowRuleCreate, withCondition(condition))).toContain(expected);
    });
  });

  describe('actions', () => {
    it('accepts a notification with placeholders', () => {
      expect(
        errorsOf(
          WorkflowRuleCreate,
          withAction({
            type: 'notify',
            channel: 'in_app',
            recipient: 'u-1',
            subject: '{{ number }}',
            body: 'Voided {{number}}',
          }),
        ),
      ).toEqual([]);
    });

    it.each([
      [{ type: 'archive' }, 'actions.0.type invalid_union'],
      [{ type: 'create_task', title: 'x' }, 'actions.0.title too_small'],
      [{ type: 'create_task', title: 'Fix {{not a path}}' }, 'actions.0.title invalid_placeholder'],
      [{ type: 'create_task', title: 'Fix {{}}' }, 'actions.0.title invalid_placeholder'],
      [{ type: 'create_task', title: 'Fix it', due_in_hours: 0 }, 'actions.0.due_in_hours too_small'],
      [{ type: 'create_task', title: 'Fix it', due_in_hours: 1.5 }, 'actions.0.due_in_hours invalid_type'],
      [
        { type: 'create_task', title: 'Fix it', assignee_role: 'boss' },
        'actions.0.assignee_role invalid_value',
      ],
      [{ type: 'create_task', title: 'Fix it', assignee_id: 'u1' }, 'actions.0.assignee_id unrecognized_key'],
      [{ type: 'notify', channel: 'fax', recipient: 'x', body: 'b' }, 'actions.0.channel invalid_value'],
      [{ type: 'notify', channel: 'email', recipient: 'a@b.test' }, 'actions.0.body invalid_type'],
      [{ type: 'notify', channel: 'email', recipient: '', body: 'b' }, 'actions.0.recipient too_small'],
    ])('refuses %j: %s', (action, expected) => {
      expect(errorsOf(WorkflowRuleCreate, withAction(action))).toEqual([expected]);
    });
  });
});

describe('WorkflowRuleUpdate', () => {
  it('requires the version it is made against', () => {
    expect(errorsOf(WorkflowRuleUpdate, { name: 'Renamed' })).toEqual(['version invalid_type']);
    expect(errorsOf(WorkflowRuleUpdate, { version: 0 })).toEqual(['version too_small']);
    expect(errorsOf(WorkflowRuleUpdate, { version: 2, enabled: false })).toEqual([]);
    expect(errorsOf(WorkflowRuleUpdate, { version: 2, id: 'x' })).toEqual(['id unrecognized_key']);
  });
});

describe('WorkflowRuleTest', () => {
  it('takes an event type of the contract and an entity object', () => {
    expect(
      errorsOf(WorkflowRuleTest, { event: { event_type: 'document.status_changed', entity: { id: 'd1' } } }),
    ).toEqual([]);
    expect(
      errorsOf(WorkflowRuleTest, { event: { event_type: 'document.status_changed', entity: [] } }),
    ).toEqual(['event.entity invalid_type']);
    expect(errorsOf(WorkflowRuleTest, { event: { event_type: 'nope', entity: {} } })).toEqual([
      'event.event_type invalid_value',
    ]);
  });
});

describe('the trigger event types', () => {
  it('are every recorded change of the event-type declaration, and nothing else', () => {
    expect(new Set(WORKFLOW_EVENT_TYPES)).toEqual(
      new Set(Object.keys(SUBSCRIBABLE_EVENTS).filter((t) => t !== 'webhook.test')),
    );
    const parsed = WorkflowRuleCreate.safeParse({ ...valid, trigger: { event_type: 'webhook.test' } });
    expect(parsed.success).toBe(false);
  });
});

describe('the runs list query', () => {
  it('takes the subject whole: subject_type without subject_id (or the reverse) is 422 on subject_id', () => {
    expect(WorkflowRunListQuery.safeParse({ subject_type: 'task', subject_id: 'T-1' }).success).toBe(true);
    for (const half of [{ subject_type: 'task' }, { subject_id: 'T-1' }]) {
      const parsed = WorkflowRunListQuery.safeParse(half);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['subject_id']);
    }
    expect(WorkflowRunListQuery.safeParse({ status: 'stuck' }).success).toBe(false);
    expect(WorkflowRunListQuery.safeParse({ since: 'yesterday' }).success).toBe(false);
  });
});
