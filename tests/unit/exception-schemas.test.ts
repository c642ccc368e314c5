import { describe, expect, it } from 'vitest';
import { canTransitionException } from '#shared/domain/exceptions/use-cases';
import { BusinessExceptionCreate, BusinessExceptionStatusChange } from '#shared/api/schemas/exceptions';

const valid = {
  exception_type: 'invoice.overdue',
  subject_type: 'invoice',
  subject_id: 'INV-1',
  title: 'Overdue',
  summary: 'Invoice is overdue',
};

const issuesOf = (input: unknown) => {
  const r = BusinessExceptionCreate.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

/** [field, shortest valid, longest valid, too short, too long] of docs/api.md section 11. */
const LENGTHS: [keyof typeof valid, number, number][] = [
  ['exception_type', 2, 128],
  ['subject_type', 2, 64],
  ['subject_id', 1, 128],
  ['title', 2, 255],
  ['summary', 2, 2000],
];

describe('BusinessExceptionCreate (docs/api.md sections 6 and 11)', () => {
  it('accepts the minimal body and defaults severity to warning', () => {
    const r = BusinessExceptionCreate.parse(valid);
    expect(r.severity).toBe('warning');
    expect(r.evidence).toBeUndefined();
  });

  for (const [field, min, max] of LENGTHS) {
    it(`${field}: accepts ${min} and ${max} characters`, () => {
      expect(issuesOf({ ...valid, [field]: 'a'.repeat(min) })).toEqual([]);
      expect(issuesOf({ ...valid, [field]: 'a'.repeat(max) })).toEqual([]);
    });
    it(`${field}: refuses ${min - 1} and ${max + 1} characters`, () => {
      expect(issuesOf({ ...valid, [field]: 'a'.repeat(min - 1) })).toEqual([field]);
      expect(issuesOf({ ...valid, [field]: 'a'.repeat(max + 1) })).toEqual([field]);
    });
  }

  it('requires every required field', () => {
    for (const field of Object.keys(valid)) {
      const { [field as keyof typeof valid]: _, ...rest } = valid;
      expect(issuesOf(rest)).toEqual([field]);
    }
  });

  it('exception_type follows ^[a-z0-9][a-z0-9_.-]*$', () => {
    for (const ok of ['a.b', '0x', 'a_b-c.d', 'zz'])
      expect(issuesOf({ ...valid, exception_type: ok })).toEqual([]);
    for (const bad of ['.a', '_a', '-a', 'Ab', 'a b', 'a/b', 'aé'])
      expect(issuesOf({ ...valid, exception_type: bad })).toEqual(['exception_type']);
  });

  it('subject_type follows ^[a-z0-9][a-z0-9_-]*$ (no dots)', () => {
    for (const ok of ['a-b', '9_x', 'ab']) expect(issuesOf({ ...valid, subject_type: ok })).toEqual([]);
    for (const bad of ['a.b', '-a', '_a', 'Ab', 'a b'])
      expect(issuesOf({ ...valid, subject_type: bad })).toEqual(['subject_type']);
  });

  it('severity is the enum info|warning|critical', () => {
    for (const s of ['info', 'warning', 'critical'])
      expect(BusinessExceptionCreate.parse({ ...valid, severity: s }).severity).toBe(s);
    for (const s of ['high', 'INFO', '', null])
      expect(issuesOf({ ...valid, severity: s })).toEqual(['severity']);
  });

  it('observation_ids: at most 20', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `obs-${i}`);
    expect(issuesOf({ ...valid, observation_ids: ids(20) })).toEqual([]);
    expect(issuesOf({ ...valid, observation_ids: ids(21) })).toEqual(['observation_ids']);
    expect(issuesOf({ ...valid, observation_ids: [] })).toEqual([]);
  });

  it('evidence and impact are free-form objects, not arrays or strings', () => {
    expect(issuesOf({ ...valid, evidence: { a: [1, { b: 2 }] }, impact: {} })).toEqual([]);
    expect(issuesOf({ ...valid, evidence: 'x' })).toEqual(['evidence']);
    expect(issuesOf({ ...valid, impact: [1] })).toEqual(['impact']);
  });

  it('rejects unknown fields, so status, id, tenant_id and timestamps cannot be mass-assigned', () => {
    for (const field of ['status', 'id', 'tenant_id', 'detected_at', 'resolved_at', 'foo']) {
      const r = BusinessExceptionCreate.safeParse({ ...valid, [field]: 'x' });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.code).toBe('unrecognized_keys');
    }
  });
});

describe('BusinessExceptionStatusChange', () => {
  const check = (input: unknown) => BusinessExceptionStatusChange.safeParse(input).success;

  it('accepts only acknowledged or resolved as target', () => {
    expect(check({ status: 'acknowledged' })).toBe(true);
    expect(check({ status: 'resolved' })).toBe(true);
    expect(check({ status: 'open' })).toBe(false);
    expect(check({ status: 'closed' })).toBe(false);
    expect(check({})).toBe(false);
  });

  it('note: null or 2 to 255 characters', () => {
    expect(check({ status: 'resolved', note: null })).toBe(true);
    expect(check({ status: 'resolved', note: 'ok' })).toBe(true);
    expect(check({ status: 'resolved', note: 'x'.repeat(255) })).toBe(true);
    expect(check({ status: 'resolved', note: 'x' })).toBe(false);
    expect(check({ status: 'resolved', note: 'x'.repeat(256) })).toBe(false);
  });

  it('rejects unknown fields', () => {
    expect(check({ status: 'resolved', resolved_at: '2024-01-01T00:00:00Z' })).toBe(false);
  });
});

describe('exception state machine (docs/api.md section 6)', () => {
  const STATES = ['open', 'acknowledged', 'resolved'] as const;
  const ALLOWED = new Set(['open->acknowledged', 'open->resolved', 'acknowledged->resolved']);
  for (const from of STATES) {
    for (const to of STATES) {
      const expected = ALLOWED.has(`${from}->${to}`);
      it(`${from} -> ${to}: ${expected ? 'allowed' : 'refused'}`, () => {
        expect(canTransitionException(from, to)).toBe(expected);
      });
    }
  }
});
