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

describe('exception_resolution plan: the whole result', () => {
  const exceptions = [
    exception({
      id: 'ec',
      severity: 'critical',
      exception_type: 'bank.feed_down',
      subject_type: 'connection',
      subject_id: 'c1',
      title: 'Bank feed down',
    }),
    exception({
      id: 'ep',
      exception_type: 'payment_reconciliation.duplicate_payment',
      subject_type: 'document',
      subject_id: 'pay-1',
      title: 'Paid twice',
    }),
    exception({
      id: 'ei',
      severity: 'info',
      status: 'acknowledged',
      exception_type: 'sync.lag',
      subject_type: 'invoice',
      subject_id: 'INV-9',
      title: 'Lagging',
    }),
    exception({ id: 'er', status: 'resolved' }),
  ];
  const tasks = [
    // On the exception's subject, and on the exception itself; a done task is not work left.
    task({ id: 'tc', subject_type: 'connection', subject_id: 'c1', title: 'Restart feed' }),
    task({
      id: 'tx',
      subject_type: 'exception',
      subject_id: 'ec',
      assignee_role: 'manager',
      title: 'Call bank',
      status: 'in_progress',
    }),
    task({ id: 'td', subject_type: 'exception', subject_id: 'ep', status: 'done' }),
  ];
  const rule = (exception_type: string, assignee_role: string) => ({
    trigger: { event_type: 'exception.created' },
    conditions: [{ field: 'exception_type', op: 'eq', value: exception_type }],
    actions: [{ type: 'create_task', title: 'Investigate {{title}}', assignee_role }],
  });

  it('steps, lanes, gates with their reason, automation candidates, review points and summary', () => {
    const r = actionPlan({ ...request, include_resolved: true }, { exceptions, tasks }, api);
    const ecStatus = '/tenants/acme/exceptions/ec/status';
    const epStatus = '/tenants/acme/exceptions/ep/status';
    expect(r).toEqual({
      plan_kind: 'exception_resolution',
      role: 'operator',
      risk_level: 'critical',
      steps: [
        [
          'ec',
          'acknowledge_exception',
          'manager',
          'Acknowledge "Bank feed down"',
          [],
          false,
          false,
          ecStatus,
        ],
        [
          'ec',
          'complete_task',
          'operator',
          'Finish task "Restart feed"',
          [1],
          false,
          false,
          '/tenants/acme/tasks/tc/status',
        ],
        [
          'ec',
          'complete_task',
          'manager',
          'Finish task "Call bank"',
          [1],
          false,
          false,
          '/tenants/acme/tasks/tx/status',
        ],
        [
          'ec',
          'repair_cause',
          'operator',
          'Repair the cause on connection c1 (bank.feed_down)',
          [2, 3],
          true,
          false,
          null,
        ],
        ['ec', 'resolve_exception', 'manager', 'Resolve "Bank feed down"', [4], true, false, ecStatus],
        ['ep', 'acknowledge_exception', 'operator', 'Acknowledge "Paid twice"', [], false, false, epStatus],
        [
          'ep',
          'create_task',
          'accountant',
          'Open a task to investigate document pay-1',
          [6],
          false,
          true,
          '/tenants/acme/tasks',
        ],
        [
          'ep',
          'repair_cause',
          'accountant',
          'Repair the cause on document pay-1 (payment_reconciliation.duplicate_payment)',
          [7],
          true,
          false,
          null,
        ],
        ['ep', 'resolve_exception', 'operator', 'Resolve "Paid twice"', [8], false, false, epStatus],
        [
          'ei',
          'create_task',
          'operator',
          'Open a task to investigate invoice INV-9',
          [],
          false,
          true,
          '/tenants/acme/tasks',
        ],
        [
          'ei',
          'repair_cause',
          'operator',
          'Repair the cause on invoice INV-9 (sync.lag)',
          [10],
          false,
          false,
          null,
        ],
        [
          'ei',
          'resolve_exception',
          'operator',
          'Resolve "Lagging"',
          [11],
          false,
          false,
          '/tenants/acme/exceptions/ei/status',
        ],
      ].map(
        ([exception_id, action, lane, description, depends_on, requires_approval, automatable, path], i) => ({
          step: i + 1,
          exception_id,
          action,
          lane,
          description,
          depends_on,
          requires_approval,
          automatable,
          api: path,
        }),
      ),
      lanes: [
        { role: 'operator', steps: [2, 4, 6, 9, 10, 11, 12], yours: true },
        { role: 'accountant', steps: [7, 8], yours: false },
        { role: 'manager', steps: [1, 3, 5], yours: false },
      ],
      approval_gates: [
        [4, 'ec', 'repairs the cause of a critical exception'],
        [5, 'ec', 'resolves a critical exception'],
        [8, 'ep', 'changes money records'],
      ].map(([step, exception_id, reason]) => ({
        gate: `approve-step-${step as number}`,
        before_step: step,
        exception_id,
        approver_roles: ['manager', 'owner'],
        reason,
      })),
      automation_candidates: [
        [7, rule('payment_reconciliation.duplicate_payment', 'accountant')],
        [10, rule('sync.lag', 'operator')],
      ].map(([step, workflow_rule]) => ({
        step,
        action: 'create_task',
        why: 'a workflow rule on exception.created can open this task for every exception of this type',
        workflow_rule,
      })),
      review_points: [
        { point: 'exceptions_planned', count: 4 },
        { point: 'exceptions_not_planned', count: 0 },
        { point: 'exceptions_without_task', count: 2 },
        { point: 'approval_gates', count: 3 },
      ],
      summary:
        '12 steps to resolve 4 exceptions across 3 lanes, 3 approval gates; 7 step(s) for the operator.',
      evidence: [{ exceptions_in_scope: 4, planned: 4 }],
    });
  });

  it('the requested role’s lane first, the others by name; one of each reads in the singular', () => {
    const r = actionPlan({ ...request, role: 'manager' }, { exceptions, tasks }, api);
    expect(r.lanes.map((l) => [l.role, l.yours])).toEqual([
      ['manager', true],
      ['accountant', false],
      ['operator', false],
    ]);
    const one = actionPlan(
      { ...request, limit: 1 },
      {
        exceptions: [exception({ id: 'e', status: 'acknowledged' })],
        tasks: [task({ id: 't', subject_type: 'exception', subject_id: 'e' })],
      },
      api,
    );
    expect(one.summary).toBe(
      '3 steps to resolve 1 exception across 1 lane, 0 approval gates; 3 step(s) for the operator.',
    );
    expect(one.review_points).toContainEqual({ point: 'exceptions_without_task', count: 0 });
    expect(
      actionPlan(request, { exceptions: [exception({ id: 'i', severity: 'info' })], tasks: [] }, api)
        .risk_level,
    ).toBe('normal');
  });
});
