import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dbFor } from '#functions/adapters/dynamo';
import { tableConfig } from '#functions/config';
import { activeBackground } from '#local/background';
import { ROLES, type Role } from '#shared/kernel/policy';
import { QUEUES } from '#shared/kernel/names';
import { isProblem, type Seeded, seedTenant } from '#tests/support/e2e';
import { idle } from '#tests/support/idle';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** Workflow rules over HTTP (docs/api.md section 9.1): CRUD, versions, roles, and the side-effect-free test. */

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
}, 60_000);
afterAll(() => rt?.stop());

const rule = (overrides: Record<string, unknown> = {}) => ({
  name: 'Critical exceptions need a manager',
  trigger: { event_type: 'exception.created' },
  conditions: [{ field: 'severity', op: 'eq', value: 'critical' }],
  actions: [
    { type: 'create_task', title: 'Look at {{title}}', assignee_role: 'manager', due_in_hours: 4 },
    {
      type: 'notify',
      channel: 'in_app',
      recipient: '{{owner_id}}',
      subject: 'Critical: {{title}}',
      body: '{{summary}}',
    },
  ],
  ...overrides,
});
const base = (s: Seeded) => `/tenants/${s.tenantId}/workflow-rules`;
const create = (s: Seeded, body: unknown, role: Role = 'manager') =>
  s.api.call('POST', base(s), { token: s.members[role].token, body });
const tableItems = async () => {
  const out = await dbFor(tableConfig()).doc.send(new ScanCommand({ TableName: tableConfig().tableName }));
  return out.Items ?? [];
};

