import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground } from '#local/background';
import type { LocalQueue } from '#local/local-queue';
import { QUEUES } from '#shared/kernel/names';
import { PASSWORD, type Seeded, seedTenant, until } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Time through `npm start`'s runtime with the manual clock (docs/api.md section 9.7): a scheduled
 * rule creates its task each Monday 08:00 Berlin time for three weeks across the change to summer
 * time, and an overdue invoice fires its rule once. The clock moves; the test never sleeps for it.
 */

let rt: TestRuntime;
let s: Seeded;
let internal: LocalQueue;

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_CLOCK: 'manual', OPS_LOCAL_TIMER_INTERVAL_MS: '3600000' });
  s = await seedTenant(rt);
  internal = activeBackground()!.queues.queues.get(QUEUES.internal)!;
  // Before Berlin's change to summer time on 2027-03-28.
  await move({ now: '2027-03-10T12:00:00Z' });
  const tz = await s.api.call('PATCH', `/tenants/${s.tenantId}`, {
    token: s.adminToken,
    body: { timezone: 'Europe/Berlin' },
  });
  expect(tz.body.timezone).toBe('Europe/Berlin');
}, 60_000);
afterAll(() => rt?.stop());

const drained = () =>
  until(async () => (internal.size === 0 ? true : undefined), 'the internal queue to drain');
async function move(body: unknown) {
  const r = await s.api.call('POST', '/_local/clock', { body });
  expect(r.status).toBe(200);
  s.adminToken = await s.api.login(rt.admin.email, rt.admin.password);
  s.members.manager.token = await s.api.login(s.members.manager.email, PASSWORD);
  return r;
}
const base = () => `/tenants/${s.tenantId}`;
const get = async (path: string) =>
  (await s.api.call('GET', `${base()}${path}`, { token: s.adminToken })).body;
const tasksOf = async (ruleId: string) =>
  ((await get('/tasks?limit=100')).items as { source_rule_id: string | null; title: string }[]).filter(
    (t) => t.source_rule_id === ruleId,
  );

describe('time, through the runtime', () => {
  it('a scheduled rule creates its task each Monday 08:00 Berlin time for three weeks across the change', async () => {
    const rule = await s.api.call('POST', `${base()}/workflow-rules`, {
      token: s.members.manager.token,
      body: {
        name: 'Monday review',
        trigger: { schedule: { cron: '0 8 * * 1' } },
        actions: [{ type: 'create_task', title: 'Weekly review {{scheduled_for}}' }],
      },
    });
    expect(rule.status).toBe(201);
    expect(rule.body.next_run_at).toBe('2027-03-15T07:00:00.000Z');
    const id = rule.body.id as string;
    const mondays = ['2027-03-15T07:00:00.000Z', '2027-03-22T07:00:00.000Z', '2027-03-29T06:00:00.000Z'];
    for (const [i, monday] of mondays.entries()) {
      // A second early: nothing more.
      await move({ now: new Date(Date.parse(monday) - 1000).toISOString() });
      await drained();
      expect(await tasksOf(id)).toHaveLength(i);
      await move({ now: monday });
      const tasks = await until(async () => {
        const found = await tasksOf(id);
        return found.length === i + 1 ? found : undefined;
      }, `the task of ${monday}`);
      expect(tasks.map((t) => t.title)).toContain(`Weekly review ${monday}`);
    }
    const read = await get(`/workflow-rules/${id}`);
    expect(read.next_run_at).toBe('2027-04-05T06:00:00.000Z');
    expect((await get(`/timers?kind=rule_schedule&subject_id=${id}`)).items).toEqual([
      expect.objectContaining({ rule_id: id, due_at: '2027-04-05T06:00:00.000Z' }),
    ]);
    // Disabled: no next run, no timer.
    const off = await s.api.call('PATCH', `${base()}/workflow-rules/${id}`, {
      token: s.members.manager.token,
      body: { version: read.version, enabled: false },
    });
    expect(off.body.next_run_at).toBeNull();
    expect((await get(`/timers?subject_id=${id}`)).items).toEqual([]);
  });

  it('a too frequent cron and an unknown zone are 422 naming their paths', async () => {
    for (const [schedule, path] of [
      [{ cron: '*/5 * * * *' }, 'trigger.schedule.cron'],
      [{ cron: '0 8 * * 1', timezone: 'Europe/Atlantis' }, 'trigger.schedule.timezone'],
    ] as const) {
      const r = await s.api.call('POST', `${base()}/workflow-rules`, {
        token: s.members.manager.token,
        body: { name: 'Bad', trigger: { schedule }, actions: [{ type: 'create_task', title: 'x y' }] },
      });
      expect(r.status).toBe(422);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    }
  });

  it('an overdue invoice fires its document.overdue rule once', async () => {
    const rule = await s.api.call('POST', `${base()}/workflow-rules`, {
      token: s.members.manager.token,
      body: {
        name: 'Chase overdue invoices',
        trigger: { event_type: 'document.overdue' },
        actions: [{ type: 'create_task', title: 'Chase {{number}}' }],
      },
    });
    expect(rule.status).toBe(201);
    const doc = await s.api.call('POST', `${base()}/documents`, {
      token: s.adminToken,
      body: {
        document_type: 'invoice',
        number: 'INV-OVERDUE-1',
        counterparty: 'Acme',
        currency: 'EUR',
        amount: '120.00',
        issued_on: '2027-04-01',
        due_on: '2027-04-12',
      },
    });
    expect(doc.status).toBe(201);
    await s.api.call('POST', `${base()}/documents/${doc.body.id}/status`, {
      token: s.adminToken,
      body: { status: 'open' },
    });
    // 2027-04-13 00:00 in Berlin (summer time) is 2027-04-12 22:00 UTC.
    expect((await get(`/timers?subject_id=${doc.body.id}`)).items).toEqual([
      expect.objectContaining({ kind: 'document_due', due_at: '2027-04-12T22:00:00.000Z' }),
    ]);
    await move({ now: '2027-04-12T21:59:59Z' });
    await drained();
    expect(await tasksOf(rule.body.id)).toEqual([]);
    await move({ now: '2027-04-12T22:00:00Z' });
    await until(async () => ((await tasksOf(rule.body.id)).length === 1 ? true : undefined), 'the chase');
    await move({ advance_seconds: 7 * 86_400 });
    await drained();
    expect((await tasksOf(rule.body.id)).map((t) => t.title)).toEqual(['Chase INV-OVERDUE-1']);
    const audit = await get(`/audit-events?entity_type=document&entity_id=${doc.body.id}`);
    expect(
      audit.items.filter((e: { event_type: string }) => e.event_type === 'document.overdue'),
    ).toHaveLength(1);
  });
});
