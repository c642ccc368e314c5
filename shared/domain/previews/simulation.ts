import { canTransitionDocument } from '#shared/domain/documents/use-cases';
import { canTransitionException } from '#shared/domain/exceptions/use-cases';
import { canTransitionTask } from '#shared/domain/tasks/use-cases';
import { fromMinor, toMinor } from '#shared/kernel/money';
import { PERMISSIONS, type Permission, type Role } from '#shared/kernel/policy';
import { exceptionsInScope, isActiveTask, plural, type Subject } from './common';
import { planSteps } from './action-plan';
import type { PreviewData } from './ports';

/**
 * A list of steps run against a copy of the tenant's records, in order: each step is checked
 * before it would run (one finding shape), and the change it would make is recorded as before and
 * after. Nothing is written; the copy is dropped with the result. The execution preview
 * (`execution.ts`) and the approval gateway (`approval-gateway.ts`) both read it.
 */

type EntityType = 'exception' | 'task' | 'document';

interface ActionSpec {
  entity: EntityType;
  to: string;
  permission: Permission;
}

/** The steps a preview can run: status changes of the service's records (docs/api.md sections 6 and 9.1). */
export const ACTIONS: Record<string, ActionSpec> = {
  acknowledge_exception: { entity: 'exception', to: 'acknowledged', permission: 'exceptions.write' },
  resolve_exception: { entity: 'exception', to: 'resolved', permission: 'exceptions.write' },
  start_task: { entity: 'task', to: 'in_progress', permission: 'tasks.write' },
  reopen_task: { entity: 'task', to: 'open', permission: 'tasks.write' },
  complete_task: { entity: 'task', to: 'done', permission: 'tasks.write' },
  cancel_task: { entity: 'task', to: 'cancelled', permission: 'tasks.write' },
  open_document: { entity: 'document', to: 'open', permission: 'documents.create' },
  mark_document_paid: { entity: 'document', to: 'paid', permission: 'documents.create' },
  void_document: { entity: 'document', to: 'void', permission: 'documents.create' },
};

const ID_FIELD: Record<EntityType, string> = {
  exception: 'exception_id',
  task: 'task_id',
  document: 'document_id',
};

const CAN_MOVE: Record<EntityType, (from: never, to: never) => boolean> = {
  exception: canTransitionException,
  task: canTransitionTask,
  document: canTransitionDocument,
};
export const canMove = (entity: EntityType, from: string, to: string) =>
  (CAN_MOVE[entity] as (f: string, t: string) => boolean)(from, to);

/** The roles that may approve a gated step. */
export const APPROVER_ROLES: readonly Role[] = ['manager', 'owner'];

export interface Check {
  step: number;
  check: string;
  status: 'pass' | 'warn' | 'fail';
  finding_type: string;
  message: string;
}

type Rec = { id: string; status: string; updated_at?: string | null; [k: string]: unknown };

export interface SimulatedStep {
  step: number;
  action: string;
  entity_type: EntityType | null;
  entity_id: string | null;
  permission: Permission | null;
  from: string | null;
  to: string | null;
  requires_approval: boolean;
  checks: Check[];
  change: { before: Record<string, unknown>; after: Record<string, unknown> } | null;
}

export const may = (role: Role, p: Permission) => (PERMISSIONS[p] as readonly Role[]).includes(role);

/** The fields a status change moves (the rest of the record stays as it is). */
const changedFields = (entity: EntityType, r: Rec) => ({
  status: r.status,
  updated_at: r.updated_at ?? null,
  ...(entity === 'exception' && { resolved_at: r.resolved_at ?? null }),
  ...(entity === 'task' && { completed_at: r.completed_at ?? null }),
});

