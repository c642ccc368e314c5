import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground } from '#local/background';
import type { LocalQueue } from '#local/local-queue';
import { QUEUES } from '#shared/kernel/names';
import { PASSWORD, type Seeded, seedTenant, until } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Escalation policies through `npm start`'s runtime with the manual clock (docs/api.md,
 * "Escalation policies"): the runtime starts once; the clock moves, never the test's sleep.
 */

let rt: TestRuntime;
let s: Seeded;
let internal: LocalQueue;

beforeAll(async () => {
  // Only a clock move sweeps, so the test decides when timers fire.
  rt = await startRuntime({ OPS_LOCAL_CLOCK: 'manual', OPS_LOCAL_TIMER_INTERVAL_MS: '3600000' });
  s = await seedTenant(rt);
  internal = activeBackground()!.queues.queues.get(QUEUES.internal)!;
}, 60_000);
afterAll(() => rt?.stop());

const base = () => `/tenants/${s.tenantId}`;
const drained = () =>
  until(async () => (internal.size === 0 ? true : undefined), 'the internal queue to drain');

/** Moves the clock by `minutes`; tokens expire by it, so everyone used here logs in again. */
const advance = async (minutes: number) => {
  const r = await s.api.call('POST', '/_local/clock', { body: { advance_seconds: minutes * 60 } });
  expect(r.status).toBe(200);
  s.adminToken = await s.api.login(rt.admin.email, rt.admin.password);
  for (const role of ['manager', 'operator'] as const)
    s.members[role].token = await s.api.login(s.members[role].email, PASSWORD);
  return r.body.now as string;
};
const get = async (path: string, token = s.adminToken) =>
  (await s.api.call('GET', `${base()}${path}`, { token })).body;
const escalatedLevels = async (id: string) =>
  (
    (await get(`/audit-events?entity_type=exception&entity_id=${id}`)).items as {
      event_type: string;
      metadata_json: string;
    }[]
  )
    .filter((e) => e.event_type === 'exception.escalated')
    .map((e) => JSON.parse(e.metadata_json).level as number)
    .sort();
const raise = async (exception_type: string) => {
  const r = await s.api.call('POST', `${base()}/exceptions`, {
    token: s.members.operator.token,
    body: {
      exception_type,
      subject_type: 'invoice',
      subject_id: 'INV-1042',
      title: 'Card payment declined',
      summary: 'The customer card was declined twice',
      severity: 'critical',
    },
  });
  expect(r.status).toBe(201);
  return r.body as { id: string; escalation: { policy_id: string; level: number; next_at: string } | null };
};

describe('escalation policies through the runtime', () => {
  it('a critical exception escalates through two levels and stops when acknowledged', async () => {
    const policy = await s.api.call('POST', `${base()}/escalation-policies`, {
      token: s.members.manager.token,
      body: {
        name: 'Critical payments',
        priority: 10,
        match: { severities: ['critical'], exception_types: ['payment.declined'] },
        levels: [
          { after_minutes: 15, notify: [{ channel: 'in_app', role: 'manager' }] },
          { after_minutes: 30, notify: [{ channel: 'in_app', recipient_user_id: s.members.owner.user_id }] },
          { after_minutes: 60, notify: [{ channel: 'email', recipient: 'cfo@example.test' }] },
        ],
      },
    });
    expect(policy.status).toBe(201);
    const now = await advance(1);
    const e = await raise('payment.declined');
    expect(e.escalation).toEqual({
      policy_id: policy.body.id,
      level: 1,
      next_at: new Date(Date.parse(now) + 15 * 60_000).toISOString(),
    });
    expect((await get(`/timers?subject_id=${e.id}`)).items).toEqual([
      expect.objectContaining({ kind: 'escalation', policy_id: policy.body.id, level: 1 }),
    ]);

    await advance(15);
    await until(async () => ((await escalatedLevels(e.id)).length === 1 ? true : undefined), 'level 1');
    const inbox = await until(async () => {
      const items = (await get('/inbox', s.members.manager.token)).items as { subject: string }[];
      return items.find((i) => i.subject?.includes('Card payment declined'));
    }, "the manager's inbox item");
    expect(inbox.subject).toBe('Escalation level 1: Card payment declined');
    expect((await get(`/exceptions/${e.id}`)).escalation).toMatchObject({ level: 2 });

    await advance(30);
    await until(async () => ((await escalatedLevels(e.id)).length === 2 ? true : undefined), 'level 2');
    await until(
      async () => ((await get('/inbox', s.members.owner.token)).items.length > 0 ? true : undefined),
      "the owner's inbox item",
    );

    const acked = await s.api.call('POST', `${base()}/exceptions/${e.id}/status`, {
      token: s.members.operator.token,
      body: { status: 'acknowledged' },
    });
    expect(acked.status).toBe(200);
    expect(acked.body.escalation).toBeNull();
    await advance(120);
    await drained();
    expect(await escalatedLevels(e.id)).toEqual([1, 2]);
    expect((await get(`/timers?subject_id=${e.id}`)).items).toEqual([]);
  });

  it('an acknowledgement timeout re-opens the exception and escalates again from level 1', async () => {
    const policy = await s.api.call('POST', `${base()}/escalation-policies`, {
      token: s.members.manager.token,
      body: {
        name: 'Stock outages',
        priority: 20,
        match: { exception_types: ['stock.out'] },
        levels: [{ after_minutes: 10, notify: [{ channel: 'in_app', role: 'manager' }] }],
        ack_timeout_minutes: 60,
      },
    });
    expect(policy.status).toBe(201);
    const e = await raise('stock.out');
    const acked = await s.api.call('POST', `${base()}/exceptions/${e.id}/status`, {
      token: s.members.operator.token,
      body: { status: 'acknowledged' },
    });
    expect(acked.status).toBe(200);
    expect((await get(`/timers?subject_id=${e.id}`)).items).toEqual([
      expect.objectContaining({ kind: 'ack_timeout', policy_id: policy.body.id }),
    ]);

    await advance(59);
    await drained();
    expect((await get(`/exceptions/${e.id}`)).status).toBe('acknowledged');

    await advance(1);
    const reopened = await until(async () => {
      const x = await get(`/exceptions/${e.id}`);
      return x.status === 'open' ? x : undefined;
    }, 'the exception to re-open');
    expect(reopened.escalation).toMatchObject({ policy_id: policy.body.id, level: 1 });
    const events = (await get(`/audit-events?entity_type=exception&entity_id=${e.id}`)).items as {
      event_type: string;
      actor_id: string | null;
    }[];
    expect(events.find((x) => x.event_type === 'exception.ack_timed_out')).toMatchObject({ actor_id: null });

    await advance(10);
    await until(async () => ((await escalatedLevels(e.id)).length === 1 ? true : undefined), 'level 1 again');
  });
});
