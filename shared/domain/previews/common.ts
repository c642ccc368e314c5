import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { Task } from '#shared/domain/tasks/ports';

/** What previews share: subject filters, severity order, ages and the risk level. */

export type RiskLevel = 'normal' | 'attention' | 'critical';
export type Severity = BusinessException['severity'];

export interface Subject {
  subject_type?: string | null | undefined;
  subject_id?: string | null | undefined;
}

export const SEVERITY_RANK: Record<Severity, number> = { critical: 0, warning: 1, info: 2 };

const HOUR_MS = 3_600_000;

/** Whole hours from `at` to `now` (never negative). */
export const ageHours = (now: Date, at: string): number =>
  Math.max(0, Math.floor((now.getTime() - Date.parse(at)) / HOUR_MS));

/** `now` as a calendar date (UTC), the unit of `due_on`. */
export const today = (now: Date): string => now.toISOString().slice(0, 10);

/** Whole days from date `from` to date `to` (YYYY-MM-DD). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / (24 * HOUR_MS));

/**
 * Whether a record with these subject fields matches the request's subject. An exception also
 * matches `subject_type: "exception"` with its own id, so a preview can be aimed at one exception.
 */
export const matchesSubject = (
  s: Subject,
  record: { subject_type: string | null; subject_id: string | null; id?: string },
  ownType?: string,
): boolean => {
  if (!s.subject_type && !s.subject_id) return true;
  if (ownType && s.subject_type === ownType && record.id === s.subject_id) return true;
  return (
    (!s.subject_type || record.subject_type === s.subject_type) &&
    (!s.subject_id || record.subject_id === s.subject_id)
  );
};

/** Open and acknowledged exceptions (and resolved ones on request), most severe then oldest first. */
export const exceptionsInScope = (
  exceptions: readonly BusinessException[],
  request: Subject & { include_resolved?: boolean },
): BusinessException[] =>
  exceptions
    .filter((e) => (request.include_resolved ?? false) || e.status !== 'resolved')
    .filter((e) => matchesSubject(request, e, 'exception'))
    .sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
        a.detected_at.localeCompare(b.detected_at) ||
        a.id.localeCompare(b.id),
    );

export const isActiveTask = (t: Task) => t.status === 'open' || t.status === 'in_progress';

export const isOverdueTask = (t: Task, now: Date) =>
  isActiveTask(t) && t.due_at !== null && Date.parse(t.due_at) < now.getTime();

/** The higher of two risk levels. */
export const maxRisk = (...levels: RiskLevel[]): RiskLevel =>
  levels.includes('critical') ? 'critical' : levels.includes('attention') ? 'attention' : 'normal';

/**
 * The risk level of a set of unresolved exceptions: `critical` with any critical one still open,
 * `attention` with any other unresolved one, else `normal`.
 */
export const exceptionRisk = (exceptions: readonly BusinessException[]): RiskLevel => {
  const live = exceptions.filter((e) => e.status !== 'resolved');
  if (live.some((e) => e.severity === 'critical' && e.status === 'open')) return 'critical';
  return live.some((e) => e.severity !== 'info') ? 'attention' : 'normal';
};

/** `{{tenant_id}}` placeholders in API paths are filled for the caller. */
export const apiPath = (tenantId: string, path: string) => path.replace('{tenant_id}', tenantId);

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
