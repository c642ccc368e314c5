import { describe, expect, it } from 'vitest';
import {
  type Condition,
  evaluateCondition,
  evaluateConditions,
  resolvePath,
} from '#shared/domain/workflows/conditions';
import { planAction, tryRule } from '#shared/domain/workflows/plan';
import { fillTemplate } from '#shared/domain/workflows/templates';

/** The matcher and the template engine of workflow rules (docs/api.md section 9.1). */

const entity = {
  id: 'e1',
  severity: 'critical',
  amount: '1000.00',
  count: 3,
  ratio: 0.1,
  flag: true,
  code: '007',
  nothing: null,
  issued_on: '2026-01-31',
  tags: ['vip', 'eu', 42],
  lines: [{ total: '0.10' }, { total: '0.20' }],
  nested: { deep: { value: 'x' } },
};

const check = (field: string, op: Condition['op'], value?: unknown) =>
  evaluateCondition({ field, op, value }, entity).passed;

describe('resolvePath', () => {
  it('follows dotted paths through objects and array indexes', () => {
    expect(resolvePath(entity, 'nested.deep.value')).toBe('x');
    expect(resolvePath(entity, 'lines.1.total')).toBe('0.20');
    expect(resolvePath(entity, 'tags.2')).toBe(42);
  });

  it('answers undefined for anything missing, never an inherited property', () => {
    for (const path of [
      'missing',
      'nested.missing.value',
      'lines.9.total',
      'lines.x',
      'severity.length',
      'count.x',
    ])
      expect(resolvePath(entity, path), path).toBeUndefined();
    for (const path of ['__proto__', 'constructor', 'nested.toString', 'tags.length'])
      expect(resolvePath(entity, path), path).toBeUndefined();
  });
});

describe('operators', () => {
  it('eq / neq: strings exactly, case included', () => {
    expect(check('severity', 'eq', 'critical')).toBe(true);
    expect(check('severity', 'eq', 'Critical')).toBe(false);
    expect(check('severity', 'neq', 'info')).toBe(true);
    expect(check('severity', 'neq', 'critical')).toBe(false);
  });

  it('eq: money and numbers compare exactly as decimals, whatever their form', () => {
    expect(check('amount', 'eq', '1000')).toBe(true);
    expect(check('amount', 'eq', 1000)).toBe(true);
    expect(check('amount', 'eq', '1000.001')).toBe(false);
    expect(check('ratio', 'eq', '0.10')).toBe(true);
    expect(check('count', 'eq', '3')).toBe(true);
    // 0.1 + 0.2 in floating point is not 0.3; the decimal text of the sum is compared as written.
    expect(evaluateCondition({ field: 'v', op: 'eq', value: '0.3' }, { v: 0.1 + 0.2 }).passed).toBe(false);
    expect(evaluateCondition({ field: 'v', op: 'eq', value: '0.30' }, { v: '0.3' }).passed).toBe(true);
  });

  it('eq: no coercion between types; "007" stays text', () => {
    expect(check('flag', 'eq', true)).toBe(true);
    expect(check('flag', 'eq', 'true')).toBe(false);
    expect(check('count', 'eq', true)).toBe(false);
    expect(check('code', 'eq', '7')).toBe(false);
    expect(check('code', 'eq', 7)).toBe(false);
    expect(check('code', 'eq', '007')).toBe(true);
    expect(check('nested', 'eq', 'x')).toBe(false);
  });

  it('in: equal to one of the listed values, by the same rules as eq', () => {
    expect(check('severity', 'in', ['warning', 'critical'])).toBe(true);
    expect(check('severity', 'in', ['info'])).toBe(false);
    expect(check('amount', 'in', [5, 1000])).toBe(true);
  });

  it('gt / gte / lt / lte: exact decimals, ISO dates as text, nothing across types', () => {
    expect(check('amount', 'gt', '999.99')).toBe(true);
    expect(check('amount', 'gt', 1000)).toBe(false);
    expect(check('amount', 'gte', '1000.00')).toBe(true);
    expect(check('amount', 'lt', '1000.01')).toBe(true);
    expect(check('amount', 'lte', '999.999')).toBe(false);
    expect(check('count', 'gt', 2.5)).toBe(true);
    expect(check('amount', 'gt', '10000000000000000000000.5')).toBe(false);
    // Where a float would round both sides to the same number, the decimals still differ.
    const gt = (actual: string, value: string) =>
      evaluateCondition({ field: 'v', op: 'gt', value }, { v: actual }).passed;
    expect(gt('9007199254740993', '9007199254740992')).toBe(true);
    expect(gt('0.30000000000000001', '0.3')).toBe(true);
    expect(gt('0.3', '0.30000000000000001')).toBe(false);
    expect(check('issued_on', 'gt', '2026-01-30')).toBe(true);
    expect(check('issued_on', 'lt', '2026-02-01')).toBe(true);
    expect(check('severity', 'gt', 5)).toBe(false);
    expect(check('flag', 'gt', 0)).toBe(false);
    expect(check('count', 'gt', 'abc')).toBe(false);
  });

  it('contains: substring of a string, element of an array', () => {
    expect(check('severity', 'contains', 'crit')).toBe(true);
    expect(check('severity', 'contains', 'CRIT')).toBe(false);
    expect(check('tags', 'contains', 'eu')).toBe(true);
    expect(check('tags', 'contains', '42')).toBe(true); // 42 and "42" are the same decimal
    expect(check('tags', 'contains', 'us')).toBe(false);
    expect(check('count', 'contains', '3')).toBe(false);
  });

  it('exists: present (default) or absent', () => {
    expect(check('severity', 'exists')).toBe(true);
    expect(check('severity', 'exists', true)).toBe(true);
    expect(check('missing', 'exists')).toBe(false);
    expect(check('missing', 'exists', false)).toBe(true);
    expect(check('nothing', 'exists')).toBe(false);
    expect(check('flag', 'exists', false)).toBe(false);
  });

  it('a missing or null field equals null and nothing else', () => {
    for (const field of ['missing', 'nothing']) {
      expect(check(field, 'eq', null), field).toBe(true);
      expect(check(field, 'eq', ''), field).toBe(false);
      expect(check(field, 'neq', 'x'), field).toBe(true);
      expect(check(field, 'neq', null), field).toBe(false);
      expect(check(field, 'in', ['x']), field).toBe(false);
      expect(check(field, 'in', ['x', null]), field).toBe(true);
      for (const op of ['gt', 'gte', 'lt', 'lte'] as const)
        expect(check(field, op, 0), `${field} ${op}`).toBe(false);
      expect(check(field, 'contains', 'x'), field).toBe(false);
    }
  });

  it('reports each condition with its actual value; all must pass', () => {
    const r = evaluateConditions(
      [
        { field: 'severity', op: 'eq', value: 'critical' },
        { field: 'missing', op: 'exists' },
      ],
      entity,
    );
    expect(r.matched).toBe(false);
    expect(r.conditions).toEqual([
      { field: 'severity', op: 'eq', value: 'critical', actual: 'critical', passed: true },
      { field: 'missing', op: 'exists', value: true, actual: null, passed: false },
    ]);
    expect(evaluateConditions([], entity).matched).toBe(true);
  });
});

