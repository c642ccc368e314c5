import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '#shared/domain/audit';
import type { ReconciliationRun } from '#shared/domain/integrations/ports';
import { hubScheduleTimer, latestOccurrence } from '#shared/domain/integrations/schedule';
import type { OutboxEvent } from '#shared/domain/outbox';
import {
  ConnectionChangedError,
  fireHubSchedule,
  type HubScheduleDeps,
} from '#shared/domain/timers/hub-schedule';
import type { OccurrenceResult, Timer } from '#shared/domain/timers/ports';
import { EVENT_KINDS } from '#shared/kernel/names';

/**
 * A `hub_schedule` firing over in-memory ports: what it asks the store to record (the firing's
 * audit event, the diagnostics request, the queued reconciliation run with its own audit event,
 * the next timer), under ids that a redelivery repeats; a connection that moved on is stale
 * without a write. The table-backed path is tests/connected/hub-schedule.test.ts.
 */

const HOUR = 3_600_000;
const connection = (over: Record<string, unknown> = {}) => ({
  id: 'c1',
  tenant_id: 'acme',
  adapter_key: 'ledgerly',
  name: 'Books',
  status: 'active',
  schedule: { diagnostics_every_hours: 6, reconciliation_every_hours: 24 },
  updated_at: '2027-01-01T00:00:00.000Z',
  ...over,
});
const NOW = Date.parse('2027-03-10T12:00:00.000Z');
const diag = latestOccurrence('c1', 6, NOW);
const rec = latestOccurrence('c1', 24, NOW);
const timerAt = (due: number): Timer => ({
  id: 'hub_schedule:c1',
  tenant_id: 'acme',
  kind: 'hub_schedule',
  subject_type: 'integration_connection',
  subject_id: 'c1',
  due_at: new Date(due).toISOString(),
});

type Recorded = {
  c: { tenant_id: string; id: string; updated_at: string; next: Timer | null };
  audits: AuditEvent[];
  outbox: OutboxEvent[];
  runs: ReconciliationRun[];
};
const setUp = (found: unknown, answer: OccurrenceResult | 'changed' = 'written') => {
  const recorded: Recorded[] = [];
  const deps = {
    connections: { get: async () => found },
    clock: { now: () => new Date(NOW) },
    hubSchedule: {
      async recordRuns(
        c: Recorded['c'],
        audits: AuditEvent[],
        outbox: OutboxEvent[],
        runs: ReconciliationRun[],
      ) {
        recorded.push({ c, audits, outbox, runs });
        return answer;
      },
    },
  } as unknown as HubScheduleDeps;
  return { deps, recorded };
};

describe('a hub_schedule firing', () => {
  it('requests both runs due since the timer, for their latest occurrences, once under redelivery', async () => {
    const due = Math.min(diag, rec);
    const { deps, recorded } = setUp(connection());
    expect(await fireHubSchedule(deps, timerAt(due))).toBe('written');
    await fireHubSchedule(deps, timerAt(due));
    const [first, again] = recorded as [Recorded, Recorded];
    const next = hubScheduleTimer(connection() as never, new Date(NOW));
    expect(next).not.toBeNull();
    expect(first.c).toEqual({ tenant_id: 'acme', id: 'c1', updated_at: '2027-01-01T00:00:00.000Z', next });
    const [fired, requested] = first.audits as [AuditEvent, AuditEvent];
    expect(first.audits).toHaveLength(2);
    expect(fired).toMatchObject({
      tenant_id: 'acme',
      event_type: 'integration_connection.schedule_fired',
      actor_id: null,
      entity_type: 'integration_connection',
      entity_id: 'c1',
      summary: 'scheduled diagnostics and reconciliation of ledgerly connection Books',
    });
    expect(JSON.parse(fired.metadata_json!)).toEqual({
      runs: ['diagnostics', 'reconciliation'],
      scheduled_for: {
        diagnostics: new Date(diag).toISOString(),
        reconciliation: new Date(rec).toISOString(),
      },
      missed: diag !== rec,
      next_at: next!.due_at,
    });
    expect(requested.entity_id).toBe(first.runs[0]!.id);
    const diagnostics = first.outbox.find((e) => e.kind === EVENT_KINDS.integrationDiagnosticsRequested)!;
    expect(diagnostics).toMatchObject({ tenant_id: 'acme', payload: { connection_id: 'c1' } });
    expect(first.outbox.map((e) => e.kind).sort()).toEqual(
      [EVENT_KINDS.integrationDiagnosticsRequested, EVENT_KINDS.reconciliationRunRequested].sort(),
    );
    expect(first.runs).toEqual([
      expect.objectContaining({ connection_id: 'c1', status: 'queued', requested_by: null }),
    ]);
    // A redelivered firing repeats every id, so the store writes each once.
    expect(again.audits[0]!.id).toBe(fired.id);
    expect(again.runs[0]!.id).toBe(first.runs[0]!.id);
    const againDiag = again.outbox.find((e) => e.kind === EVENT_KINDS.integrationDiagnosticsRequested)!;
    expect(againDiag.idempotency_key).toBe(diagnostics.idempotency_key);
    expect(diagnostics.idempotency_key).toMatch(/^integration-diagnostics:acme:/);
    // The firing, its diagnostics and its reconciliation are three occurrences, not one.
    const ids = [fired.id, diagnostics.idempotency_key.split(':').pop(), first.runs[0]!.id];
    expect(new Set(ids).size).toBe(3);
  });

  it('on time with one run due is not missed', async () => {
    // The diagnostics occurrence after the latest daily one, fired at its own time.
    const due = diag > rec ? diag : diag + 6 * HOUR;
    const at = { ...setUp(connection()) };
    at.deps.clock = { now: () => new Date(due) };
    expect(await fireHubSchedule(at.deps, timerAt(due))).toBe('written');
    const [{ audits }] = at.recorded as [Recorded];
    expect(audits[0]!.summary).toBe('scheduled diagnostics of ledgerly connection Books');
    expect(JSON.parse(audits[0]!.metadata_json!)).toMatchObject({ runs: ['diagnostics'], missed: false });
  });

  it.each([
    ['the connection was deleted', undefined],
    ['the connection is disabled', connection({ status: 'disabled' })],
    ['the connection is unscheduled', connection({ schedule: null })],
  ])('is stale without a write when %s', async (_, found) => {
    const { deps, recorded } = setUp(found);
    expect(await fireHubSchedule(deps, timerAt(Math.min(diag, rec)))).toBe('stale');
    expect(recorded).toEqual([]);
  });

  it('is stale without a write when no run fell due since the timer (the schedule moved on)', async () => {
    const { deps, recorded } = setUp(connection());
    expect(await fireHubSchedule(deps, timerAt(Math.max(diag, rec) + 1))).toBe('stale');
    expect(recorded).toEqual([]);
  });

  it('a connection changed meanwhile is retried, to be read again', async () => {
    const { deps } = setUp(connection(), 'changed');
    await expect(fireHubSchedule(deps, timerAt(Math.min(diag, rec)))).rejects.toBeInstanceOf(
      ConnectionChangedError,
    );
  });
});
