import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground } from '#local/background';
import type { LocalQueue } from '#local/local-queue';
import { QUEUES } from '#shared/kernel/names';
import { PASSWORD, type Seeded, seedTenant, until } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * The manual clock through `npm start`'s runtime (docs/api.md, "The local clock"): the route
 * moves the one clock of handlers, workers and timers, and a timer that falls due fires as it
 * would have. The test waits for the relay and the worker to finish, never for the clock.
 */

let rt: TestRuntime;
let s: Seeded;
let internal: LocalQueue;

beforeAll(async () => {
  // The interval sweep is off: only a clock move sweeps, so the test decides when timers fire.
  rt = await startRuntime({ OPS_LOCAL_CLOCK: 'manual', OPS_LOCAL_TIMER_INTERVAL_MS: '3600000' });
  s = await seedTenant(rt);
  internal = activeBackground()!.queues.queues.get(QUEUES.internal)!;
}, 60_000);
afterAll(() => rt?.stop());

const drained = () =>
  until(async () => (internal.size === 0 ? true : undefined), 'the internal queue to drain');

/**
 * Moves the clock. Access tokens expire by the same clock, so the admin and the manager log in
 * again after every move (a move of hours outlives their 12-hour tokens).
 */
const move = async (body: unknown) => {
  const r = await s.api.call('POST', '/_local/clock', { body });
  if (r.status === 200) {
    s.adminToken = await s.api.login(rt.admin.email, rt.admin.password);
    s.members.manager.token = await s.api.login(s.members.manager.email, PASSWORD);
  }
  return r;
};
const base = () => `/tenants/${s.tenantId}`;
const get = async (path: string) =>
  (await s.api.call('GET', `${base()}${path}`, { token: s.adminToken })).body;

describe('POST /_local/clock', () => {
  it('moves the clock forward by advance_seconds or to now, and answers the new time', async () => {
    const first = await move({ advance_seconds: 1 });
    expect(first.status).toBe(200);
    const start = Date.parse(first.body.now);
    const day = await move({ advance_seconds: 86_400 });
    expect(day.body).toEqual({ now: new Date(start + 86_400_000).toISOString() });
    const to = new Date(start + 2 * 86_400_000).toISOString();
    expect((await move({ now: to.replace('Z', '+00:00') })).body).toEqual({ now: to });
  });

  it('refuses a bad move with 422 and does not move', async () => {
    const { now } = (await move({ advance_seconds: 1 })).body;
    for (const body of [
      { advance_seconds: 0 },
      { advance_seconds: 2_592_001 },
      { advance_seconds: 1.5 },
      { advance_seconds: '60' },
      { now: new Date(Date.parse(now) - 1000).toISOString() },
      { now: 'tomorrow' },
      { advance_seconds: 1, now },
      {},
      { advance_seconds: 1, extra: true },
      [],
    ]) {
      const r = await move(body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.code).toBe('validation_failed');
    }
    expect((await move({ advance_seconds: 1 })).body.now).toBe(
      new Date(Date.parse(now) + 1000).toISOString(),
    );
    expect(
      (
        await s.api.call('POST', '/_local/clock', {
          raw: '{',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    const wrong = await s.api.call('GET', '/_local/clock');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
  });

  it('is the clock the handlers stamp records with', async () => {
    const { now } = (await move({ advance_seconds: 3600 })).body;
    const r = await s.api.call('POST', `${base()}/tasks`, {
      token: s.adminToken,
      body: { title: 'Stamped' },
    });
    expect(r.body.created_at).toBe(now);
  });

  it('an overdue task fires its task.overdue rule once, when its due time passes on the clock', async () => {
    const rule = await s.api.call('POST', `${base()}/workflow-rules`, {
      token: s.members.manager.token,
      body: {
        name: 'Chase overdue tasks',
        trigger: { event_type: 'task.overdue' },
        conditions: [{ field: 'title', op: 'eq', value: 'File the VAT return' }],
        actions: [{ type: 'create_task', title: 'Overdue: {{title}}' }],
      },
    });
    expect(rule.status).toBe(201);
    const { now } = (await move({ advance_seconds: 1 })).body;
    const due = new Date(Date.parse(now) + 3600_000).toISOString();
    const task = await s.api.call('POST', `${base()}/tasks`, {
      token: s.adminToken,
      body: { title: 'File the VAT return', due_at: due },
    });
    expect(task.status).toBe(201);
    const timers = await get(`/timers?subject_id=${task.body.id}`);
    expect(timers.items).toEqual([
      expect.objectContaining({
        kind: 'task_due',
        subject_type: 'task',
        subject_id: task.body.id,
        due_at: due,
      }),
    ]);

    // A minute early: nothing.
    await move({ advance_seconds: 3540 });
    await drained();
    const early = await get(`/audit-events?entity_type=task&entity_id=${task.body.id}`);
    expect(early.items.map((e: { event_type: string }) => e.event_type)).not.toContain('task.overdue');

    await move({ advance_seconds: 60 });
    const created = await until(async () => {
      const list = await get('/tasks?limit=100');
      const found = list.items.filter(
        (t: { source_rule_id: string | null }) => t.source_rule_id === rule.body.id,
      );
      return found.length > 0 ? found : undefined;
    }, 'the rule to create its task');
    expect(created.map((t: { title: string }) => t.title)).toEqual(['Overdue: File the VAT return']);

    // Another day passes: the same occurrence never fires again.
    await move({ advance_seconds: 86_400 });
    await drained();
    const audit = await get(`/audit-events?entity_type=task&entity_id=${task.body.id}`);
    expect(audit.items.filter((e: { event_type: string }) => e.event_type === 'task.overdue')).toEqual([
      expect.objectContaining({ actor_id: null }),
    ]);
    const after = await get('/tasks?limit=100');
    expect(
      after.items.filter((t: { source_rule_id: string | null }) => t.source_rule_id === rule.body.id),
    ).toHaveLength(1);
    expect((await get(`/timers?subject_id=${task.body.id}`)).items).toEqual([]);
  });
});
