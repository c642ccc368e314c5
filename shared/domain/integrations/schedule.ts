import { ValidationError } from '#shared/kernel/errors';
import { timerId } from '#shared/domain/timers/arming';
import type { Timer } from '#shared/domain/timers/ports';
import { type AdapterDeclaration, EXPECTED_SYNC_MINUTES } from './catalog';
import type { Connection } from './ports';

/**
 * Hub schedules (docs/api.md, "Hub schedules"): a connection's diagnostics and reconciliation every
 * N hours of elapsed time. The occurrences are a fixed grid per connection and interval, derived
 * from nothing but the connection id and the interval, so arming, firing and catching up agree
 * without stored state: occurrence k is `offset + k * interval` since the epoch, where the offset
 * (a hash of the connection id, whole minutes below the interval) spreads the tenants' daily runs
 * over the day instead of sending them all to the providers at 00:00 UTC. Elapsed hours are no
 * wall-clock time, so neither the tenant's time zone nor a daylight-saving change moves them
 * (docs/decisions.md).
 */

export type ScheduledRun = 'diagnostics' | 'reconciliation';
export type Schedule = NonNullable<Connection['schedule']>;

const HOUR = 3_600_000;
const RUN_FIELDS = {
  diagnostics: 'diagnostics_every_hours',
  reconciliation: 'reconciliation_every_hours',
} as const satisfies Record<ScheduledRun, keyof Schedule>;

/** Capabilities of an adapter whose provider holds the payments a reconciliation compares. */
const RECONCILIATION_CAPABILITIES = ['read_payments', 'reconciliation_source'];
export const offersReconciliation = (adapter: AdapterDeclaration) =>
  adapter.capabilities.some((c) => RECONCILIATION_CAPABILITIES.includes(c));

/** The schedule as stored: `{}` and `null` are no schedule; the 422 when the adapter cannot reconcile. */
export function checkSchedule(adapter: AdapterDeclaration, schedule: Schedule | null): Schedule | null {
  if (!schedule || Object.keys(schedule).length === 0) return null;
  if (schedule.reconciliation_every_hours !== undefined && !offersReconciliation(adapter))
    throw new ValidationError([
      {
        path: 'schedule.reconciliation_every_hours',
        code: 'not_reconcilable',
        message: `the ${adapter.key} adapter offers no reconciliation (its capabilities read no payments); schedule diagnostics only`,
      },
    ]);
  return { ...schedule };
}

const offsetOf = (connectionId: string, intervalMs: number) => {
  let h = 0;
  for (const c of connectionId) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return (h % (intervalMs / 60_000)) * 60_000;
};

/** The latest occurrence at or before `at` of a run every `hours` for this connection (ms). */
export function latestOccurrence(connectionId: string, hours: number, at: number): number {
  const interval = hours * HOUR;
  const offset = offsetOf(connectionId, interval);
  return Math.floor((at - offset) / interval) * interval + offset;
}

const runsOf = (schedule: Schedule) =>
  (Object.keys(RUN_FIELDS) as ScheduledRun[]).flatMap((run) => {
    const hours = schedule[RUN_FIELDS[run]];
    return hours ? [{ run, hours }] : [];
  });

/** The connection's next scheduled occurrence after `now`, or null (no schedule, not active). */
export function nextScheduledAt(c: Pick<Connection, 'id' | 'status' | 'schedule'>, now: Date): Date | null {
  if (c.status !== 'active' || !c.schedule) return null;
  const next = runsOf(c.schedule).map(
    ({ hours }) => latestOccurrence(c.id, hours, now.getTime()) + hours * HOUR,
  );
  return next.length > 0 ? new Date(Math.min(...next)) : null;
}

/** The connection's one `hub_schedule` timer, at its next occurrence after `now`; null: none. */
export function hubScheduleTimer(
  c: Pick<Connection, 'id' | 'tenant_id' | 'status' | 'schedule'>,
  now: Date,
): Timer | null {
  const next = nextScheduledAt(c, now);
  if (!next) return null;
  return {
    id: timerId('hub_schedule', c.id),
    tenant_id: c.tenant_id,
    kind: 'hub_schedule',
    subject_type: 'integration_connection',
    subject_id: c.id,
    due_at: next.toISOString(),
  };
}

/**
 * The runs a firing of the timer due at `due` does at `now`: each run with an occurrence in
 * `[due, now]`, once, for its latest occurrence (a firing after downtime never bursts).
 */
export function dueRuns(
  c: Pick<Connection, 'id' | 'schedule'>,
  due: Date,
  now: Date,
): { run: ScheduledRun; scheduled_for: string }[] {
  if (!c.schedule) return [];
  return runsOf(c.schedule).flatMap(({ run, hours }) => {
    const latest = latestOccurrence(c.id, hours, now.getTime());
    return latest >= due.getTime() ? [{ run, scheduled_for: new Date(latest).toISOString() }] : [];
  });
}

/**
 * How often the connection is expected to succeed at its provider: health calls it late past 1x,
 * failing past 2x. A scheduled connection is judged against its own most frequent run.
 */
export function expectedMinutes(c: Pick<Connection, 'category' | 'schedule'>): number {
  const scheduled = c.schedule ? runsOf(c.schedule).map(({ hours }) => hours * 60) : [];
  return scheduled.length > 0 ? Math.min(...scheduled) : EXPECTED_SYNC_MINUTES[c.category];
}
