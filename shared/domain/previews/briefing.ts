import { PERMISSIONS, type Permission, type Role } from '#shared/kernel/policy';
import {
  ageHours,
  exceptionsInScope,
  exceptionRisk,
  isActiveTask,
  isOverdueTask,
  matchesSubject,
  maxRisk,
  plural,
  SEVERITY_RANK,
  type Severity,
  type Subject,
} from './common';
import { reconcile } from './detection';
import type { PreviewData } from './ports';

/**
 * What needs attention, seen by one role: every item that needs someone, ordered so that the
 * kinds of work the role does come first, then by severity and age.
 */

type Kind = 'exception' | 'task' | 'document' | 'notification';

/** The kinds of work each role does, first to last (docs/api.md section 3's matrix). */
export const ROLE_FOCUS: Record<Role, readonly Kind[]> = {
  operator: ['exception', 'task', 'notification', 'document'],
  accountant: ['document', 'exception', 'task', 'notification'],
  manager: ['exception', 'document', 'task', 'notification'],
  owner: ['exception', 'document', 'notification', 'task'],
  support: ['notification', 'exception', 'task', 'document'],
};

/** Notifications someone has to look at. */
const UNDELIVERED = new Set(['blocked', 'gated', 'retrying', 'dead_lettered']);

interface Highlight {
  kind: Kind;
  id: string;
  title: string;
  severity: Severity;
  reason: string;
  age_hours: number;
  action: string;
  permission: Permission;
  api: string;
}

export interface BriefingRequest extends Subject {
  role: Role;
  include_resolved: boolean;
  limit: number;
}

export function briefing(
  request: BriefingRequest,
  data: PreviewData,
  now: Date,
  api: (path: string) => string,
) {
  const exceptions = exceptionsInScope(data.exceptions, request);
  const tasks = data.tasks.filter((t) => isActiveTask(t) && matchesSubject(request, t));
  const scoped = !!(request.subject_type || request.subject_id);
  const findings = reconcile(data.documents, now).filter(
    (f) =>
      !scoped ||
      (request.subject_type === 'document' && f.documents.some((d) => d.id === request.subject_id)),
  );
  const notifications = scoped ? [] : data.notifications.filter((n) => UNDELIVERED.has(n.status));

  const items: Highlight[] = [
    ...exceptions.map((e) => ({
      kind: 'exception' as const,
      id: e.id,
      title: e.title,
      severity: e.severity,
      reason: `${e.status} ${e.exception_type} on ${e.subject_type} ${e.subject_id}`,
      age_hours: ageHours(now, e.detected_at),
      action:
        e.status === 'open'
          ? 'acknowledge_exception'
          : e.status === 'acknowledged'
            ? 'resolve_exception'
            : 'review_resolution',
      permission: 'exceptions.write' as const,
      api: api(`/tenants/{tenant_id}/exceptions/${e.id}`),
    })),
    ...tasks
      .filter((t) => isOverdueTask(t, now) || t.assignee_role === request.role)
      .map((t) => ({
        kind: 'task' as const,
        id: t.id,
        title: t.title,
        severity: (isOverdueTask(t, now) ? 'warning' : 'info') as Severity,
        reason: isOverdueTask(t, now)
          ? `${t.status}, due ${t.due_at}`
          : `${t.status}, assigned to the ${t.assignee_role} role`,
        age_hours: ageHours(now, t.created_at),
        action: t.status === 'open' ? 'start_task' : 'complete_task',
        permission: 'tasks.write' as const,
        api: api(`/tenants/{tenant_id}/tasks/${t.id}`),
      })),
    ...findings.map((f) => ({
      kind: 'document' as const,
      id: f.subject_id,
      title: f.message,
      severity: f.severity,
      reason: f.code,
      age_hours: 0,
      action: f.suggested_repair.action,
      permission: 'documents.create' as const,
      api: api(`/tenants/{tenant_id}/documents/${f.subject_id}`),
    })),
    ...notifications.map((n) => ({
      kind: 'notification' as const,
      id: n.id,
      title: `${n.channel} notification ${n.status}`,
      severity: (n.status === 'dead_lettered' || n.status === 'gated' ? 'warning' : 'info') as Severity,
      reason: n.policy_reasons?.length ? n.policy_reasons.join('; ') : `${n.status} on ${n.channel}`,
      age_hours: ageHours(now, n.created_at),
      action: n.review_item_id ? 'decide_review_item' : 'check_notification',
      permission: 'review_items.decide' as const,
      api: api(
        n.review_item_id
          ? `/tenants/{tenant_id}/review-items/${n.review_item_id}/decision`
          : `/tenants/{tenant_id}/notifications/${n.id}`,
      ),
    })),
  ];
  const focus = ROLE_FOCUS[request.role];
  const ordered = items.sort(
    (a, b) =>
      focus.indexOf(a.kind) - focus.indexOf(b.kind) ||
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      b.age_hours - a.age_hours ||
      a.id.localeCompare(b.id),
  );
  const shown = ordered.slice(0, request.limit);
  const may = (p: Permission) => (PERMISSIONS[p] as readonly Role[]).includes(request.role);

  const overdueTasks = tasks.filter((t) => isOverdueTask(t, now)).length;
  const overdueInvoices = findings.filter((f) => f.code === 'overdue_open_invoice').length;
  const risk = maxRisk(
    exceptionRisk(exceptions),
    findings.some((f) => f.severity === 'critical') ? 'critical' : findings.length ? 'attention' : 'normal',
    overdueTasks > 0 || notifications.some((n) => n.status === 'dead_lettered') ? 'attention' : 'normal',
  );
  const open = exceptions.filter((e) => e.status !== 'resolved');
  return {
    role: request.role,
    risk_level: risk,
    highlights: shown.map(({ permission: _permission, action: _action, ...h }) => h),
    recommended_actions: shown.map((h) => ({
      kind: h.kind,
      id: h.id,
      action: h.action,
      role_may_act: may(h.permission),
      hand_to: may(h.permission)
        ? request.role
        : ((PERMISSIONS[h.permission] as readonly Role[]).find((r) => r !== 'owner') ?? 'owner'),
      api: h.api,
    })),
    review_points: [
      { point: 'open_exceptions', count: open.length },
      { point: 'critical_exceptions', count: open.filter((e) => e.severity === 'critical').length },
      { point: 'overdue_tasks', count: overdueTasks },
      { point: 'overdue_invoices', count: overdueInvoices },
      { point: 'reconciliation_findings', count: findings.length },
      { point: 'undelivered_notifications', count: notifications.length },
    ],
    source_systems: [...new Set(data.documents.flatMap((d) => Object.keys(d.external_refs ?? {})))].sort(),
    summary: `For the ${request.role}: ${plural(open.length, 'open exception')} (${open.filter((e) => e.severity === 'critical').length} critical), ${plural(overdueTasks, 'overdue task')}, ${plural(overdueInvoices, 'overdue invoice')}, ${plural(notifications.length, 'undelivered notification')}; risk ${risk}.`,
    evidence: [{ items_needing_attention: ordered.length, shown: shown.length }],
  };
}
