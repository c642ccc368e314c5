import { describe, expect, it } from 'vitest';
import { actionPlan } from '#shared/domain/previews/action-plan';
import { api, exception, task } from './records';

const request = {
  plan_kind: 'exception_resolution' as const,
  role: 'operator' as const,
  include_resolved: false,
  limit: 20,
};

describe('exception_resolution plan', () => {
  it('an open warning without a task: acknowledge, open a task (automatable), repair, resolve; no gate', () => {
    const r = actionPlan(request, { exceptions: [exception({ id: 'e1' })], tasks: [] }, api);
    expect(r.steps.map((s) => [s.step, s.action, s.lane, s.depends_on, s.requires_approval])).toEqual([
      [1, 'acknowledge_exception', 'operator', [], false],
      [2, 'create_task', 'operator', [1], false],
      [3, 'repair_cause', 'operator', [2], false],
      [4, 'resolve_exception', 'operator', [3], false],
    ]);
    expect(r.approval_gates).toEqual([]);
    expect(r.automation_candidates).toMatchObject([
      { step: 2, action: 'create_task', workflow_rule: { trigger: { event_type: 'exception.created' } } },
    ]);
    expect(r.steps[0]!.api).toBe('/tenants/acme/exceptions/e1/status');
    expect(r.risk_level).toBe('attention');
  });

  it('a critical payment exception with a task: manager and accountant lanes, gates before repair and resolve', () => {
    const e = exception({
      id: 'e2',
      severity: 'critical',
      status: 'acknowledged',
      exception_type: 'payment_reconciliation.duplicate_payment',
      subject_type: 'document',
      subject_id: 'pay-1',
    });
    const t = task({ id: 't1', subject_type: 'exception', subject_id: 'e2', assignee_role: 'accountant' });
    const r = actionPlan({ ...request, role: 'accountant' }, { exceptions: [e], tasks: [t] }, api);
    expect(r.steps.map((s) => [s.action, s.lane, s.requires_approval])).toEqual([
      ['complete_task', 'accountant', false],
      ['repair_cause', 'accountant', true],
      ['resolve_exception', 'manager', true],
    ]);
    expect(r.lanes).toEqual([
      { role: 'accountant', steps: [1, 2], yours: true },
      { role: 'manager', steps: [3], yours: false },
    ]);
    expect(r.approval_gates.map((g) => [g.before_step, g.reason])).toEqual([
      [2, 'changes money records'],
      [3, 'resolves a critical exception'],
    ]);
    expect(r.automation_candidates).toEqual([]);
    expect(r.risk_level).toBe('attention');
  });

  it('plans the most severe first, up to limit, and skips resolved exceptions', () => {
    const r = actionPlan(
      { ...request, limit: 1 },
      {
        exceptions: [
          exception({ id: 'w' }),
          exception({ id: 'c', severity: 'critical' }),
          exception({ id: 'r', status: 'resolved' }),
        ],
        tasks: [],
      },
      api,
    );
    expect(new Set(r.steps.map((s) => s.exception_id))).toEqual(new Set(['c']));
    expect(r.review_points).toContainEqual({ point: 'exceptions_not_planned', count: 1 });
    expect(r.risk_level).toBe('critical');
  });
});