describe('templates', () => {
  it('fill placeholders from the entity, with spaces allowed inside the braces', () => {
    expect(fillTemplate('{{severity}}: {{ nested.deep.value }} / {{lines.0.total}}', entity)).toEqual({
      text: 'critical: x / 0.10',
      missing: [],
    });
  });

  it('write numbers, booleans, objects and arrays as JSON', () => {
    expect(fillTemplate('{{count}} {{flag}} {{ratio}} {{tags}} {{nested.deep}}', entity).text).toBe(
      '3 true 0.1 ["vip","eu",42] {"value":"x"}',
    );
  });

  it('fill a missing or null field with nothing, and report it once', () => {
    expect(fillTemplate('Due {{missing}} for {{nothing}}; again {{missing}}!', entity)).toEqual({
      text: 'Due  for ; again !',
      missing: ['missing', 'nothing'],
    });
  });

  it('leave text without placeholders, and stray braces, as they are', () => {
    expect(fillTemplate('Plain text { not } {{ }', entity)).toEqual({
      text: 'Plain text { not } {{ }',
      missing: [],
    });
    expect(fillTemplate('{{{severity}}}', entity).text).toBe('{critical}');
  });

  it('never read a field from the prototype chain', () => {
    expect(fillTemplate('{{constructor}}{{__proto__}}', entity)).toEqual({
      text: '',
      missing: ['constructor', '__proto__'],
    });
  });
});

