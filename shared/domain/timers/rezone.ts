import type { Clock } from '#shared/kernel/ids';
import type { DocumentStore } from '#shared/domain/documents/ports';
import type { TenantZoneReader } from '#shared/domain/identity/ports';
import type { WorkflowRuleStore } from '#shared/domain/workflows/ports';
import { nextRunOf, ruleScheduleTimer, scheduleOf } from '#shared/domain/workflows/schedule';
import { documentDueTimer } from './arming';
import type { RezoneStore, Timer, TimerStore } from './ports';

export interface RezoneDeps {
  timers: Pick<TimerStore, 'list'>;
  rules: Pick<WorkflowRuleStore, 'get'>;
  documents: Pick<DocumentStore, 'get'>;
  zones: TenantZoneReader;
  rezone: RezoneStore;
  clock: Clock;
}

/** The kinds whose due time is a wall-clock time in the tenant's zone. */
const ZONED = ['rule_schedule', 'document_due'] as const;

/**
 * After a tenant's time-zone change (docs/api.md, "Tenant time zone"): every armed timer whose due
 * time was computed in the tenant's zone is computed again in the zone the tenant has now (re-read,
 * so of two quick changes the last wins) and moved if it differs: a scheduled rule without its
 * own zone (its `next_run_at` with it, the first occurrence after now) and an open invoice's
 * `document_due` (the end of its `due_on`). Each move is conditional on the timer as listed, so a
 * firing or a change of the subject meanwhile wins; a redelivered event finds nothing to move.
 * Escalations, acknowledgement timeouts, `task_due` and hub schedules are instants or elapsed
 * time, and stay.
 *
 * A timer already due (at or before the change's time `changedAt`, or by now) is never moved: the
 * sweep runs every 30 seconds in the cloud, so a due timer may still be armed when the change is
 * handled, and moving it to the first occurrence after now dropped that run. It fires at its old
 * time; its firing re-reads the zone, so the next occurrence is the new zone's, and a schedule
 * missed several times fires once, for its latest occurrence.
 */
export async function rezoneTimers(
  deps: RezoneDeps,
  tenantId: string,
  changedAt?: string,
): Promise<{ moved: number }> {
  const zone = await deps.zones.timeZoneOf(tenantId);
  const now = deps.clock.now();
  const dueBy = new Date(Math.max(now.getTime(), changedAt ? Date.parse(changedAt) : 0)).toISOString();
  let moved = 0;
  for (const kind of ZONED) {
    let cursor: string | undefined;
    do {
      const page = await deps.timers.list(tenantId, { kind }, { limit: 100, cursor });
      // A page's moves run together: one at a time, a tenant with thousands of open invoices would
      // outlast the worker's timeout (each move is a read and a transaction).
      const pending = page.items.filter((timer) => timer.due_at > dueBy);
      const results = await Promise.all(pending.map((timer) => move(deps, timer, zone, now)));
      moved += results.filter(Boolean).length;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }
  return { moved };
}

async function move(deps: RezoneDeps, timer: Timer, zone: string, now: Date): Promise<boolean> {
  if (timer.kind === 'document_due') {
    const doc = await deps.documents.get(timer.tenant_id, timer.subject_id);
    const wanted = doc && documentDueTimer(doc, zone);
    if (!wanted || wanted.due_at === timer.due_at) return false;
    return deps.rezone.moveTimer(wanted, timer.due_at);
  }
  const rule = await deps.rules.get(timer.tenant_id, timer.subject_id);
  const schedule = rule && scheduleOf(rule.trigger);
  if (!rule?.enabled || !schedule || schedule.timezone || rule.next_run_at !== timer.due_at) return false;
  const next = nextRunOf(schedule, zone, now)?.toISOString() ?? null;
  if (next === timer.due_at) return false;
  return deps.rezone.moveRule(
    { tenant_id: rule.tenant_id, id: rule.id, was: timer.due_at },
    ruleScheduleTimer({ ...rule, next_run_at: next }),
  );
}
