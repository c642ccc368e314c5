import { describe, expect, it } from 'vitest';
import { parse } from '#shared/api/issues';
import { canTransitionTask, laterThan } from '#shared/domain/tasks/use-cases';
import { TaskCreate, TaskUpdate } from '#shared/api/schemas/tasks';
import { ValidationError } from '#shared/kernel/errors';
import { taskEditable, taskRecord } from '#shared/table/entities/task';

const errorsOf = (schema: typeof TaskCreate | typeof TaskUpdate, body: unknown): string[] => {
  try {
    parse(schema, body);
    return [];
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.errors!.map((e) => `${e.path} ${e.code}`);
  }
};

describe('TaskCreate (docs/api.md section 9)', () => {
  it('accepts a title alone and every optional field', () => {
    expect(errorsOf(TaskCreate, { title: 'Call the bank' })).toEqual([]);
    expect(
      errorsOf(TaskCreate, {
        title: 'Call the bank',
        description: 'About INV-1042',
        assignee_role: 'manager',
        assignee_id: 'u1',
        due_at: '2026-02-01T09:00:00+01:00',
        subject_type: 'invoice',
        subject_id: 'INV-1042',
      }),
    ).toEqual([]);
  });

  it.each([
    [{ title: 'x' }, 'title too_small'],
    [{ title: 'x'.repeat(256) }, 'title too_big'],
    [{ title: 'ok', description: 'x'.repeat(2001) }, 'description too_big'],
    [{ title: 'ok', assignee_role: 'boss' }, 'assignee_role invalid_value'],
    [{ title: 'ok', due_at: '2026-02-01' }, 'due_at invalid_format'],
    [{ title: 'ok', due_at: '2026-02-01T09:00:00' }, 'due_at invalid_format'],
    [{ title: 'ok', subject_type: 'invoice' }, 'subject_id required'],
    [{ title: 'ok', subject_id: 'INV-1' }, 'subject_type required'],
    [{ title: 'ok', subject_type: 'Invoice', subject_id: 'INV-1' }, 'subject_type invalid_format'],
    [{ title: 'ok', status: 'done' }, 'status unrecognized_key'],
    [{ title: 'ok', source_rule_id: 'r1' }, 'source_rule_id unrecognized_key'],
  ])('%j answers %s', (body, expected) => {
    expect(errorsOf(TaskCreate, body)).toEqual([expected]);
  });
});

describe('TaskUpdate', () => {
  it('changes title, description, assignee_role, assignee_id and due_at only', () => {
    expect(
      errorsOf(TaskUpdate, { title: 'New', assignee_id: null, due_at: null, description: null }),
    ).toEqual([]);
    for (const field of ['status', 'subject_type', 'subject_id', 'source_rule_id', 'id', 'completed_at'])
      expect(errorsOf(TaskUpdate, { [field]: 'x' })).toEqual([`${field} unrecognized_key`]);
    expect(errorsOf(TaskUpdate, { title: null })).toEqual(['title invalid_type']);
  });
});

describe('task state machine', () => {
  it.each([
    ['open', 'in_progress', true],
    ['open', 'done', true],
    ['open', 'cancelled', true],
    ['in_progress', 'open', true],
    ['in_progress', 'done', true],
    ['in_progress', 'cancelled', true],
    ['open', 'open', false],
    ['done', 'open', false],
    ['done', 'in_progress', false],
    ['cancelled', 'open', false],
    ['cancelled', 'done', false],
  ] as const)('%s -> %s: %s', (from, to, allowed) => {
    expect(canTransitionTask(from, to)).toBe(allowed);
  });

  it('each write moves updated_at strictly forward, even within one millisecond or a clock step back', () => {
    const t = '2026-01-31T10:00:00.000Z';
    expect(laterThan(t, new Date('2026-01-31T10:00:05.000Z'))).toBe('2026-01-31T10:00:05.000Z');
    expect(laterThan(t, new Date(t))).toBe('2026-01-31T10:00:00.001Z');
    expect(laterThan(t, new Date('2026-01-31T09:59:00.000Z'))).toBe('2026-01-31T10:00:00.001Z');
  });
});

describe('the fields a task PATCH may change, declared once on the entity', () => {
  it('TaskUpdate takes exactly the fields taskEditable declares, each alone, and nothing else', () => {
    const valid: Record<(typeof taskEditable.fields)[number], unknown> = {
      title: 'Call the bank',
      description: null,
      assignee_role: 'manager',
      assignee_id: 'u1',
      due_at: '2026-02-01T09:00:00Z',
    };
    expect(Object.keys(TaskUpdate.def.shape)).toEqual([...taskEditable.fields]);
    for (const field of taskEditable.fields)
      expect([field, errorsOf(TaskUpdate, { [field]: valid[field] })]).toEqual([field, []]);
    // The record's other fields are the service's: a PATCH naming one is refused, naming it.
    for (const field of taskRecord.fields.filter(
      (f) => !(taskEditable.fields as readonly string[]).includes(f),
    ))
      expect(errorsOf(TaskUpdate, { [field]: null })).toEqual([
        expect.stringMatching(new RegExp(`^${field} `)),
      ]);
  });
});