describe('planned actions', () => {
  const at = new Date('2026-01-31T10:00:00.000Z');
  const event = { event_type: 'exception.created', entity };

  it('a task: title filled, due in hours from the event, about the event entity', () => {
    expect(
      planAction(
        {
          type: 'create_task',
          title: 'Look at {{id}} ({{severity}})',
          assignee_role: 'manager',
          due_in_hours: 4,
        },
        event,
        at,
      ),
    ).toEqual({
      type: 'create_task',
      title: 'Look at e1 (critical)',
      assignee_role: 'manager',
      due_at: '2026-01-31T14:00:00.000Z',
      subject_type: 'exception',
      subject_id: 'e1',
      missing_fields: [],
    });
  });

  it('a task title longer than 255 characters after filling is cut to 255', () => {
    const long = { ...event, entity: { ...entity, severity: 'x'.repeat(300) } };
    const plan = planAction({ type: 'create_task', title: '{{severity}}' }, long, at);
    expect(plan.type === 'create_task' && plan.title.length).toBe(255);
  });

  it('a notification: recipient, subject and body filled; an empty subject is none', () => {
    expect(
      planAction(
        {
          type: 'notify',
          channel: 'in_app',
          recipient: 'u-1',
          subject: '{{missing}}',
          body: 'Amount {{amount}}',
        },
        event,
        at,
      ),
    ).toEqual({
      type: 'notify',
      channel: 'in_app',
      recipient: 'u-1',
      recipient_user_id: null,
      category: 'general',
      priority: 'normal',
      subject: null,
      body: 'Amount 1000.00',
      missing_fields: ['missing'],
    });
  });

  it('a notification without a subject has none; a subject over 255 characters is cut; missing fields are named once', () => {
    expect(
      planAction(
        { type: 'notify', channel: 'telegram', recipient: '{{chat}}', body: '{{chat}} {{id}}' },
        event,
        at,
      ),
    ).toEqual({
      type: 'notify',
      channel: 'telegram',
      recipient: '',
      recipient_user_id: null,
      category: 'general',
      priority: 'normal',
      subject: null,
      body: ' e1',
      missing_fields: ['chat'],
    });
    const long = { ...event, entity: { ...entity, severity: 'y'.repeat(300) } };
    const plan = planAction(
      { type: 'notify', channel: 'email', recipient: 'a@example.com', subject: '{{severity}}', body: 'b' },
      long,
      at,
    );
    expect(plan.type === 'notify' && plan.subject).toBe('y'.repeat(255));
  });

  it('a task is about the event entity only when its id is text of 1 to 128 characters', () => {
    const about = (id: unknown) => {
      const plan = planAction(
        { type: 'create_task', title: 'Check' },
        { ...event, entity: { ...entity, id } },
        at,
      );
      return plan.type === 'create_task' && [plan.subject_type, plan.subject_id];
    };
    expect(about('x'.repeat(128))).toEqual(['exception', 'x'.repeat(128)]);
    for (const id of ['', 'x'.repeat(129), 42, undefined]) expect(about(id)).toEqual([null, null]);
  });

  it('tryRule: matched only for its trigger type with every condition passing, and only then plans', () => {
    const rule = {
      trigger: { event_type: 'exception.created' },
      conditions: [{ field: 'severity', op: 'eq' as const, value: 'critical' }],
      actions: [{ type: 'create_task' as const, title: 'Check {{id}}' }],
    };
    expect(tryRule(rule, event, at)).toMatchObject({ matched: true, event_type_matched: true });
    expect(tryRule(rule, event, at).actions).toHaveLength(1);
    const other = tryRule(rule, { ...event, event_type: 'exception.status_changed' }, at);
    expect(other).toMatchObject({ matched: false, event_type_matched: false, actions: [] });
    expect(other.conditions[0]!.passed).toBe(true);
    const info = tryRule(rule, { ...event, entity: { ...entity, severity: 'info' } }, at);
    expect(info).toMatchObject({ matched: false, event_type_matched: true, actions: [] });
  });
});

describe('the test route shows delays and status changes', () => {
  it('plans a delay with when it would end and a status change with the subject it would move', () => {
    const at = new Date('2031-01-01T10:00:00.000Z');
    const rule = {
      trigger: { event_type: 'exception.created' },
      conditions: [],
      actions: [
        { type: 'delay' as const, minutes: 90 },
        { type: 'set_status' as const, status: 'acknowledged' as const },
      ],
    };
    const tried = tryRule(
      rule,
      { event_type: 'exception.created', entity: { id: 'exc-9', status: 'open' } },
      at,
    );
    expect(tried.actions).toEqual([
      { type: 'delay', minutes: 90, until: '2031-01-01T11:30:00.000Z' },
      {
        type: 'set_status',
        status: 'acknowledged',
        subject_type: 'exception',
        subject_id: 'exc-9',
        from: 'open',
      },
    ]);
  });
});
