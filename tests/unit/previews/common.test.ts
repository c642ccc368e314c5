import { describe, expect, it } from 'vitest';
import {
  apiPath,
  exceptionRisk,
  exceptionsInScope,
  isOverdueTask,
  matchesSubject,
} from '#shared/domain/previews/common';
import { canonicalJson } from '#shared/domain/previews/digest';
import { exception, NOW, task } from './records';

/** The helpers every preview shares: subject matching, scope, overdue tasks, risk, paths, encoding. */

const record = { id: 'e1', subject_type: 'invoice', subject_id: 'INV-1' };

describe('subject matching', () => {
  it('no subject matches all; a type alone, an id alone, or both must each match', () => {
    expect(matchesSubject({}, record)).toBe(true);
    expect(matchesSubject({ subject_type: 'invoice' }, record)).toBe(true);
    expect(matchesSubject({ subject_type: 'order' }, record)).toBe(false);
    expect(matchesSubject({ subject_id: 'INV-1' }, record)).toBe(true);
    expect(matchesSubject({ subject_id: 'INV-2' }, record)).toBe(false);
    expect(matchesSubject({ subject_type: 'invoice', subject_id: 'INV-2' }, record)).toBe(false);
    expect(matchesSubject({ subject_type: 'order', subject_id: 'INV-1' }, record)).toBe(false);
  });

  it('a record of its own type matches by its own id, and only when the type is asked for', () => {
    expect(matchesSubject({ subject_type: 'exception', subject_id: 'e1' }, record, 'exception')).toBe(true);
    expect(matchesSubject({ subject_type: 'exception', subject_id: 'e2' }, record, 'exception')).toBe(false);
    expect(matchesSubject({ subject_type: 'exception', subject_id: 'e1' }, record)).toBe(false);
    expect(matchesSubject({ subject_type: 'invoice', subject_id: 'e1' }, record, 'exception')).toBe(false);
  });

  it('resolved exceptions are in scope only on request', () => {
    const all = [exception({ id: 'open' }), exception({ id: 'done', status: 'resolved' })];
    expect(exceptionsInScope(all, {}).map((e) => e.id)).toEqual(['open']);
    expect(exceptionsInScope(all, { include_resolved: true }).map((e) => e.id)).toEqual(['done', 'open']);
  });
});

describe('overdue tasks and risk', () => {
  it('a task is overdue when active and due strictly before now', () => {
    const due = (over: Parameters<typeof task>[0]) => isOverdueTask(task(over), NOW);
    expect(due({ id: 'a', due_at: '2026-03-10T11:59:59.999Z' })).toBe(true);
    expect(due({ id: 'b', due_at: '2026-03-10T11:59:59.999Z', status: 'in_progress' })).toBe(true);
    expect(due({ id: 'c', due_at: NOW.toISOString() })).toBe(false);
    expect(due({ id: 'd', due_at: null })).toBe(false);
    expect(due({ id: 'e', due_at: '2026-01-01T00:00:00.000Z', status: 'done' })).toBe(false);
    expect(due({ id: 'f', due_at: '2026-01-01T00:00:00.000Z', status: 'cancelled' })).toBe(false);
  });

  it('resolved exceptions carry no risk; an acknowledged critical one is attention, not critical', () => {
    expect(exceptionRisk([exception({ id: 'r', status: 'resolved', severity: 'critical' })])).toBe('normal');
    expect(exceptionRisk([exception({ id: 'r', status: 'resolved' })])).toBe('normal');
    expect(exceptionRisk([exception({ id: 'a', status: 'acknowledged', severity: 'critical' })])).toBe(
      'attention',
    );
    expect(exceptionRisk([exception({ id: 'c', severity: 'critical' })])).toBe('critical');
  });
});

describe('paths and encoding', () => {
  it('fills the tenant into an API path', () => {
    expect(apiPath('acme', '/tenants/{tenant_id}/tasks')).toBe('/tenants/acme/tasks');
  });

  it('sorts keys whatever order they were written in', () => {
    expect(canonicalJson({ z: 1, y: 2, x: { c: 3, b: 4, a: 5 } })).toBe(
      '{"x":{"a":5,"b":4,"c":3},"y":2,"z":1}',
    );
    expect(canonicalJson(undefined)).toBe('null');
  });
});
