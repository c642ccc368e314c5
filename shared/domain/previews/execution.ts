import type { Role } from '#shared/kernel/policy';
import { plural, type Subject } from './common';
import type { PreviewData } from './ports';
import {
  APPROVER_ROLES,
  canMove,
  DATA_BOUNDARIES,
  derivedSteps,
  type SimulatedStep,
  simulate,
  statusPath,
} from './simulation';

/**
 * The action execution preview: the steps (given, or the exception resolution plan's) simulated
 * in order, with their preflight checks, the changes a dry run would make, the approval gates
 * and, on request, the rollback plan. Nothing is written.
 */

const outcome = (s: SimulatedStep) =>
  s.checks.some((c) => c.status === 'fail')
    ? 'would_fail'
    : s.requires_approval
      ? 'awaits_approval'
      : 'would_run';

export interface ExecutionRequest extends Subject {
  execution_kind: 'action_plan_execution_preview';
  execution_mode: 'dry_run' | 'approval_request';
  role: Role;
  include_preflight: boolean;
  include_rollback_plan: boolean;
  action_steps?: Record<string, unknown>[] | undefined;
}

export function actionExecution(
  request: ExecutionRequest,
  data: PreviewData,
  now: Date,
  api: (p: string) => string,
) {
  const steps = request.action_steps ?? derivedSteps(data, request);
  const run = simulate(steps, data, request.role, now);
  const changes = run.filter((s) => s.change);
  const failing = run.filter((s) => outcome(s) === 'would_fail');
  const gated = run.filter((s) => s.requires_approval && outcome(s) !== 'would_fail');
  return {
    execution_kind: request.execution_kind,
    role: request.role,
    status: 'previewed' as const,
    execution_plan: run.map((s) => ({
      step: s.step,
      action: s.action,
      entity_type: s.entity_type,
      entity_id: s.entity_id,
      from: s.from,
      to: s.to,
      outcome: outcome(s),
      api: s.entity_id && s.entity_type ? api(statusPath(s)) : null,
    })),
    ...(request.include_preflight && { preflight_checks: run.flatMap((s) => s.checks) }),
    dry_run_results: changes.map((s) => ({
      step: s.step,
      entity_type: s.entity_type,
      entity_id: s.entity_id,
      before: s.change!.before,
      after: s.change!.after,
      audit_event_type: `${s.entity_type}.status_changed`,
      written: false,
    })),
    approval_gates: gated.map((s) => ({
      step: s.step,
      approver_roles: APPROVER_ROLES,
      status: request.execution_mode === 'approval_request' ? 'requested' : 'required',
      requested_by_role: request.role,
    })),
    ...(request.include_rollback_plan && {
      rollback_plan: [...changes].reverse().map((s) => {
        const back = s.change!.before.status as string;
        const reversible = canMove(s.entity_type!, s.change!.after.status as string, back);
        return {
          step: s.step,
          entity_type: s.entity_type,
          entity_id: s.entity_id,
          restore_status: back,
          reversible,
          how: reversible
            ? `POST ${api(statusPath(s))} {"status":"${back}"}`
            : `${s.change!.after.status as string} is final: no API move restores ${back}; compensate instead (${s.entity_type === 'document' ? 'record a correcting document' : s.entity_type === 'task' ? 'open a new task' : 'record a new exception'}).`,
        };
      }),
    }),
    data_boundaries: DATA_BOUNDARIES,
    summary: `${request.execution_mode === 'dry_run' ? 'Dry run' : 'Approval request'} of ${plural(run.length, 'step')}: ${run.length - failing.length - gated.length} would run, ${gated.length} await approval, ${failing.length} would fail. Nothing was changed.`,
    evidence: [{ steps_from: request.action_steps ? 'request' : 'exception_resolution plan' }],
  };
}
