import { describe, expect, it } from 'vitest';
import { approvalGateway } from '#shared/domain/previews/approval-gateway';
import { actionExecution } from '#shared/domain/previews/execution';
import { api, data, doc, exception, NOW, task } from './records';

const exec = {
  execution_kind: 'action_plan_execution_preview' as const,
  execution_mode: 'dry_run' as const,
  role: 'operator' as const,
  include_preflight: true,
  include_rollback_plan: true,
};
const tenant = data({
  exceptions: [exception({ id: 'e1' }), exception({ id: 'e-crit', severity: 'critical' })],
  tasks: [task({ id: 't1' })],
  documents: [
    doc({ id: 'inv-1', amount: '100.00' }),
    doc({ id: 'pay-1', document_type: 'payment', amount: '60.00', applies_to: 'inv-1' }),
  ],
});
const at = NOW.toISOString();

describe('action execution preview', () => {
  it('runs steps in order on a copy: acknowledge then resolve the same exception', () => {
    const r = actionExecution(
      {
        ...exec,
        action_steps: [
          { action: 'acknowledge_exception', exception_id: 'e1' },
          { action: 'resolve_exception', exception_id: 'e1' },
        ],
      },
      tenant,
      NOW,
      api,
    );
    expect(r.execution_plan.map((s) => [s.from, s.to, s.outcome])).toEqual([
      ['open', 'acknowledged', 'would_run'],
      ['acknowledged', 'resolved', 'would_run'],
    ]);
    expect(r.dry_run_results).toEqual([
      {
        step: 1,
        entity_type: 'exception',
        entity_id: 'e1',
        before: { status: 'open', updated_at: '2026-03-10T10:00:00.000Z', resolved_at: null },
        after: { status: 'acknowledged', updated_at: at, resolved_at: null },
        audit_event_type: 'exception.status_changed',
        written: false,
      },
      {
        step: 2,
        entity_type: 'exception',
        entity_id: 'e1',
        before: { status: 'acknowledged', updated_at: at, resolved_at: null },
        after: { status: 'resolved', updated_at: at, resolved_at: at },
        audit_event_type: 'exception.status_changed',
        written: false,
      },
    ]);
    // Newest change undone first; neither move has a way back through the API.
    expect(r.rollback_plan!.map((s) => [s.step, s.restore_status, s.reversible])).toEqual([
      [2, 'acknowledged', false],
      [1, 'open', false],
    ]);
    // The input records are untouched.
    expect(tenant.exceptions[0]!.status).toBe('open');
  });

  it('a step that would fail says why, in the one finding shape, and changes nothing', () => {
    const r = actionExecution(
      {
        ...exec,
        action_steps: [
          { action: 'resolve_exception', exception_id: 'e1' },
          { action: 'acknowledge_exception', exception_id: 'e1' },
          { action: 'delete_everything' },
          { action: 'complete_task', task_id: 'nope' },
          { action: 'start_task' },
        ],
      },
      tenant,
      NOW,
      api,
    );
    const fails = r.preflight_checks!.filter((c) => c.status === 'fail');
    expect(fails.map((c) => [c.step, c.check, c.finding_type])).toEqual([
      [2, 'transition_allowed', 'invalid_transition'],
      [3, 'action_known', 'unknown_action'],
      [4, 'record_exists', 'not_found'],
      [5, 'target_named', 'missing_target'],
    ]);
    expect(fails[0]!.message).toContain('from resolved to acknowledged');
    expect(Object.keys(r.preflight_checks![0]!).sort()).toEqual([
      'check',
      'finding_type',
      'message',
      'status',
      'step',
    ]);
    expect(r.dry_run_results.map((d) => d.step)).toEqual([1]);
  });

  it('a role that may not make a change fails its preflight; money steps await approval and warn on a short payment', () => {
    const r = actionExecution(
      {
        ...exec,
        role: 'accountant',
        action_steps: [
          { action: 'start_task', task_id: 't1' },
          { action: 'mark_document_paid', document_id: 'inv-1' },
        ],
      },
      tenant,
      NOW,
      api,
    );
    expect(r.execution_plan.map((s) => s.outcome)).toEqual(['would_fail', 'awaits_approval']);
    expect(
      r.preflight_checks!.filter((c) => c.status !== 'pass').map((c) => [c.step, c.finding_type]),
    ).toEqual([
      [1, 'forbidden_for_role'],
      [2, 'payment_amount_mismatch'],
      [2, 'approval_required'],
    ]);
    expect(r.approval_gates).toEqual([
      { step: 2, approver_roles: ['manager', 'owner'], status: 'required', requested_by_role: 'accountant' },
    ]);
  });

  it('a reversible change gets the API call that undoes it; include_* false leave the sections out', () => {
    const r = actionExecution(
      { ...exec, action_steps: [{ action: 'start_task', task_id: 't1' }] },
      tenant,
      NOW,
      api,
    );
    expect(r.rollback_plan).toEqual([
      {
        step: 1,
        entity_type: 'task',
        entity_id: 't1',
        restore_status: 'open',
        reversible: true,
        how: 'POST /tenants/acme/tasks/t1/status {"status":"open"}',
      },
    ]);
    const bare = actionExecution(
      { ...exec, include_preflight: false, include_rollback_plan: false, action_steps: [] },
      tenant,
      NOW,
      api,
    );
    expect(bare).not.toHaveProperty('preflight_checks');
    expect(bare).not.toHaveProperty('rollback_plan');
  });

  it('without action_steps, runs the executable steps of the plan for the subject', () => {
    const r = actionExecution({ ...exec, subject_type: 'exception', subject_id: 'e1' }, tenant, NOW, api);
    expect(r.execution_plan.map((s) => [s.action, s.entity_id])).toEqual([
      ['acknowledge_exception', 'e1'],
      ['resolve_exception', 'e1'],
    ]);
  });
});

