import type { SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { timerFireDeps, timerHandlers } from '#functions/workers/timers';
import { changeDocumentStatus, createDocument } from '#shared/domain/documents/use-cases';
import { createTenant, updateTenant } from '#shared/domain/identity/tenants';
import type { OutboxEvent } from '#shared/domain/outbox';
import { fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import { createRule, getRule } from '#shared/domain/workflows/use-cases';
import { newId, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * A time-zone change never moves a timer already due (docs/api.md, "Tenant time zone"). The cloud
 * sweeps timers every 30 seconds, so a run due at 03:30:00 is still armed at 03:30:01.6 when the
 * tenant changes zone; it fires at the next sweep, at its old time, and its next occurrence is
 * the new zone's. The same after a clock jump of three weeks: the missed schedule fires once, for
 * its latest occurrence. The clock is moved by hand, through the sweep, the internal worker's
 * re-zone handler and the firing.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const admin = principal('admin', {}, true);
const record = { messageId: 'm', attributes: {} } as unknown as SQSRecord;

beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const tenant = async () => {
  const T = `rzd-${newId().slice(-12)}`;
  await createTenant({ identity: stores.identity, tenants: stores.tenants, clock: systemClock }, admin, {
    id: T,
    name: 'Due Co',
  });
  return T;
};
const scheduled = (clock: ManualClock, T: string, cron: string) =>
  createRule({ rules: stores.workflowRules, zones: stores.zones, clock }, admin, T, {
    name: `Every ${cron}`,
    trigger: { schedule: { cron } },
    conditions: [],
    actions: [{ type: 'create_task', title: 'Check {{scheduled_for}}' }],
    enabled: true,
  });
const nextRunOf = async (clock: ManualClock, T: string, id: string) =>
  (await getRule({ rules: stores.workflowRules, zones: stores.zones, clock }, T, id)).next_run_at;
const dueOf = async (T: string, id: string) =>
  (await timerStore(db).list(T, { subject_id: id }, { limit: 5 })).items.map((t) => t.due_at);
const pending = async (match: (e: OutboxEvent) => boolean) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999')) if (match(e)) out.push(e);
  return out;
};
/** Changes the tenant's zone at `at`, and the internal worker handles the change at `handledAt`. */
const rezone = async (clock: ManualClock, T: string, timezone: string, at: string, handledAt: string) => {
  clock.set(at);
  await updateTenant({ identity: stores.identity, tenants: stores.tenants, clock }, admin, T, { timezone });
  const [event] = await pending((e) => e.kind === EVENT_KINDS.tenantTimezoneChanged && e.tenant_id === T);
  clock.set(handledAt);
  await timerHandlers(timerFireDeps(db, clock), db)[EVENT_KINDS.tenantTimezoneChanged]!(event!, record);
};
/** One sweep at `iso`; fires what it claimed of `subjects` and answers each firing's outcome. */
const sweep = async (clock: ManualClock, iso: string, subjects: string[]) => {
  clock.set(iso);
  const { fired } = await sweepTimers({ timers: timerStore(db), clock });
  const firings = await pending(
    (e) => e.kind === EVENT_KINDS.timerFired && subjects.includes(String(e.payload.subject_id)),
  );
  const outcomes: Record<string, string> = {};
  for (const f of firings.filter((e) => fired.some((t) => t.id === e.payload.id)))
    outcomes[String(f.payload.subject_id)] = await fireTimer(timerFireDeps(db, clock), f);
  return outcomes;
};
const runsOf = async (id: string) =>
  (
    await pending(
      (e) => e.kind === EVENT_KINDS.workflowEventRecorded && e.payload.event_type === `schedule:${id}`,
    )
  ).map((e) => JSON.parse(String(e.payload.entity_json)).scheduled_for as string);

describe('a time-zone change and a timer already due', () => {
  it('with 30-second sweeps: due 03:30:00, zone changed 03:30:01.6, the 03:30:30 sweep fires the 03:30 run', async () => {
    const clock = manualClock('2027-05-04T03:20:00.000Z');
    const [T, late, control] = [await tenant(), await tenant(), await tenant()];
    const every15 = await scheduled(clock, T, '*/15 * * * *');
    // A daily rule shows the next occurrence is computed in the new zone after the old-time run.
    const daily = await scheduled(clock, T, '30 3 * * *');
    // Changed a moment before the due time, handled (the queue's delay) a moment after it.
    const lateDaily = await scheduled(clock, late, '30 3 * * *');
    const controlRule = await scheduled(clock, control, '*/15 * * * *');
    const ids = [every15.id, daily.id, lateDaily.id, controlRule.id];
    for (const r of [every15, daily, lateDaily, controlRule])
      expect(r.next_run_at).toBe('2027-05-04T03:30:00.000Z');

    expect(await sweep(clock, '2027-05-04T03:29:30.000Z', ids)).toEqual({});
    await rezone(clock, late, 'Europe/Berlin', '2027-05-04T03:29:59.500Z', '2027-05-04T03:30:00.500Z');
    await rezone(clock, T, 'Europe/Berlin', '2027-05-04T03:30:01.600Z', '2027-05-04T03:30:02.400Z');
    // Still armed at the old time.
    for (const [t, id] of [
      [T, every15.id],
      [T, daily.id],
      [late, lateDaily.id],
    ] as const)
      expect(await dueOf(t, id)).toEqual(['2027-05-04T03:30:00.000Z']);

    expect(await sweep(clock, '2027-05-04T03:30:30.000Z', ids)).toEqual({
      [every15.id]: 'written',
      [daily.id]: 'written',
      [lateDaily.id]: 'written',
      [controlRule.id]: 'written',
    });
    for (const id of ids) expect(await runsOf(id)).toEqual(['2027-05-04T03:30:00.000Z']);
    expect(await nextRunOf(clock, T, every15.id)).toBe('2027-05-04T03:45:00.000Z');
    expect(await nextRunOf(clock, control, controlRule.id)).toBe('2027-05-04T03:45:00.000Z');
    // 03:30 in Berlin (summer, UTC+2) is 01:30 UTC.
    expect(await nextRunOf(clock, T, daily.id)).toBe('2027-05-05T01:30:00.000Z');
    expect(await dueOf(T, daily.id)).toEqual(['2027-05-05T01:30:00.000Z']);
    expect(await nextRunOf(clock, late, lateDaily.id)).toBe('2027-05-05T01:30:00.000Z');
  });

  it('after a clock jump of three weeks: the missed schedule fires once, for its latest occurrence', async () => {
    const clock = manualClock('2027-06-01T10:05:00.000Z');
    const T = await tenant();
    const every15 = await scheduled(clock, T, '*/15 * * * *');
    const daily = await scheduled(clock, T, '0 9 * * *');
    expect(every15.next_run_at).toBe('2027-06-01T10:15:00.000Z');
    expect(daily.next_run_at).toBe('2027-06-02T09:00:00.000Z');

    await rezone(clock, T, 'Europe/Berlin', '2027-06-22T10:05:01.000Z', '2027-06-22T10:05:02.000Z');
    expect(await dueOf(T, every15.id)).toEqual(['2027-06-01T10:15:00.000Z']);
    expect(await dueOf(T, daily.id)).toEqual(['2027-06-02T09:00:00.000Z']);

    expect(await sweep(clock, '2027-06-22T10:05:30.000Z', [every15.id, daily.id])).toEqual({
      [every15.id]: 'written',
      [daily.id]: 'written',
    });
    expect(await runsOf(every15.id)).toEqual(['2027-06-22T10:00:00.000Z']);
    // The latest 09:00 in Berlin by now (07:00 UTC), the next one tomorrow.
    expect(await runsOf(daily.id)).toEqual(['2027-06-22T07:00:00.000Z']);
    expect(await nextRunOf(clock, T, every15.id)).toBe('2027-06-22T10:15:00.000Z');
    expect(await nextRunOf(clock, T, daily.id)).toBe('2027-06-23T07:00:00.000Z');
    // Nothing more by the following sweep.
    expect(await sweep(clock, '2027-06-22T10:06:00.000Z', [every15.id, daily.id])).toEqual({});
  });

  it("an invoice's due time already passed stays where it was and makes the invoice overdue at the next sweep", async () => {
    const clock = manualClock('2027-07-01T12:00:00.000Z');
    const T = await tenant();
    const docs = { documents: stores.documents, zones: stores.zones, clock };
    const draft = await createDocument(docs, admin, T, {
      document_type: 'invoice',
      number: `INV-${newId().slice(-10)}`,
      counterparty: 'Acme',
      currency: 'EUR',
      amount: '100.00',
      issued_on: '2027-06-01',
      due_on: '2027-07-01',
    });
    const invoice = await changeDocumentStatus(docs, admin, T, draft.id, { status: 'open' });
    expect(await dueOf(T, invoice.id)).toEqual(['2027-07-02T00:00:00.000Z']);
    // New York's 1 July ends four hours later: a move would have made the invoice wait for it.
    await rezone(clock, T, 'America/New_York', '2027-07-02T00:00:10.000Z', '2027-07-02T00:00:11.000Z');
    expect(await dueOf(T, invoice.id)).toEqual(['2027-07-02T00:00:00.000Z']);
    expect(await sweep(clock, '2027-07-02T00:00:30.000Z', [invoice.id])).toEqual({ [invoice.id]: 'written' });
    const overdue = await pending(
      (e) =>
        e.kind === EVENT_KINDS.workflowEventRecorded &&
        e.payload.event_type === 'document.overdue' &&
        e.payload.entity_id === invoice.id,
    );
    expect(overdue.map((e) => e.occurred_at)).toEqual(['2027-07-02T00:00:30.000Z']);
  });
});
