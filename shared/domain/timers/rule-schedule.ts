import type { Clock } from '#shared/kernel/ids';
import { derivedId, newId } from '#shared/kernel/ids';
import { latestRunBy, nextRun, parseCron } from '#shared/kernel/cron';
import { EVENT_KINDS } from '#shared/kernel/names';
import { auditEvent } from '#shared/domain/audit';
import type { TenantZoneReader } from '#shared/domain/identity/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { WorkflowRuleStore } from '#shared/domain/workflows/ports';
import { ruleEventType, ruleScheduleTimer, scheduleOf } from '#shared/domain/workflows/schedule';
import type { OccurrenceResult, RuleScheduleStore, Timer } from './ports';

export interface RuleScheduleDeps {
  rules: Pick<WorkflowRuleStore, 'get'>;
  ruleSchedule: RuleScheduleStore;
  zones: TenantZoneReader;
  clock: Clock;
}

/**
 * A `rule_schedule` firing (docs/api.md section 9.1, "Scheduled rules"): the rule is re-read and
 * fires only if it is still enabled, scheduled and due at this timer's time (a rule disabled,
 * deleted or re-scheduled meanwhile has moved on: stale). A schedule missed several times (the
 * service was down) fires once, for its latest occurrence by now, never as a burst. The rule's
 * next firing is armed in the same transaction; the runner then fires the rule's actions on the
 * event `{rule_id, scheduled_for, fired_at}`, once per rule, event and action, as for any event.
 */
export async function fireRuleSchedule(deps: RuleScheduleDeps, timer: Timer): Promise<OccurrenceResult> {
  const rule = await deps.rules.get(timer.tenant_id, timer.subject_id);
  const schedule = rule && scheduleOf(rule.trigger);
  if (!rule || !schedule || !rule.enabled || rule.next_run_at !== timer.due_at) return 'stale';
  const now = deps.clock.now();
  const zone = schedule.timezone ?? (await deps.zones.timeZoneOf(rule.tenant_id));
  const cron = parseCron(schedule.cron);
  const scheduledFor = latestRunBy(cron, zone, new Date(timer.due_at), now).toISOString();
  const next = nextRun(cron, zone, now);
  const nextRunAt = next ? next.toISOString() : null;
  const firedAt = now.toISOString();
  const audit = {
    ...auditEvent(deps.clock, {
      tenant_id: rule.tenant_id,
      event_type: 'workflow_rule.scheduled',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: rule.id,
      summary: `${rule.name} scheduled for ${scheduledFor}`,
      metadata: {
        scheduled_for: scheduledFor,
        missed: scheduledFor !== timer.due_at,
        next_run_at: nextRunAt,
      },
    }),
    id: derivedId(timer.due_at, 'workflow_rule.scheduled', rule.tenant_id, rule.id, timer.due_at),
  };
  const eventId = newId();
  const entity = { rule_id: rule.id, scheduled_for: scheduledFor, fired_at: firedAt };
  const event: OutboxEvent = {
    event_id: eventId,
    kind: EVENT_KINDS.workflowEventRecorded,
    tenant_id: rule.tenant_id,
    idempotency_key: `workflow-event:${rule.tenant_id}:${eventId}`,
    occurred_at: firedAt,
    payload: { event_type: ruleEventType(rule), entity_id: rule.id, entity_json: JSON.stringify(entity) },
  };
  return deps.ruleSchedule.recordRun(
    {
      tenant_id: rule.tenant_id,
      id: rule.id,
      due: timer.due_at,
      next: ruleScheduleTimer({ ...rule, next_run_at: nextRunAt }),
    },
    audit,
    event,
  );
}