export function simulate(
  steps: readonly Record<string, unknown>[],
  data: PreviewData,
  role: Role,
  now: Date,
): SimulatedStep[] {
  const at = now.toISOString();
  const state = new Map<string, Rec>();
  const find = (entity: EntityType, id: string): Rec | undefined => {
    const key = `${entity}:${id}`;
    if (!state.has(key)) {
      const source = (
        entity === 'exception' ? data.exceptions : entity === 'task' ? data.tasks : data.documents
      ) as readonly Rec[];
      const found = source.find((r) => r.id === id);
      if (found) state.set(key, { ...found });
    }
    return state.get(key);
  };

  return steps.map((raw, index) => {
    const step = index + 1;
    const action = typeof raw.action === 'string' ? raw.action : '';
    const spec = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    const checks: Check[] = [];
    const check = (c: Omit<Check, 'step'>) => checks.push({ step, ...c });
    const result: SimulatedStep = {
      step,
      action,
      entity_type: spec?.entity ?? null,
      entity_id: null,
      permission: spec?.permission ?? null,
      from: null,
      to: spec?.to ?? null,
      requires_approval: false,
      checks,
      change: null,
    };
    if (!spec) {
      check({
        check: 'action_known',
        status: 'fail',
        finding_type: 'unknown_action',
        message: `"${action || '(none)'}" is not a step a preview can run; known: ${Object.keys(ACTIONS).join(', ')}.`,
      });
      return result;
    }
    // A money record's change is gated whatever the record: known before it is looked up.
    result.requires_approval = spec.entity === 'document';
    const idField = ID_FIELD[spec.entity];
    const id = raw[idField];
    if (typeof id !== 'string' || id === '') {
      check({
        check: 'target_named',
        status: 'fail',
        finding_type: 'missing_target',
        message: `${action} needs ${idField}.`,
      });
      return result;
    }
    result.entity_id = id;
    const record = find(spec.entity, id);
    if (!record) {
      check({
        check: 'record_exists',
        status: 'fail',
        finding_type: 'not_found',
        message: `No ${spec.entity} ${id} in this tenant.`,
      });
      return result;
    }
    check({
      check: 'record_exists',
      status: 'pass',
      finding_type: 'none',
      message: `The ${spec.entity} is ${record.status}.`,
    });
    result.from = record.status;
    const allowed = canMove(spec.entity, record.status, spec.to);
    check({
      check: 'transition_allowed',
      status: allowed ? 'pass' : 'fail',
      finding_type: allowed ? 'none' : 'invalid_transition',
      message: allowed
        ? `${record.status} -> ${spec.to} is allowed.`
        : `A ${spec.entity} cannot move from ${record.status} to ${spec.to}; this step would answer 409 invalid_transition.`,
    });
    const permitted = may(role, spec.permission);
    check({
      check: 'role_permitted',
      status: permitted ? 'pass' : 'fail',
      finding_type: permitted ? 'none' : 'forbidden_for_role',
      message: permitted
        ? `The ${role} role may run ${action}.`
        : `The ${role} role may not run ${action} (needs one of: ${PERMISSIONS[spec.permission].join(', ')}).`,
    });

    if (spec.entity === 'document' && spec.to === 'paid') {
      const applied = data.documents.filter(
        (d) => d.applies_to === id && d.status !== 'void' && d.document_type !== 'invoice',
      );
      const paid = applied.reduce((sum, d) => sum + toMinor(d.amount), 0n);
      const outstanding = toMinor(String(record.amount)) - paid;
      check({
        check: 'payments_cover_amount',
        status: outstanding === 0n ? 'pass' : 'warn',
        finding_type: outstanding === 0n ? 'none' : 'payment_amount_mismatch',
        message:
          outstanding === 0n
            ? `Applied payments cover ${String(record.amount)}.`
            : `Applied payments and credits total ${fromMinor(paid)} against ${String(record.amount)} (difference ${fromMinor(outstanding)}).`,
      });
    }
    if (action === 'resolve_exception') {
      const open = data.tasks.filter(
        (t) =>
          isActiveTask(t) &&
          t.subject_type === 'exception' &&
          t.subject_id === id &&
          state.get(`task:${t.id}`)?.status !== 'done',
      );
      if (open.length)
        check({
          check: 'linked_tasks_closed',
          status: 'warn',
          finding_type: 'open_tasks',
          message: `${plural(open.length, 'task')} on this exception still open.`,
        });
    }
    result.requires_approval ||= action === 'resolve_exception' && record.severity === 'critical';
    if (result.requires_approval)
      check({
        check: 'approval',
        status: 'warn',
        finding_type: 'approval_required',
        message: `Runs only after approval by ${APPROVER_ROLES.join(' or ')}: ${spec.entity === 'document' ? 'it changes a money record' : 'it resolves a critical exception'}.`,
      });

    if (checks.some((c) => c.status === 'fail')) return result;
    const before = changedFields(spec.entity, record);
    record.status = spec.to;
    record.updated_at = at;
    if (spec.to === 'resolved') record.resolved_at = at;
    if (spec.to === 'done') record.completed_at = at;
    result.change = { before, after: changedFields(spec.entity, record) };
    return result;
  });
}

/** The steps a plan would execute for the request's subject, when the caller names none. */
export const derivedSteps = (data: PreviewData, subject: Subject): Record<string, unknown>[] =>
  planSteps(exceptionsInScope(data.exceptions, subject), data.tasks)
    .filter((s) => s.target)
    .slice(0, 10)
    .map((s) => ({ action: s.action, [ID_FIELD[s.target!.entity_type]]: s.target!.id }));

/** The status route that would make a step's change. */
export const statusPath = (s: SimulatedStep) =>
  `/tenants/{tenant_id}/${s.entity_type === 'exception' ? 'exceptions' : s.entity_type === 'task' ? 'tasks' : 'documents'}/${s.entity_id}/status`;

/** What a preview touched: it reads the table and nothing else. */
export const DATA_BOUNDARIES = [
  { boundary: 'table', access: 'read_only', note: 'records were read; none was written' },
  { boundary: 'audit_log', access: 'none', note: 'no audit event is written by a preview' },
  { boundary: 'outbox', access: 'none', note: 'no outbox event, so no queue message and no delivery' },
  { boundary: 'providers', access: 'none', note: 'no provider is called and no secret is read' },
];
