import type { SQSRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { hubStore } from '#functions/adapters/hub-store';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { hubHandlers } from '#functions/workers/hub';
import { timerFireDeps } from '#functions/workers/timers';
import { IntegrationConnectionCreate } from '#shared/api/schemas/integrations';
import {
  createConnection,
  deleteConnection,
  getConnection,
  updateConnection,
  withHealth,
} from '#shared/domain/integrations/connections';
import { latestOccurrence } from '#shared/domain/integrations/schedule';
import type { OutboxEvent } from '#shared/domain/outbox';
import { ConnectionChangedError } from '#shared/domain/timers/hub-schedule';
import { fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import { newId } from '#shared/kernel/ids';
import { ValidationError } from '#shared/kernel/errors';
import { EVENT_KINDS } from '#shared/kernel/names';
import { ProviderSandbox } from '#local/provider-sandbox';
import { hubDeps, LEDGERLY_REQUEST, LEDGERLY_SECRET } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * Hub schedules (docs/api.md, "Hub schedules") on DynamoDB Local and the loopback provider
 * sandbox, with a clock the test moves: a connection's schedule arms its one `hub_schedule` timer,
 * which fires never early, requests the same diagnostics and reconciliation runs as on demand
 * (the hub worker then runs them), catches up once after downtime, writes once under redelivery,
 * and is cancelled or re-armed with the schedule and the status. Health judges freshness against
 * the schedule.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const sandbox = new ProviderSandbox();
beforeAll(async () => {
  ({ db, stores } = await freshDb());
  await sandbox.listen();
});
afterAll(() => sandbox.stop());

const manager = principal('manager-1', {}, true);
const newTenant = () => `t-${newId().slice(-12)}`;
const HOUR = 3_600_000;
const record = { messageId: 'm', attributes: {} } as unknown as SQSRecord;

const deps = (clock: ManualClock) => ({ ...hubDeps(db, stores, `${sandbox.url}/providers`, 5000), clock });

const timersOf = async (tenantId: string, id: string) =>
  (await timerStore(db).list(tenantId, { subject_id: id }, { limit: 10 })).items;
const outboxOf = async (kind: string, match: (e: OutboxEvent) => boolean) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999')) if (e.kind === kind && match(e)) out.push(e);
  return out;
};
const firingsOf = (id: string) => outboxOf(EVENT_KINDS.timerFired, (e) => e.payload.subject_id === id);
const diagnosticsOf = (id: string) =>
  outboxOf(EVENT_KINDS.integrationDiagnosticsRequested, (e) => e.payload.connection_id === id);
const runsOf = async (tenantId: string, id: string) =>
  (await reconciliationStore(db).list(tenantId, { connection_id: id }, { limit: 50 })).items;

/** Sweeps at `ms` and fires, once, each firing of the connection not fired before. */
const fired = new Set<string>();
const sweepAndFire = async (clock: ManualClock, ms: number, id: string) => {
  clock.set(ms);
  await sweepTimers({ timers: timerStore(db), clock });
  const out = [];
  for (const f of await firingsOf(id)) {
    if (fired.has(f.event_id)) continue;
    fired.add(f.event_id);
    out.push(await fireTimer(timerFireDeps(db, clock), f));
  }
  return out;
};

const scheduled = async (clock: ManualClock, schedule: Record<string, number>) => {
  const tenantId = newTenant();
  const c = await createConnection(deps(clock), manager, tenantId, {
    ...LEDGERLY_REQUEST,
    secret: LEDGERLY_SECRET,
    schedule,
  });
  return { tenantId, c };
};

describe('a connection schedule', () => {
  it('arms one timer at the next occurrence, fires never early, and requests the runs the hub worker runs', async () => {
    const clock = manualClock('2026-04-01T10:00:00.000Z');
    const { tenantId, c } = await scheduled(clock, {
      diagnostics_every_hours: 6,
      reconciliation_every_hours: 24,
    });
    expect(c.schedule).toEqual({ diagnostics_every_hours: 6, reconciliation_every_hours: 24 });
    const start = clock.now().getTime();
    const nextDiag = latestOccurrence(c.id, 6, start) + 6 * HOUR;
    const nextRec = latestOccurrence(c.id, 24, start) + 24 * HOUR;
    const due = Math.min(nextDiag, nextRec);
    expect(await timersOf(tenantId, c.id)).toEqual([
      expect.objectContaining({
        kind: 'hub_schedule',
        subject_type: 'integration_connection',
        due_at: new Date(due).toISOString(),
      }),
    ]);
    expect(due - start).toBeLessThanOrEqual(6 * HOUR);
    expect(await sweepAndFire(clock, due - 1, c.id)).toEqual([]);
    expect(await sweepAndFire(clock, due, c.id)).toEqual(['written']);
    // Diagnostics ran at `due` (the earlier of the two runs); reconciliation only if it fell due too.
    expect(await diagnosticsOf(c.id)).toHaveLength(due === nextDiag ? 1 : 0);
    expect(await runsOf(tenantId, c.id)).toHaveLength(due === nextRec ? 1 : 0);
    // Let most of a day pass (up to an hour before the second reconciliation, which the
    // connection's offset may put within 25 hours of the start): the daily run is requested
    // once, the 6-hourly one at every occurrence, each re-armed in turn.
    for (let t = due + HOUR; t <= nextRec + 23 * HOUR; t += HOUR) await sweepAndFire(clock, t, c.id);
    const diagnostics = await diagnosticsOf(c.id);
    const runs = await runsOf(tenantId, c.id);
    expect(diagnostics.length).toBeGreaterThanOrEqual(4);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      status: 'queued',
      requested_by: null,
      rule_set: 'payment_reconciliation',
    });
    // The same handlers as a review decision's diagnostics and the API's run.
    const worker = hubHandlers(deps(clock));
    await worker[EVENT_KINDS.integrationDiagnosticsRequested]!(diagnostics[0]!, record);
    const [reconcile] = await outboxOf(
      EVENT_KINDS.reconciliationRunRequested,
      (e) => e.payload.run_id === runs[0]!.id,
    );
    await worker[EVENT_KINDS.reconciliationRunRequested]!(reconcile!, record);
    expect((await runsOf(tenantId, c.id))[0]!.status).toBe('completed');
    const read = await withHealth(deps(clock), await getConnection(deps(clock), tenantId, c.id));
    expect(read.health).toMatchObject({ state: 'healthy', last_success_at: clock.now().toISOString() });
    const audit = await stores.audit.list(
      tenantId,
      { entity_type: 'integration_connection', entity_id: c.id },
      { limit: 50 },
    );
    expect(audit.items.filter((e) => e.event_type === 'integration_connection.schedule_fired').length).toBe(
      diagnostics.length,
    );
  });

  it('after downtime fires once for the latest occurrences; a redelivered firing writes nothing', async () => {
    const clock = manualClock('2026-04-01T10:00:00.000Z');
    const { tenantId, c } = await scheduled(clock, {
      diagnostics_every_hours: 6,
      reconciliation_every_hours: 24,
    });
    const [armed] = await timersOf(tenantId, c.id);
    const later = clock.now().getTime() + 3 * 24 * HOUR + 30 * 60_000;
    expect(await sweepAndFire(clock, later, c.id)).toEqual(['written']);
    expect(await diagnosticsOf(c.id)).toHaveLength(1);
    expect(await runsOf(tenantId, c.id)).toHaveLength(1);
    const audit = await stores.audit.list(
      tenantId,
      { entity_type: 'integration_connection', entity_id: c.id },
      { limit: 50 },
    );
    const firing = audit.items.find((e) => e.event_type === 'integration_connection.schedule_fired');
    expect(firing?.actor_id).toBeNull();
    expect(JSON.parse(firing!.metadata_json!)).toMatchObject({
      runs: ['diagnostics', 'reconciliation'],
      missed: true,
      scheduled_for: {
        diagnostics: new Date(latestOccurrence(c.id, 6, later)).toISOString(),
        reconciliation: new Date(latestOccurrence(c.id, 24, later)).toISOString(),
      },
    });
    const [next] = await timersOf(tenantId, c.id);
    expect(Date.parse(next!.due_at)).toBeGreaterThan(later);
    expect(next!.due_at).not.toBe(armed!.due_at);
    // The same firing message again: the occurrence is written already.
    const [again] = await firingsOf(c.id);
    expect(await fireTimer(timerFireDeps(db, clock), again!)).toBe('duplicate');
    expect(await diagnosticsOf(c.id)).toHaveLength(1);
    expect(await runsOf(tenantId, c.id)).toHaveLength(1);
    expect(await timersOf(tenantId, c.id)).toEqual([next]);
  });

  it('follows the schedule and the status: cancelled, re-armed, stale once unscheduled, gone with the connection', async () => {
    const clock = manualClock('2026-04-01T10:00:00.000Z');
    const { tenantId, c } = await scheduled(clock, { diagnostics_every_hours: 2 });
    const d = deps(clock);
    await updateConnection(d, manager, tenantId, c.id, { status: 'disabled' });
    expect(await timersOf(tenantId, c.id)).toEqual([]);
    await updateConnection(d, manager, tenantId, c.id, { status: 'active' });
    const [armed] = await timersOf(tenantId, c.id);
    expect(armed).toBeDefined();
    // A PATCH of something else leaves the armed timer as it is.
    clock.set(Date.parse(armed!.due_at));
    await updateConnection(d, manager, tenantId, c.id, { name: 'Books renamed' });
    expect(await timersOf(tenantId, c.id)).toEqual([armed]);
    // Claimed, then unscheduled before the firing is handled: stale, nothing written, no timer.
    await sweepTimers({ timers: timerStore(db), clock });
    await updateConnection(d, manager, tenantId, c.id, { schedule: null });
    const [firing] = await firingsOf(c.id);
    expect(await fireTimer(timerFireDeps(db, clock), firing!)).toBe('stale');
    expect(await diagnosticsOf(c.id)).toEqual([]);
    expect(await timersOf(tenantId, c.id)).toEqual([]);
    await updateConnection(d, manager, tenantId, c.id, { schedule: { diagnostics_every_hours: 1 } });
    expect(await timersOf(tenantId, c.id)).toHaveLength(1);
    await deleteConnection(d, manager, tenantId, c.id);
    expect(await timersOf(tenantId, c.id)).toEqual([]);
  });

  it('a connection changed between the firing read and its write is retried, not lost', async () => {
    const clock = manualClock('2026-04-01T10:00:00.000Z');
    const { tenantId, c } = await scheduled(clock, { diagnostics_every_hours: 1 });
    const [armed] = await timersOf(tenantId, c.id);
    clock.set(Date.parse(armed!.due_at));
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(c.id);
    const fire = timerFireDeps(db, clock);
    const read = await getConnection(deps(clock), tenantId, c.id);
    const racing = { ...fire, hub: { ...fire.hub!, connections: { get: async () => read } } };
    await updateConnection(deps(clock), manager, tenantId, c.id, { name: 'Renamed meanwhile' });
    await expect(fireTimer(racing, firing!)).rejects.toBeInstanceOf(ConnectionChangedError);
    expect(await diagnosticsOf(c.id)).toEqual([]);
    expect(await fireTimer(fire, firing!)).toBe('written');
    expect(await diagnosticsOf(c.id)).toHaveLength(1);
  });

  it('health judges freshness against the schedule', async () => {
    const clock = manualClock('2026-04-01T10:00:00.000Z');
    const { tenantId, c } = await scheduled(clock, { diagnostics_every_hours: 2 });
    await hubStore(db).recordResult(tenantId, c.id, { ok: true, at: clock.now().toISOString() });
    clock.set(clock.now().getTime() + 3 * HOUR);
    const health = async () =>
      (await withHealth(deps(clock), await getConnection(deps(clock), tenantId, c.id))).health.state;
    expect(await health()).toBe('degraded');
    clock.set(clock.now().getTime() + 2 * HOUR);
    expect(await health()).toBe('failing');
    // Unscheduled, the accounting category's daily expectation applies again.
    await updateConnection(deps(clock), manager, tenantId, c.id, { schedule: {} });
    expect(await health()).toBe('healthy');
  });
});

