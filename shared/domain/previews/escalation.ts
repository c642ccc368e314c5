import type { BusinessException } from '#shared/domain/exceptions/ports';
import type { Role } from '#shared/kernel/policy';
import {
  ageHours,
  exceptionsInScope,
  maxRisk,
  plural,
  type RiskLevel,
  type Severity,
  type Subject,
} from './common';

/**
 * The `exception_triage` policy: every unresolved exception goes to one queue by its severity and
 * its age against the severity's response time.
 */

/** Hours within which an exception of each severity should be acknowledged or resolved. */
export const RESPONSE_HOURS: Record<Severity, number> = { critical: 4, warning: 48, info: 168 };

export const QUEUES = [
  {
    queue: 'immediate',
    target_role: 'owner',
    description: 'critical and open, or critical past its response time',
  },
  { queue: 'escalated', target_role: 'manager', description: 'past its response time' },
  { queue: 'operations', target_role: 'operator', description: 'within its response time' },
  { queue: 'backlog', target_role: 'operator', description: 'informational, within its response time' },
  { queue: 'closed', target_role: 'support', description: 'resolved (shown on request)' },
] as const satisfies readonly { queue: string; target_role: Role; description: string }[];

export type QueueName = (typeof QUEUES)[number]['queue'];

export function queueOf(
  e: BusinessException,
  now: Date,
): { queue: QueueName; breached: boolean; age: number } {
  const age = ageHours(now, e.detected_at);
  const breached = e.status !== 'resolved' && age > RESPONSE_HOURS[e.severity];
  if (e.status === 'resolved') return { queue: 'closed', breached, age };
  if (e.severity === 'critical' && (e.status === 'open' || breached))
    return { queue: 'immediate', breached, age };
  if (breached) return { queue: 'escalated', breached, age };
  return { queue: e.severity === 'info' ? 'backlog' : 'operations', breached, age };
}

export interface EscalationRequest extends Subject {
  policy: 'exception_triage';
  include_resolved: boolean;
  limit: number;
}

export function escalation(
  request: EscalationRequest,
  exceptions: readonly BusinessException[],
  now: Date,
  api: (path: string) => string,
) {
  const scoped = exceptionsInScope(exceptions, request).map((e) => ({ e, ...queueOf(e, now) }));
  const order = QUEUES.map((q) => q.queue as QueueName);
  const triaged = [...scoped].sort(
    (a, b) =>
      order.indexOf(a.queue) - order.indexOf(b.queue) || b.age - a.age || a.e.id.localeCompare(b.e.id),
  );
  const shown = triaged.slice(0, request.limit);
  const targetOf = (q: QueueName) => QUEUES.find((x) => x.queue === q)!.target_role;
  const breached = triaged.filter((t) => t.breached);
  const risk: RiskLevel = maxRisk(
    triaged.some((t) => t.queue === 'immediate') ? 'critical' : 'normal',
    triaged.some((t) => t.queue === 'escalated' || (t.queue === 'operations' && t.e.severity === 'warning'))
      ? 'attention'
      : 'normal',
  );
  const exceptionApi = (id: string) => api(`/tenants/{tenant_id}/exceptions/${id}/status`);
  return {
    policy: request.policy,
    risk_level: risk,
    queues: QUEUES.filter((q) => q.queue !== 'closed' || request.include_resolved).map((q) => {
      const items = triaged.filter((t) => t.queue === q.queue);
      return {
        ...q,
        count: items.length,
        oldest_age_hours: items.length ? Math.max(...items.map((t) => t.age)) : null,
        exception_ids: items.map((t) => t.e.id),
      };
    }),
    escalation_items: shown.map((t) => ({
      exception_id: t.e.id,
      exception_type: t.e.exception_type,
      title: t.e.title,
      severity: t.e.severity,
      status: t.e.status,
      subject_type: t.e.subject_type,
      subject_id: t.e.subject_id,
      age_hours: t.age,
      response_hours: RESPONSE_HOURS[t.e.severity],
      breached: t.breached,
      queue: t.queue,
      target_role: targetOf(t.queue),
    })),
    review_points: [
      { point: 'past_response_time', count: breached.length },
      {
        point: 'critical_open',
        count: triaged.filter((t) => t.e.severity === 'critical' && t.e.status === 'open').length,
      },
      {
        point: 'acknowledged_not_resolved',
        count: triaged.filter((t) => t.e.status === 'acknowledged').length,
      },
    ],
    suggested_actions: shown
      .filter((t) => t.queue !== 'closed')
      .map((t) =>
        t.e.status === 'open'
          ? {
              exception_id: t.e.id,
              action:
                t.queue === 'immediate' || t.queue === 'escalated' ? 'acknowledge_and_notify' : 'acknowledge',
              role: targetOf(t.queue),
              why: t.breached
                ? `open ${t.age} h, past the ${RESPONSE_HOURS[t.e.severity]} h response time of a ${t.e.severity} exception`
                : `open ${t.age} h, ${t.e.severity}`,
              api: exceptionApi(t.e.id),
            }
          : {
              exception_id: t.e.id,
              action: 'resolve',
              role: targetOf(t.queue),
              why: `acknowledged, ${t.age} h since detection${t.breached ? ', past its response time' : ''}`,
              api: exceptionApi(t.e.id),
            },
      ),
    summary:
      triaged.length === 0
        ? 'No unresolved exceptions to triage.'
        : `${plural(triaged.length, 'exception')} triaged: ${QUEUES.map((q) => `${triaged.filter((t) => t.queue === q.queue).length} ${q.queue}`).join(', ')}; ${breached.length} past their response time.`,
  };
}
