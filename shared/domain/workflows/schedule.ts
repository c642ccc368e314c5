import { nextRun, parseCron } from '#shared/kernel/cron';
import type { Timer } from '#shared/domain/timers/ports';

/**
 * Scheduled workflow rules (docs/api.md section 9.1): the trigger `{schedule: {cron, timezone?}}`
 * fires the rule on a `rule_schedule` timer, re-armed after each firing.
 */

export interface ScheduleSpec {
  cron: string;
  timezone?: string | undefined;
}
type Trigger = { event_type: string } | { schedule: ScheduleSpec };

export const scheduleOf = (trigger: Trigger): ScheduleSpec | null =>
  'schedule' in trigger ? trigger.schedule : null;

/**
 * The event type a rule is found under by the internal worker: its trigger's, or, for a
 * scheduled rule, one of its own, so that a firing reaches that rule alone through the same
 * runner (and its once-per-rule-event-action guarantees) as any other event.
 */
export const ruleEventType = (rule: { id?: string | undefined; trigger: Trigger }) =>
  'event_type' in rule.trigger ? rule.trigger.event_type : `schedule:${rule.id ?? ''}`;

/** The next firing of a schedule after `after`, in its zone (or the tenant's); null when it never fires. */
export const nextRunOf = (schedule: ScheduleSpec, tenantZone: string, after: Date): Date | null =>
  nextRun(parseCron(schedule.cron), schedule.timezone ?? tenantZone, after);

/** A rule's `rule_schedule` timer as it stands: at its `next_run_at`, none when it has none. */
export function ruleScheduleTimer(rule: {
  id: string;
  tenant_id: string;
  next_run_at: string | null;
}): Timer | null {
  if (!rule.next_run_at) return null;
  return {
    id: `rule_schedule:${rule.id}`,
    tenant_id: rule.tenant_id,
    kind: 'rule_schedule',
    subject_type: 'workflow_rule',
    subject_id: rule.id,
    due_at: rule.next_run_at,
    rule_id: rule.id,
  };
}
