import { timerFireDeps } from '#functions/workers/timers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { pendingOlderThan } from '#functions/adapters/outbox';
import type { createStores } from '#functions/adapters/stores';
import { timerStore } from '#functions/adapters/timer-store';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import { createTenant, updateTenant } from '#shared/domain/identity/tenants';
import type { OutboxEvent } from '#shared/domain/outbox';
import { type FireDeps, fireTimer, sweepTimers } from '#shared/domain/timers/use-cases';
import { fireRules } from '#shared/domain/workflows/runner';
import { createRule, deleteRule, getRule, updateRule } from '#shared/domain/workflows/use-cases';
import { type Clock, systemClock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { ValidationError } from '#shared/kernel/errors';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';
import { type ManualClock, manualClock } from '#tests/support/moved-clock';

/**
 * Scheduled workflow rules (docs/api.md section 9.1) on DynamoDB Local with a clock the test
 * moves: the rule's `rule_schedule` timer is armed with the rule at its `next_run_at` in the
 * tenant's zone, re-armed by each firing, caught up once after missed firings, cancelled by
 * disabling or deleting; the firing reaches the runner, whose task is created once.
 */

let db: Db;
let stores: ReturnType<typeof createStores>;
const T = 'sched-co';
const admin = principal('admin', {}, true);

beforeAll(async () => {
  ({ db, stores } = await freshDb());
  const deps = { identity: stores.identity, tenants: stores.tenants, clock: systemClock };
  await createTenant(deps, admin, { id: T, name: 'Sched Co' });
  await updateTenant(deps, admin, T, { timezone: 'Europe/Berlin' });
});

const ruleDeps = (clock: Clock) => ({ rules: stores.workflowRules, zones: stores.zones, clock });
const fireDeps = (clock: Clock): FireDeps => timerFireDeps(db, clock);
const mondayRule = (clock: Clock, cron = '0 8 * * 1') =>
  createRule(ruleDeps(clock), admin, T, {
    name: 'Weekly check',
    trigger: { schedule: { cron } },
    conditions: [],
    actions: [{ type: 'create_task', title: 'Weekly check for {{scheduled_for}}' }],
    enabled: true,
  });
const timersOf = async (id: string) =>
  (await timerStore(db).list(T, { subject_id: id }, { limit: 10 })).items;
const firingsOf = async (id: string) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === EVENT_KINDS.timerFired && e.payload.subject_id === id) out.push(e);
  return out;
};
const ruleEventsOf = async (id: string) => {
  const out: OutboxEvent[] = [];
  for await (const e of pendingOlderThan(db, '9999'))
    if (e.kind === EVENT_KINDS.workflowEventRecorded && e.payload.event_type === `schedule:${id}`)
      out.push(e);
  return out;
};
/** Sweeps at `iso` and fires what it claimed for the rule. */
const sweepAndFire = async (clock: ManualClock, iso: string, ruleId: string) => {
  clock.set(iso);
  await sweepTimers({ timers: timerStore(db), clock });
  const out = [];
  for (const f of await firingsOf(ruleId)) out.push(await fireTimer(fireDeps(clock), f));
  return out;
};

