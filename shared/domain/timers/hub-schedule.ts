import type { Clock } from '#shared/kernel/ids';
import { derivedId, newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { auditEvent } from '#shared/domain/audit';
import type { ConnectionStore } from '#shared/domain/integrations/ports';
import { reconciliationRequest } from '#shared/domain/integrations/reconciliation-requests';
import { dueRuns, hubScheduleTimer } from '#shared/domain/integrations/schedule';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { HubScheduleStore, OccurrenceResult, Timer } from './ports';

export interface HubScheduleDeps {
  connections: Pick<ConnectionStore, 'get'>;
  hubSchedule: HubScheduleStore;
  clock: Clock;
}

/** The connection changed between the firing's read and its write: the queue retries, which reads it again. */
export class ConnectionChangedError extends Error {}

/**
 * A `hub_schedule` firing (docs/api.md, "Hub schedules"): the connection is re-read and its runs
 * with an occurrence since the timer's due time are requested, once each, for their latest
 * occurrence (a firing after downtime never bursts), through the same paths as on demand: the
 * diagnostics request a review decision writes, and the queued reconciliation run the API
 * writes, with actor null. A connection deleted, disabled or unscheduled meanwhile is stale.
 */
export async function fireHubSchedule(deps: HubScheduleDeps, timer: Timer): Promise<OccurrenceResult> {
  const c = await deps.connections.get(timer.tenant_id, timer.subject_id);
  if (!c || c.status !== 'active' || !c.schedule) return 'stale';
  const now = deps.clock.now();
  const runs = dueRuns(c, new Date(timer.due_at), now);
  if (runs.length === 0) return 'stale';
  const next = hubScheduleTimer(c, now);
  const at = now.toISOString();
  const occurrence = (...parts: string[]) =>
    derivedId(timer.due_at, 'hub_schedule', c.tenant_id, c.id, timer.due_at, ...parts);
  const audits = [
    {
      ...auditEvent(deps.clock, {
        tenant_id: c.tenant_id,
        event_type: 'integration_connection.schedule_fired',
        actor_id: null,
        entity_type: 'integration_connection',
        entity_id: c.id,
        summary: `scheduled ${runs.map((r) => r.run).join(' and ')} of ${c.adapter_key} connection ${c.name}`,
        metadata: {
          runs: runs.map((r) => r.run),
          scheduled_for: Object.fromEntries(runs.map((r) => [r.run, r.scheduled_for])),
          missed: runs.some((r) => r.scheduled_for !== timer.due_at),
          next_at: next?.due_at ?? null,
        },
      }),
      id: occurrence(),
    },
  ];
  const outbox: OutboxEvent[] = [];
  const reconciliations = [];
  for (const { run } of runs) {
    if (run === 'diagnostics') {
      outbox.push({
        event_id: newId(),
        kind: EVENT_KINDS.integrationDiagnosticsRequested,
        tenant_id: c.tenant_id,
        idempotency_key: `integration-diagnostics:${c.tenant_id}:${occurrence('diagnostics')}`,
        occurred_at: at,
        payload: { connection_id: c.id },
      });
      continue;
    }
    const request = reconciliationRequest(
      deps.clock,
      c,
      'payment_reconciliation',
      null,
      occurrence('reconciliation'),
    );
    reconciliations.push(request.run);
    audits.push(request.audit);
    outbox.push(request.outbox);
  }
  const result = await deps.hubSchedule.recordRuns(
    { tenant_id: c.tenant_id, id: c.id, updated_at: c.updated_at, next },
    audits,
    outbox,
    reconciliations,
  );
  if (result === 'changed')
    throw new ConnectionChangedError(`connection ${c.id} changed while its schedule fired`);
  return result;
}