const gateway = {
  approval_kind: 'execution_approval_gateway' as const,
  approver_role: 'owner' as const,
  requester_role: 'operator' as const,
  role: 'operator' as const,
  include_dual_control: true,
  execution_plan: [{ action: 'resolve_exception', exception_id: 'e-crit' }],
};

describe('approval gateway preview', () => {
  it('routes a gated step to the requested approver and shows what approval unlocks and what would be audited', () => {
    const r = approvalGateway(gateway, tenant, NOW, api);
    expect(r.approval_requests).toEqual([
      {
        request_id: 'approval-step-1',
        step: 1,
        action: 'resolve_exception',
        entity_type: 'exception',
        entity_id: 'e-crit',
        requested_by_role: 'operator',
        requested_approver_role: 'owner',
        routed_to: 'owner',
        status: 'pending',
      },
    ]);
    expect(r.policy_checks.map((c) => [c.check, c.status])).toEqual([
      ['dual_control', 'pass'],
      ['approver_permitted', 'pass'],
      ['preflight', 'pass'],
    ]);
    expect(r.commit_unlocks[0]).toMatchObject({
      unlocks_step: 1,
      commit: {
        method: 'POST',
        path: '/tenants/acme/exceptions/e-crit/status',
        body: { status: 'resolved' },
      },
      after_approval_by: 'owner',
    });
    expect(r.audit_trail).toEqual([
      expect.objectContaining({
        event_type: 'exception.status_changed',
        actor_role: 'operator',
        approved_by_role: 'owner',
        before: 'open',
        after: 'resolved',
        written: false,
      }),
    ]);
  });

  it('dual control: the requester role never approves its own request', () => {
    for (const role of ['manager', 'owner'] as const) {
      const r = approvalGateway({ ...gateway, requester_role: role, approver_role: role }, tenant, NOW, api);
      expect(r.approval_requests[0]!.routed_to).not.toBe(role);
      expect(r.approval_requests[0]!.routed_to).toBe(role === 'manager' ? 'owner' : 'manager');
      expect(r.policy_checks.find((c) => c.check === 'dual_control')).toMatchObject({
        status: 'fail',
        finding_type: 'self_approval',
      });
      expect(r.approver_routing[0]!.rejected).toContainEqual({
        role,
        reason: 'requester role (dual control)',
      });
    }
    const off = approvalGateway(
      { ...gateway, requester_role: 'manager', approver_role: 'manager', include_dual_control: false },
      tenant,
      NOW,
      api,
    );
    expect(off.approval_requests[0]!.routed_to).toBe('manager');
    expect(off.policy_checks.find((c) => c.check === 'dual_control')!.status).toBe('warn');
  });

  it('an approver role that is not one, and a step that fails preflight, are blocked', () => {
    const r = approvalGateway(
      {
        ...gateway,
        approver_role: 'support',
        execution_plan: [
          { action: 'mark_document_paid', document_id: 'inv-1' },
          { action: 'void_document', document_id: 'missing' },
        ],
      },
      tenant,
      NOW,
      api,
    );
    expect(r.policy_checks.filter((c) => c.status === 'fail').map((c) => [c.step, c.check])).toEqual([
      [1, 'approver_permitted'],
      [2, 'approver_permitted'],
      [2, 'preflight'],
    ]);
    expect(r.approval_requests.map((a) => [a.step, a.routed_to, a.status])).toEqual([
      [1, 'manager', 'pending'],
      [2, 'manager', 'blocked'],
    ]);
  });
});