describe('workflow rules over HTTP', () => {
  it('creates, reads, lists, changes by version and deletes a rule', async () => {
    const created = await create(a, rule());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ version: 1, enabled: true, tenant_id: a.tenantId });
    const url = `${base(a)}/${created.body.id}`;
    const token = a.members.owner.token;
    expect((await a.api.call('GET', url, { token: a.members.support.token })).body).toEqual(created.body);
    expect((await a.api.call('GET', base(a), { token: a.members.operator.token })).body.items[0].id).toBe(
      created.body.id,
    );

    const noVersion = await a.api.call('PATCH', url, { token, body: { enabled: false } });
    expect([noVersion.status, noVersion.body.errors[0].path]).toEqual([422, 'version']);
    const v2 = await a.api.call('PATCH', url, { token, body: { version: 1, enabled: false } });
    expect(v2.body).toMatchObject({ version: 2, enabled: false });
    const stale = await a.api.call('PATCH', url, { token, body: { version: 1, name: 'Too late' } });
    expect([stale.status, stale.body.code]).toEqual([409, 'conflict']);
    const race = await Promise.all([
      a.api.call('PATCH', url, { token, body: { version: 2, name: 'Racer one' } }),
      a.api.call('PATCH', url, { token, body: { version: 2, name: 'Racer two' } }),
    ]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);

    const deleted = await a.api.call('DELETE', url, { token });
    expect(deleted.status).toBe(204);
    expect((await a.api.call('GET', url, { token })).status).toBe(404);
    expect((await a.api.call('DELETE', url, { token })).status).toBe(404);
  });

  it('replays an Idempotency-Key on create', async () => {
    const headers = { 'idempotency-key': 'rule-key-1' };
    const token = a.members.manager.token;
    const first = await a.api.call('POST', base(a), { token, body: rule(), headers });
    const again = await a.api.call('POST', base(a), { token, body: rule(), headers });
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await a.api.call('POST', base(a), { token, body: rule({ name: 'Another one' }), headers });
    expect([other.status, other.body.code]).toEqual([409, 'conflict']);
  });

  it('answers bad input with 422 and its path, storing nothing', async () => {
    const before = (await tableItems()).length;
    const cases: [unknown, string][] = [
      [rule({ name: 'x' }), 'name'],
      [rule({ trigger: { event_type: 'task.created' } }), 'trigger.event_type'],
      [rule({ conditions: [{ field: 'severity', op: 'matches', value: 'x' }] }), 'conditions.0.op'],
      [rule({ conditions: [{ field: 'bad path', op: 'exists' }] }), 'conditions.0.field'],
      [rule({ actions: [] }), 'actions'],
      [rule({ actions: [{ type: 'create_task', title: 'Fix {{ not valid }}' }] }), 'actions.0.title'],
      [
        rule({ actions: [{ type: 'notify', channel: 'pigeon', recipient: 'x', body: 'y' }] }),
        'actions.0.channel',
      ],
      [rule({ version: 1 }), 'version'],
    ];
    for (const [body, path] of cases) {
      const r = await create(a, body);
      expect([path, r.status, r.body.code]).toEqual([path, 422, 'validation_failed']);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
      expect(isProblem(r)).toBe(true);
    }
    expect((await tableItems()).length).toBe(before);
  });

  it('follows the role matrix: manager and owner manage and test; everyone reads', async () => {
    const id = (await create(a, rule())).body.id;
    for (const role of ROLES) {
      const token = a.members[role].token;
      const manage = ['manager', 'owner'].includes(role);
      const created = await create(a, rule(), role);
      const tested = await a.api.call('POST', `${base(a)}/${id}/test`, {
        token,
        body: { event: { event_type: 'exception.created', entity: {} } },
      });
      expect([role, created.status, tested.status]).toEqual([role, manage ? 201 : 403, manage ? 200 : 403]);
      expect((await a.api.call('GET', `${base(a)}/${id}`, { token })).status).toBe(200);
    }
    expect((await b.api.call('GET', `${base(b)}/${id}`, { token: b.adminToken })).status).toBe(404);
    expect((await a.api.call('GET', base(a), { token: b.members.owner.token })).status).toBe(404);
  });

  describe('test', () => {
    const entity = {
      id: 'exc-1',
      severity: 'critical',
      title: 'Payment short by 40.00',
      summary: 'Bank shows 960.00',
      owner_id: 'user-7',
    };

    it('tries the rule with the real matcher and templates, and changes nothing anywhere', async () => {
      const id = (await create(a, rule({ enabled: false }))).body.id;
      const queues = [QUEUES.internal, QUEUES.external].map((q) => activeBackground()!.queues.queues.get(q)!);
      const sends = queues.map((q) => vi.spyOn(q, 'send'));
      const before = await tableItems();

      const r = await a.api.call('POST', `${base(a)}/${id}/test`, {
        token: a.members.manager.token,
        body: { event: { event_type: 'exception.created', entity } },
      });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        matched: true,
        event_type_matched: true,
        side_effects: 'none',
        conditions: [{ field: 'severity', op: 'eq', value: 'critical', actual: 'critical', passed: true }],
      });
      expect(r.body.actions).toEqual([
        {
          type: 'create_task',
          title: 'Look at Payment short by 40.00',
          assignee_role: 'manager',
          due_at: expect.any(String),
          subject_type: 'exception',
          subject_id: 'exc-1',
          missing_fields: [],
        },
        {
          type: 'notify',
          channel: 'in_app',
          recipient: 'user-7',
          recipient_user_id: null,
          category: 'general',
          priority: 'normal',
          subject: 'Critical: Payment short by 40.00',
          body: 'Bank shows 960.00',
          missing_fields: [],
        },
      ]);
      const due = Date.parse(r.body.actions[0].due_at) - Date.now();
      expect(due).toBeGreaterThan(3.9 * 3_600_000);
      expect(due).toBeLessThanOrEqual(4 * 3_600_000);

      const miss = await a.api.call('POST', `${base(a)}/${id}/test`, {
        token: a.members.owner.token,
        body: { event: { event_type: 'exception.created', entity: { severity: 'info' } } },
      });
      expect(miss.body).toMatchObject({ matched: false, actions: [], side_effects: 'none' });
      expect(miss.body.conditions[0]).toMatchObject({ actual: 'info', passed: false });

      // Anything written would be in the table (an outbox event too); once the relay and workers
      // are idle, anything published would have reached a queue's send.
      await idle();
      expect(await tableItems()).toEqual(before);
      for (const send of sends) expect(send).not.toHaveBeenCalled();
    });

    it('reports the placeholders that found no value', async () => {
      const id = (await create(a, rule())).body.id;
      const r = await a.api.call('POST', `${base(a)}/${id}/test`, {
        token: a.members.manager.token,
        body: { event: { event_type: 'exception.created', entity: { severity: 'critical' } } },
      });
      expect(r.body.actions[0]).toMatchObject({
        title: 'Look at ',
        missing_fields: ['title'],
        subject_id: null,
      });
      expect(r.body.actions[1]).toMatchObject({
        recipient: '',
        missing_fields: ['owner_id', 'title', 'summary'],
      });
    });
  });
});