describe('scheduled workflow rules', () => {
  it('arms at next_run_at in the tenant zone, fires on time, re-arms across the change to summer time', async () => {
    const clock = manualClock('2026-03-18T12:00:00.000Z');
    const rule = await mondayRule(clock);
    expect(rule.next_run_at).toBe('2026-03-23T07:00:00.000Z');
    expect(await timersOf(rule.id)).toEqual([
      expect.objectContaining({
        kind: 'rule_schedule',
        rule_id: rule.id,
        due_at: '2026-03-23T07:00:00.000Z',
      }),
    ]);
    expect(await sweepAndFire(clock, '2026-03-23T06:59:59.999Z', rule.id)).toEqual([]);
    expect(await sweepAndFire(clock, '2026-03-23T07:00:00.000Z', rule.id)).toEqual(['written']);
    // The same firing delivered again finds the rule moved on: nothing twice.
    const [again] = await firingsOf(rule.id);
    expect(await fireTimer(fireDeps(clock), again!)).toBe('stale');
    // 08:00 Berlin on the Monday after the change is 06:00 UTC.
    expect((await getRule(ruleDeps(clock), T, rule.id)).next_run_at).toBe('2026-03-30T06:00:00.000Z');
    expect((await timersOf(rule.id)).map((t) => t.due_at)).toEqual(['2026-03-30T06:00:00.000Z']);
    const events = await ruleEventsOf(rule.id);
    expect(events).toHaveLength(1);
    expect(JSON.parse(String(events[0]!.payload.entity_json))).toEqual({
      rule_id: rule.id,
      scheduled_for: '2026-03-23T07:00:00.000Z',
      fired_at: '2026-03-23T07:00:00.000Z',
    });
    // The runner fires the rule alone on it, once, through redelivery.
    const run = { ...workflowRunDeps(db), clock, maxAttempts: 3 };
    const [firing] = await fireRules(run, events[0]!, 1);
    await fireRules(run, events[0]!, 2);
    expect(firing).toMatchObject({ rule_id: rule.id, actions: [{ type: 'create_task', result: 'created' }] });
    const task = await stores.tasks.get(T, firing!.actions[0]!.id);
    expect(task).toMatchObject({
      title: 'Weekly check for 2026-03-23T07:00:00.000Z',
      source_rule_id: rule.id,
    });
  });

  it('missed firings fire once, for the latest, and the next is armed after now', async () => {
    const clock = manualClock('2027-03-03T12:00:00.000Z');
    const rule = await mondayRule(clock);
    expect(rule.next_run_at).toBe('2027-03-08T07:00:00.000Z');
    // Down for three Mondays: 8, 15 and 22 March.
    expect(await sweepAndFire(clock, '2027-03-24T00:00:00.000Z', rule.id)).toEqual(['written']);
    const events = await ruleEventsOf(rule.id);
    expect(events).toHaveLength(1);
    expect(JSON.parse(String(events[0]!.payload.entity_json)).scheduled_for).toBe('2027-03-22T07:00:00.000Z');
    expect((await getRule(ruleDeps(clock), T, rule.id)).next_run_at).toBe('2027-03-29T06:00:00.000Z');
  });

  it('disabling cancels the timer (next_run_at null), enabling re-arms it, deleting cancels it', async () => {
    const clock = manualClock('2028-01-05T12:00:00.000Z');
    const rule = await mondayRule(clock);
    const off = await updateRule(ruleDeps(clock), admin, T, rule.id, {
      version: rule.version,
      enabled: false,
    });
    expect(off.next_run_at).toBeNull();
    expect(await timersOf(rule.id)).toEqual([]);
    const on = await updateRule(ruleDeps(clock), admin, T, rule.id, { version: off.version, enabled: true });
    expect(on.next_run_at).toBe('2028-01-10T07:00:00.000Z');
    expect(await timersOf(rule.id)).toHaveLength(1);
    await deleteRule(ruleDeps(clock), admin, T, rule.id);
    expect(await timersOf(rule.id)).toEqual([]);
  });

  it('a stale timer does nothing: the rule was re-scheduled after the claim', async () => {
    const clock = manualClock('2029-01-03T12:00:00.000Z');
    const rule = await mondayRule(clock);
    clock.set('2029-01-08T07:00:00.000Z');
    await sweepTimers({ timers: timerStore(db), clock });
    const [firing] = await firingsOf(rule.id);
    await updateRule(ruleDeps(clock), admin, T, rule.id, {
      version: rule.version,
      trigger: { schedule: { cron: '0 9 * * 2', timezone: 'America/New_York' } },
    });
    expect(await fireTimer(fireDeps(clock), firing!)).toBe('stale');
    expect(await ruleEventsOf(rule.id)).toEqual([]);
    expect((await getRule(ruleDeps(clock), T, rule.id)).next_run_at).toBe('2029-01-09T14:00:00.000Z');
  });

  it('a cron that never fires is 422 on its path, and nothing is stored', async () => {
    const clock = manualClock('2030-01-01T00:00:00.000Z');
    await expect(mondayRule(clock, '0 0 31 2 *')).rejects.toBeInstanceOf(ValidationError);
    const rules = await drain((cursor) => stores.workflowRules.list(T, { limit: 100, cursor }));
    expect(rules.filter((r) => 'schedule' in r.trigger && r.trigger.schedule.cron === '0 0 31 2 *')).toEqual(
      [],
    );
  });
});