/**
 * One tenant and one list of steps that meets every check a step can meet, so the whole result
 * (each finding's message, the summary, the rollback advice) is compared, not a sample of it.
 */
const ledger = data({
  exceptions: [exception({ id: 'e1' }), exception({ id: 'e-crit', severity: 'critical' })],
  tasks: [
    task({ id: 't2', subject_type: 'exception', subject_id: 'e-crit' }),
    task({ id: 't3', status: 'in_progress', subject_type: 'exception', subject_id: 'e-crit' }),
    task({ id: 't4', status: 'done', subject_type: 'exception', subject_id: 'e-crit' }),
    task({ id: 't5', subject_type: 'invoice', subject_id: 'e-crit' }),
    task({ id: 't6', subject_type: 'exception', subject_id: 'e1' }),
    task({ id: 't7', status: 'in_progress', subject_type: 'exception', subject_id: 'e1' }),
  ],
  documents: [
    doc({ id: 'inv-1', amount: '100.00' }),
    doc({ id: 'pay-1', document_type: 'payment', amount: '60.00', applies_to: 'inv-1' }),
    doc({ id: 'pay-void', document_type: 'payment', amount: '40.00', applies_to: 'inv-1', status: 'void' }),
    doc({ id: 'inv-x', amount: '40.00', applies_to: 'inv-1' }),
    doc({ id: 'inv-3', amount: '40.00' }),
    doc({ id: 'cn-1', document_type: 'credit_note', amount: '15.00', applies_to: 'inv-3' }),
    doc({ id: 'pay-3', document_type: 'payment', amount: '25.00', applies_to: 'inv-3' }),
    doc({ id: 'inv-paid', amount: '10.00', status: 'paid' }),
  ],
});
const CREATED = '2026-03-09T12:00:00.000Z';
const DETECTED = '2026-03-10T10:00:00.000Z';
const ISSUED = '2026-02-01T09:00:00.000Z';
const KNOWN =
  'acknowledge_exception, resolve_exception, start_task, reopen_task, complete_task, cancel_task, open_document, mark_document_paid, void_document';
const pass = (step: number, check: string, message: string) => ({
  step,
  check,
  status: 'pass',
  finding_type: 'none',
  message,
});
const found = (step: number, check: string, status: string, finding_type: string, message: string) => ({
  step,
  check,
  status,
  finding_type,
  message,
});
const BOUNDARIES = [
  { boundary: 'table', access: 'read_only', note: 'records were read; none was written' },
  { boundary: 'audit_log', access: 'none', note: 'no audit event is written by a preview' },
  { boundary: 'outbox', access: 'none', note: 'no outbox event, so no queue message and no delivery' },
  { boundary: 'providers', access: 'none', note: 'no provider is called and no secret is read' },
];

