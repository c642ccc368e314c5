import type { Role } from '#shared/kernel/policy';
import { plural, type Subject } from './common';
import type { PreviewData } from './ports';
import {
  APPROVER_ROLES,
  DATA_BOUNDARIES,
  derivedSteps,
  may,
  type SimulatedStep,
  simulate,
  statusPath,
} from './simulation';

/**
 * The approval gateway preview: the gated steps of a plan routed to an approver role, with the
 * dual-control and permission checks, what each approval would unlock and the audit trail it
 * would leave. Nothing is requested or approved.
 */

export interface ApprovalRequest extends Subject {
  approval_kind: 'execution_approval_gateway';
  approver_role: Role;
  requester_role: Role;
  role: Role;
  include_dual_control: boolean;
  execution_plan?: Record<string, unknown>[] | undefined;
}

/**
 * Who may approve a step: an approver role that may itself make the change, and, with dual
 * control, never the role that requested it.
 */
export const eligibleApprovers = (s: SimulatedStep, requester: Role, dualControl: boolean) =>
  APPROVER_ROLES.filter((r) => s.permission && may(r, s.permission) && !(dualControl && r === requester));

export function approvalGateway(
  request: ApprovalRequest,
  data: PreviewData,
  now: Date,
  api: (p: string) => string,
) {
  const steps = request.execution_plan ?? derivedSteps(data, request);
  const run = simulate(steps, data, request.requester_role, now);
  const gated = run.filter((s) => s.requires_approval);
  const requestId = (s: SimulatedStep) => `approval-step-${s.step}`;
  const routing = gated.map((s) => {
    const eligible = eligibleApprovers(s, request.requester_role, request.include_dual_control);
    const routed = eligible.includes(request.approver_role) ? request.approver_role : (eligible[0] ?? null);
    return { s, eligible, routed };
  });
  const check = (step: number, name: string, ok: boolean | 'warn', finding: string, message: string) => ({
    step,
    check: name,
    status: ok === 'warn' ? ('warn' as const) : ok ? ('pass' as const) : ('fail' as const),
    finding_type: ok === true ? 'none' : finding,
    message,
  });
  return {
    approval_kind: request.approval_kind,
    role: request.role,
    status: 'previewed' as const,
    approval_requests: routing.map(({ s, routed }) => ({
      request_id: requestId(s),
      step: s.step,
      action: s.action,
      entity_type: s.entity_type,
      entity_id: s.entity_id,
      requested_by_role: request.requester_role,
      requested_approver_role: request.approver_role,
      routed_to: routed,
      status: s.checks.some((c) => c.status === 'fail') || !routed ? 'blocked' : 'pending',
    })),
    policy_checks: routing.flatMap(({ s }) => [
      check(
        s.step,
        'dual_control',
        !request.include_dual_control ? 'warn' : request.approver_role !== request.requester_role,
        request.include_dual_control ? 'self_approval' : 'dual_control_off',
        !request.include_dual_control
          ? 'Dual control is off: the requester role could approve its own request.'
          : request.approver_role === request.requester_role
            ? `The ${request.requester_role} role requested this step and may not approve it; routed to another approver.`
            : `Requested by ${request.requester_role}, approved by ${request.approver_role}: two roles.`,
      ),
      check(
        s.step,
        'approver_permitted',
        APPROVER_ROLES.includes(request.approver_role) &&
          !!s.permission &&
          may(request.approver_role, s.permission),
        'approver_not_permitted',
        APPROVER_ROLES.includes(request.approver_role)
          ? `The ${request.approver_role} role may approve ${s.action}.`
          : `The ${request.approver_role} role is not an approver role (${APPROVER_ROLES.join(', ')}).`,
      ),
      check(
        s.step,
        'preflight',
        !s.checks.some((c) => c.status === 'fail'),
        'preflight_failed',
        s.checks
          .filter((c) => c.status === 'fail')
          .map((c) => c.message)
          .join(' ') || 'Every preflight check passes.',
      ),
    ]),
    approver_routing: routing.map(({ s, eligible, routed }) => ({
      request_id: requestId(s),
      step: s.step,
      eligible_roles: eligible,
      routed_to: routed,
      rejected: APPROVER_ROLES.filter((r) => !eligible.includes(r)).map((r) => ({
        role: r,
        reason:
          request.include_dual_control && r === request.requester_role
            ? 'requester role (dual control)'
            : 'may not make this change',
      })),
    })),
    commit_unlocks: routing.map(({ s, routed }) => ({
      request_id: requestId(s),
      unlocks_step: s.step,
      commit: s.entity_id ? { method: 'POST', path: api(statusPath(s)), body: { status: s.to } } : null,
      after_approval_by: routed,
    })),
    audit_trail: run
      .filter((s) => s.change)
      .map((s, i) => ({
        order: i + 1,
        event_type: `${s.entity_type}.status_changed`,
        entity_type: s.entity_type,
        entity_id: s.entity_id,
        actor_role: request.requester_role,
        approved_by_role: s.requires_approval ? (routing.find((r) => r.s === s)?.routed ?? null) : null,
        before: s.change!.before.status,
        after: s.change!.after.status,
        written: false,
      })),
    data_boundaries: DATA_BOUNDARIES,
    summary: `${plural(run.length, 'step')}, ${plural(gated.length, 'approval request')} from the ${request.requester_role}; dual control ${request.include_dual_control ? 'on' : 'off'}. Nothing was requested or approved.`,
    evidence: [{ steps_from: request.execution_plan ? 'request' : 'exception_resolution plan' }],
  };
}
