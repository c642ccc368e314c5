import { describe, expect, it } from 'vitest';
import { actionExecution, approvalGateway } from '#shared/domain/previews/execution';
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