describe('action execution preview: the whole result', () => {
  it('every check, its message and outcome; the changes, the gates and the advice for undoing them', () => {
    const r = actionExecution(
      {
        ...exec,
        execution_mode: 'approval_request',
        action_steps: [
          { action: 42 },
          { action: 'start_task', task_id: '' },
          { action: 'void_document', document_id: 'nope' },
          { action: 'complete_task', task_id: 't3' },
          { action: 'resolve_exception', exception_id: 'e-crit' },
          { action: 'mark_document_paid', document_id: 'inv-1' },
          { action: 'mark_document_paid', document_id: 'inv-3' },
          { action: 'reopen_task', task_id: 't3' },
          { action: 'resolve_exception', exception_id: 'e1' },
        ],
      },
      ledger,
      NOW,
      api,
    );
    expect(r).toEqual({
      execution_kind: 'action_plan_execution_preview',
      role: 'operator',
      status: 'previewed',
      execution_plan: [
        [1, '', null, null, null, null, 'would_fail', null],
        [2, 'start_task', 'task', null, null, 'in_progress', 'would_fail', null],
        [
          3,
          'void_document',
          'document',
          'nope',
          null,
          'void',
          'would_fail',
          '/tenants/acme/documents/nope/status',
        ],
        [
          4,
          'complete_task',
          'task',
          't3',
          'in_progress',
          'done',
          'would_run',
          '/tenants/acme/tasks/t3/status',
        ],
        [
          5,
          'resolve_exception',
          'exception',
          'e-crit',
          'open',
          'resolved',
          'awaits_approval',
          '/tenants/acme/exceptions/e-crit/status',
        ],
        [
          6,
          'mark_document_paid',
          'document',
          'inv-1',
          'open',
          'paid',
          'awaits_approval',
          '/tenants/acme/documents/inv-1/status',
        ],
        [
          7,
          'mark_document_paid',
          'document',
          'inv-3',
          'open',
          'paid',
          'awaits_approval',
          '/tenants/acme/documents/inv-3/status',
        ],
        [8, 'reopen_task', 'task', 't3', 'done', 'open', 'would_fail', '/tenants/acme/tasks/t3/status'],
        [
          9,
          'resolve_exception',
          'exception',
          'e1',
          'open',
          'resolved',
          'would_run',
          '/tenants/acme/exceptions/e1/status',
        ],
      ].map(([step, action, entity_type, entity_id, from, to, outcome, path]) => ({
        step,
        action,
        entity_type,
        entity_id,
        from,
        to,
        outcome,
        api: path,
      })),
      preflight_checks: [
        found(
          1,
          'action_known',
          'fail',
          'unknown_action',
          `"(none)" is not a step a preview can run; known: ${KNOWN}.`,
        ),
        found(2, 'target_named', 'fail', 'missing_target', 'start_task needs task_id.'),
        found(3, 'record_exists', 'fail', 'not_found', 'No document nope in this tenant.'),
        pass(4, 'record_exists', 'The task is in_progress.'),
        pass(4, 'transition_allowed', 'in_progress -> done is allowed.'),
        pass(4, 'role_permitted', 'The operator role may run complete_task.'),
        pass(5, 'record_exists', 'The exception is open.'),
        pass(5, 'transition_allowed', 'open -> resolved is allowed.'),
        pass(5, 'role_permitted', 'The operator role may run resolve_exception.'),
        // t3 was completed by step 4, t4 is done, t5 is about an invoice: only t2 is still open.
        found(5, 'linked_tasks_closed', 'warn', 'open_tasks', '1 task on this exception still open.'),
        found(
          5,
          'approval',
          'warn',
          'approval_required',
          'Runs only after approval by manager or owner: it resolves a critical exception.',
        ),
        pass(6, 'record_exists', 'The document is open.'),
        pass(6, 'transition_allowed', 'open -> paid is allowed.'),
        pass(6, 'role_permitted', 'The operator role may run mark_document_paid.'),
        // Neither the void payment nor the invoice that names inv-1 counts as paid.
        found(
          6,
          'payments_cover_amount',
          'warn',
          'payment_amount_mismatch',
          'Applied payments and credits total 60.00 against 100.00 (difference 40.00).',
        ),
        found(
          6,
          'approval',
          'warn',
          'approval_required',
          'Runs only after approval by manager or owner: it changes a money record.',
        ),
        pass(7, 'record_exists', 'The document is open.'),
        pass(7, 'transition_allowed', 'open -> paid is allowed.'),
        pass(7, 'role_permitted', 'The operator role may run mark_document_paid.'),
        pass(7, 'payments_cover_amount', 'Applied payments cover 40.00.'),
        found(
          7,
          'approval',
          'warn',
          'approval_required',
          'Runs only after approval by manager or owner: it changes a money record.',
        ),
        pass(8, 'record_exists', 'The task is done.'),
        found(
          8,
          'transition_allowed',
          'fail',
          'invalid_transition',
          'A task cannot move from done to open; this step would answer 409 invalid_transition.',
        ),
        pass(8, 'role_permitted', 'The operator role may run reopen_task.'),
        pass(9, 'record_exists', 'The exception is open.'),
        pass(9, 'transition_allowed', 'open -> resolved is allowed.'),
        pass(9, 'role_permitted', 'The operator role may run resolve_exception.'),
        // t6 and t7 are still active on e1, and e1 is not critical: a warning, no approval.
        found(9, 'linked_tasks_closed', 'warn', 'open_tasks', '2 tasks on this exception still open.'),
      ],
      dry_run_results: [
        [
          4,
          'task',
          't3',
          { status: 'in_progress', updated_at: CREATED, completed_at: null },
          { status: 'done', updated_at: at, completed_at: at },
        ],
        [
          5,
          'exception',
          'e-crit',
          { status: 'open', updated_at: DETECTED, resolved_at: null },
          { status: 'resolved', updated_at: at, resolved_at: at },
        ],
        [6, 'document', 'inv-1', { status: 'open', updated_at: ISSUED }, { status: 'paid', updated_at: at }],
        [7, 'document', 'inv-3', { status: 'open', updated_at: ISSUED }, { status: 'paid', updated_at: at }],
        [
          9,
          'exception',
          'e1',
          { status: 'open', updated_at: DETECTED, resolved_at: null },
          { status: 'resolved', updated_at: at, resolved_at: at },
        ],
      ].map(([step, entity_type, entity_id, before, after]) => ({
        step,
        entity_type,
        entity_id,
        before,
        after,
        audit_event_type: `${entity_type as string}.status_changed`,
        written: false,
      })),
      approval_gates: [5, 6, 7].map((step) => ({
        step,
        approver_roles: ['manager', 'owner'],
        status: 'requested',
        requested_by_role: 'operator',
      })),
      rollback_plan: [
        [
          9,
          'exception',
          'e1',
          'open',
          'resolved is final: no API move restores open; compensate instead (record a new exception).',
        ],
        [
          7,
          'document',
          'inv-3',
          'open',
          'paid is final: no API move restores open; compensate instead (record a correcting document).',
        ],
        [
          6,
          'document',
          'inv-1',
          'open',
          'paid is final: no API move restores open; compensate instead (record a correcting document).',
        ],
        [
          5,
          'exception',
          'e-crit',
          'open',
          'resolved is final: no API move restores open; compensate instead (record a new exception).',
        ],
        [
          4,
          'task',
          't3',
          'in_progress',
          'done is final: no API move restores in_progress; compensate instead (open a new task).',
        ],
      ].map(([step, entity_type, entity_id, restore_status, how]) => ({
        step,
        entity_type,
        entity_id,
        restore_status,
        reversible: false,
        how,
      })),
      data_boundaries: BOUNDARIES,
      summary:
        'Approval request of 9 steps: 2 would run, 3 await approval, 4 would fail. Nothing was changed.',
      evidence: [{ steps_from: 'request' }],
    });
  });

  it('a role that may not make a change is told which roles may; one step reads "1 step" in a dry run', () => {
    const r = actionExecution(
      { ...exec, role: 'support', action_steps: [{ action: 'start_task', task_id: 't2' }] },
      ledger,
      NOW,
      api,
    );
    expect(r.preflight_checks!.find((c) => c.check === 'role_permitted')).toEqual(
      found(
        1,
        'role_permitted',
        'fail',
        'forbidden_for_role',
        'The support role may not run start_task (needs one of: operator, manager, owner).',
      ),
    );
    expect(r.summary).toBe(
      'Dry run of 1 step: 0 would run, 0 await approval, 1 would fail. Nothing was changed.',
    );
    expect(r.dry_run_results).toEqual([]);
  });

  it('only a payment is checked against what was applied; only a resolve looks for open tasks; only done completes', () => {
    const r = actionExecution(
      {
        ...exec,
        action_steps: [
          { action: 'void_document', document_id: 'inv-1' },
          // e-crit has an open task, but acknowledging does not close the exception.
          { action: 'acknowledge_exception', exception_id: 'e-crit' },
          { action: 'start_task', task_id: 't2' },
        ],
      },
      ledger,
      NOW,
      api,
    );
    expect(r.preflight_checks!.filter((c) => c.status !== 'pass').map((c) => [c.step, c.check])).toEqual([
      [1, 'approval'],
    ]);
    expect(r.dry_run_results.map((d) => d.after)).toEqual([
      { status: 'void', updated_at: at },
      { status: 'acknowledged', updated_at: at, resolved_at: null },
      { status: 'in_progress', updated_at: at, completed_at: null },
    ]);
    // No task on e1 in this tenant: resolving it warns of none.
    const alone = actionExecution(
      { ...exec, action_steps: [{ action: 'resolve_exception', exception_id: 'e1' }] },
      tenant,
      NOW,
      api,
    );
    expect(alone.preflight_checks!.map((c) => c.status)).toEqual(['pass', 'pass', 'pass']);
  });

  it('steps derived from the plan stop at ten, and the evidence says where they came from', () => {
    const many = data({
      exceptions: Array.from({ length: 6 }, (_, i) => exception({ id: `e${i}`, subject_id: `INV-${i}` })),
    });
    const r = actionExecution({ ...exec, include_rollback_plan: false }, many, NOW, api);
    // Each open exception gives two executable steps (acknowledge, resolve): 12, of which 10 run.
    expect(r.execution_plan).toHaveLength(10);
    expect(r.execution_plan.map((s) => s.entity_id)).toEqual([
      'e0',
      'e0',
      'e1',
      'e1',
      'e2',
      'e2',
      'e3',
      'e3',
      'e4',
      'e4',
    ]);
    expect(r.evidence).toEqual([{ steps_from: 'exception_resolution plan' }]);
  });
});

