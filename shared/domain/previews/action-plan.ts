import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { Task } from '#shared/domain/tasks/ports';
import type { Role } from '#shared/kernel/policy';
import { exceptionRisk, exceptionsInScope, isActiveTask, plural, type Subject } from './common';

/**
 * The `exception_resolution` plan: for each unresolved exception, the steps from acknowledging it
 * to resolving it, each in the lane of the role that does it, with the approval gates a money or
 * critical step passes and the steps a workflow rule could take over.
 */

export interface PlanStep {
  step: number;
  exception_id: string;
  action: string;
  lane: Role;
  description: string;
  depends_on: number[];
  requires_approval: boolean;
  automatable: boolean;
  /** The record an executable step changes (action execution previews run these). */
  target: { entity_type: 'exception' | 'task'; id: string } | null;
}

/** Who repairs the cause of an exception, by its type's first segment. */
const repairLane = (e: BusinessException): Role =>
  e.exception_type.startsWith('payment_reconciliation') || e.subject_type === 'document'
    ? 'accountant'
    : 'operator';

export function planSteps(exceptions: readonly BusinessException[], tasks: readonly Task[]): PlanStep[] {
  const steps: PlanStep[] = [];
  const add = (s: Omit<PlanStep, 'step'>) => {
    const step = { step: steps.length + 1, ...s };
    steps.push(step);
    return step.step;
  };
  for (const e of exceptions) {
    if (e.status === 'resolved') continue;
    const critical = e.severity === 'critical';
    const after: number[] = [];
    if (e.status === 'open') {
      after.push(
        add({
          exception_id: e.id,
          action: 'acknowledge_exception',
          lane: critical ? 'manager' : 'operator',
          description: `Acknowledge "${e.title}"`,
          depends_on: [],
          requires_approval: false,
          automatable: false,
          target: { entity_type: 'exception', id: e.id },
        }),
      );
    }
    const linked = tasks.filter(
      (t) =>
        isActiveTask(t) &&
        ((t.subject_type === 'exception' && t.subject_id === e.id) ||
          (t.subject_type === e.subject_type && t.subject_id === e.subject_id)),
    );
    const work = linked.length
      ? linked.map((t) =>
          add({
            exception_id: e.id,
            action: 'complete_task',
            lane: t.assignee_role ?? 'operator',
            description: `Finish task "${t.title}"`,
            depends_on: [...after],
            requires_approval: false,
            automatable: false,
            target: { entity_type: 'task', id: t.id },
          }),
        )
      : [
          add({
            exception_id: e.id,
            action: 'create_task',
            lane: repairLane(e),
            description: `Open a task to investigate ${e.subject_type} ${e.subject_id}`,
            depends_on: [...after],
            requires_approval: false,
            automatable: true,
            target: null,
          }),
        ];
    const repair = add({
      exception_id: e.id,
      action: 'repair_cause',
      lane: repairLane(e),
      description: `Repair the cause on ${e.subject_type} ${e.subject_id} (${e.exception_type})`,
      depends_on: work,
      requires_approval: repairLane(e) === 'accountant' || critical,
      automatable: false,
      target: null,
    });
    add({
      exception_id: e.id,
      action: 'resolve_exception',
      lane: critical ? 'manager' : 'operator',
      description: `Resolve "${e.title}"`,
      depends_on: [repair],
      requires_approval: critical,
      automatable: false,
      target: { entity_type: 'exception', id: e.id },
    });
  }
  return steps;
}

export interface ActionPlanRequest extends Subject {
  plan_kind: 'exception_resolution';
  role: Role;
  include_resolved: boolean;
  limit: number;
}

export function actionPlan(
  request: ActionPlanRequest,
  data: { exceptions: readonly BusinessException[]; tasks: readonly Task[] },
  api: (path: string) => string,
) {
  const scoped = exceptionsInScope(data.exceptions, request);
  const chosen = scoped.slice(0, request.limit);
  const steps = planSteps(chosen, data.tasks);
  const roles = [...new Set(steps.map((s) => s.lane))].sort((a, b) =>
    a === request.role ? -1 : b === request.role ? 1 : a.localeCompare(b),
  );
  const gates = steps.filter((s) => s.requires_approval);
  return {
    plan_kind: request.plan_kind,
    role: request.role,
    risk_level: exceptionRisk(chosen),
    steps: steps.map(({ target, ...s }) => ({
      ...s,
      api:
        target?.entity_type === 'exception'
          ? api(`/tenants/{tenant_id}/exceptions/${target.id}/status`)
          : target?.entity_type === 'task'
            ? api(`/tenants/{tenant_id}/tasks/${target.id}/status`)
            : s.action === 'create_task'
              ? api('/tenants/{tenant_id}/tasks')
              : null,
    })),
    lanes: roles.map((role) => ({
      role,
      steps: steps.filter((s) => s.lane === role).map((s) => s.step),
      yours: role === request.role,
    })),
    approval_gates: gates.map((s) => ({
      gate: `approve-step-${s.step}`,
      before_step: s.step,
      exception_id: s.exception_id,
      approver_roles: ['manager', 'owner'],
      // A repair is gated for money records (the accountant's lane) or for a critical exception.
      reason:
        s.action === 'resolve_exception'
          ? 'resolves a critical exception'
          : s.lane === 'accountant'
            ? 'changes money records'
            : 'repairs the cause of a critical exception',
    })),
    automation_candidates: steps
      .filter((s) => s.automatable)
      .map((s) => ({
        step: s.step,
        action: s.action,
        why: 'a workflow rule on exception.created can open this task for every exception of this type',
        workflow_rule: {
          trigger: { event_type: 'exception.created' },
          conditions: [
            {
              field: 'exception_type',
              op: 'eq',
              value: chosen.find((e) => e.id === s.exception_id)!.exception_type,
            },
          ],
          actions: [{ type: 'create_task', title: 'Investigate {{title}}', assignee_role: s.lane }],
        },
      })),
    review_points: [
      { point: 'exceptions_planned', count: chosen.length },
      { point: 'exceptions_not_planned', count: scoped.length - chosen.length },
      { point: 'exceptions_without_task', count: steps.filter((s) => s.action === 'create_task').length },
      { point: 'approval_gates', count: gates.length },
    ],
    summary: `${plural(steps.length, 'step')} to resolve ${plural(chosen.length, 'exception')} across ${plural(roles.length, 'lane')}, ${plural(gates.length, 'approval gate')}; ${steps.filter((s) => s.lane === request.role).length} step(s) for the ${request.role}.`,
    evidence: [{ exceptions_in_scope: scoped.length, planned: chosen.length }],
  };
}