describe('bad schedules', () => {
  it('reconciliation on an adapter that cannot reconcile is 422 naming the field, nothing stored', async () => {
    const clock = manualClock('2026-04-01T10:00:00.000Z');
    const tenantId = newTenant();
    const err = await createConnection(deps(clock), manager, tenantId, {
      adapter_key: 'crm',
      name: 'CRM',
      config: { workspace: 'acme' },
      schedule: { diagnostics_every_hours: 6, reconciliation_every_hours: 6 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      expect.objectContaining({ path: 'schedule.reconciliation_every_hours', code: 'not_reconcilable' }),
    ]);
    expect((await connectionStore(db).list(tenantId, {}, { limit: 5 })).items).toEqual([]);
    const { c } = await scheduled(clock, { diagnostics_every_hours: 6 });
    const crm = await createConnection(deps(clock), manager, c.tenant_id, {
      adapter_key: 'crm',
      name: 'CRM',
      config: { workspace: 'acme' },
    });
    await expect(
      updateConnection(deps(clock), manager, c.tenant_id, crm.id, {
        schedule: { reconciliation_every_hours: 1 },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await timersOf(c.tenant_id, crm.id)).toEqual([]);
  });

  it.each([0, 169, 1.5])('every %s hours is refused by the request schema', (hours) => {
    const body = { adapter_key: 'ledgerly', name: 'Books', schedule: { diagnostics_every_hours: hours } };
    expect(IntegrationConnectionCreate.safeParse(body).success).toBe(false);
    expect(IntegrationConnectionCreate.safeParse({ ...body, schedule: { hourly: true } }).success).toBe(
      false,
    );
  });
});