describe('approval gateway preview: the whole result', () => {
  it('routing, every policy check and its message, what approval unlocks and the audit trail', () => {
    const r = approvalGateway(
      {
        ...gateway,
        approver_role: 'manager',
        execution_plan: [
          { action: 'resolve_exception', exception_id: 'e-crit' },
          { action: 'void_document', document_id: 'nope' },
          { action: 'complete_task', task_id: 't3' },
          { action: 'bogus' },
          { action: 'mark_document_paid', document_id: 'inv-paid' },
        ],
      },
      ledger,
      NOW,
      api,
    );
    const gated = [
      [
        1,
        'resolve_exception',
        'exception',
        'e-crit',
        'pending',
        '/tenants/acme/exceptions/e-crit/status',
        'resolved',
      ],
      [2, 'void_document', 'document', 'nope', 'blocked', '/tenants/acme/documents/nope/status', 'void'],
      [
        5,
        'mark_document_paid',
        'document',
        'inv-paid',
        'blocked',
        '/tenants/acme/documents/inv-paid/status',
        'paid',
      ],
    ] as const;
    const checks = (step: number, action: string, preflight: ReturnType<typeof pass>) => [
      pass(step, 'dual_control', 'Requested by operator, approved by manager: two roles.'),
      pass(step, 'approver_permitted', `The manager role may approve ${action}.`),
      preflight,
    ];
    expect(r).toEqual({
      approval_kind: 'execution_approval_gateway',
      role: 'operator',
      status: 'previewed',
      approval_requests: gated.map(([step, action, entity_type, entity_id, status]) => ({
        request_id: `approval-step-${step}`,
        step,
        action,
        entity_type,
        entity_id,
        requested_by_role: 'operator',
        requested_approver_role: 'manager',
        routed_to: 'manager',
        status,
      })),
      policy_checks: [
        ...checks(1, 'resolve_exception', pass(1, 'preflight', 'Every preflight check passes.')),
        ...checks(
          2,
          'void_document',
          found(2, 'preflight', 'fail', 'preflight_failed', 'No document nope in this tenant.'),
        ),
        // Only the failing checks of the step are quoted, not its warnings.
        ...checks(
          5,
          'mark_document_paid',
          found(
            5,
            'preflight',
            'fail',
            'preflight_failed',
            'A document cannot move from paid to paid; this step would answer 409 invalid_transition.',
          ),
        ),
      ],
      approver_routing: gated.map(([step]) => ({
        request_id: `approval-step-${step}`,
        step,
        eligible_roles: ['manager', 'owner'],
        routed_to: 'manager',
        rejected: [],
      })),
      commit_unlocks: gated.map(([step, , , , , path, status]) => ({
        request_id: `approval-step-${step}`,
        unlocks_step: step,
        commit: { method: 'POST', path, body: { status } },
        after_approval_by: 'manager',
      })),
      audit_trail: [
        {
          order: 1,
          event_type: 'exception.status_changed',
          entity_type: 'exception',
          entity_id: 'e-crit',
          actor_role: 'operator',
          approved_by_role: 'manager',
          before: 'open',
          after: 'resolved',
          written: false,
        },
        {
          order: 2,
          event_type: 'task.status_changed',
          entity_type: 'task',
          entity_id: 't3',
          actor_role: 'operator',
          approved_by_role: null,
          before: 'in_progress',
          after: 'done',
          written: false,
        },
      ],
      data_boundaries: BOUNDARIES,
      summary:
        '5 steps, 3 approval requests from the operator; dual control on. Nothing was requested or approved.',
      evidence: [{ steps_from: 'request' }],
    });
  });

  it('the messages of self-approval, dual control off and an approver role that is none', () => {
    const self = approvalGateway(
      { ...gateway, requester_role: 'manager', approver_role: 'manager' },
      ledger,
      NOW,
      api,
    );
    expect(self.policy_checks[0]!.message).toBe(
      'The manager role requested this step and may not approve it; routed to another approver.',
    );
    const off = approvalGateway(
      { ...gateway, requester_role: 'manager', approver_role: 'manager', include_dual_control: false },
      ledger,
      NOW,
      api,
    );
    expect(off.policy_checks[0]).toEqual(
      found(
        1,
        'dual_control',
        'warn',
        'dual_control_off',
        'Dual control is off: the requester role could approve its own request.',
      ),
    );
    expect(off.approver_routing[0]!.rejected).toEqual([]);
    expect(off.summary).toBe(
      '1 step, 1 approval request from the manager; dual control off. Nothing was requested or approved.',
    );
    // The operator may change an exception but is not an approver role.
    const operator = approvalGateway({ ...gateway, approver_role: 'operator' }, ledger, NOW, api);
    expect(operator.policy_checks[1]).toEqual(
      found(
        1,
        'approver_permitted',
        'fail',
        'approver_not_permitted',
        'The operator role is not an approver role (manager, owner).',
      ),
    );
    expect(operator.approval_requests[0]!.routed_to).toBe('manager');
  });

  it('a step that fails more than one check quotes each failure', () => {
    const r = approvalGateway(
      {
        ...gateway,
        requester_role: 'support',
        execution_plan: [{ action: 'mark_document_paid', document_id: 'inv-paid' }],
      },
      ledger,
      NOW,
      api,
    );
    expect(r.policy_checks[2]!.message).toBe(
      'A document cannot move from paid to paid; this step would answer 409 invalid_transition. The support role may not run mark_document_paid (needs one of: operator, accountant, manager, owner).',
    );
  });

  it('without an execution plan, gates the steps of the plan for the subject', () => {
    const r = approvalGateway(
      { ...gateway, execution_plan: undefined, subject_type: 'exception', subject_id: 'e-crit' },
      ledger,
      NOW,
      api,
    );
    expect(r.approval_requests.map((a) => [a.step, a.action, a.entity_id])).toEqual([
      [4, 'resolve_exception', 'e-crit'],
    ]);
    expect(r.evidence).toEqual([{ steps_from: 'exception_resolution plan' }]);
  });
});
