import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '#shared/kernel/policy';
import { footprint, isProblem, type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** Tasks over HTTP (docs/api.md section 9): fields, PATCH, states, filters, roles, tenancy. */

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
}, 60_000);
afterAll(() => rt?.stop());

const base = (s: Seeded) => `/tenants/${s.tenantId}/tasks`;
const create = (s: Seeded, body: unknown, role: Role = 'operator', headers: Record<string, string> = {}) =>
  s.api.call('POST', base(s), { token: s.members[role].token, body, headers });

describe('tasks over HTTP', () => {
  it('creates an open task and reads it back with every field', async () => {
    const r = await create(a, {
      title: 'Chase payment',
      description: 'INV-1042 is short by 40.00',
      assignee_role: 'accountant',
      assignee_id: a.members.accountant.user_id,
      // In the future: a past due_at makes the task overdue at once (a task.overdue audit event).
      due_at: '2036-02-01T09:00:00Z',
      subject_type: 'invoice',
      subject_id: 'INV-1042',
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(
      [
        'id',
        'tenant_id',
        'title',
        'description',
        'assignee_role',
        'assignee_id',
        'due_at',
        'subject_type',
        'subject_id',
        'status',
        'source_rule_id',
        'created_at',
        'updated_at',
        'completed_at',
      ].sort(),
    );
    expect(r.body).toMatchObject({ status: 'open', source_rule_id: null, completed_at: null });
    expect(
      (await a.api.call('GET', `${base(a)}/${r.body.id}`, { token: a.members.support.token })).body,
    ).toEqual(r.body);
  });

  it('answers every bad input with 422 and its path, storing nothing', async () => {
    const before = await footprint(a, base(a));
    const cases: [unknown, string][] = [
      [{ title: 'x' }, 'title'],
      [{ title: 'ok', description: 'd'.repeat(2001) }, 'description'],
      [{ title: 'ok', assignee_role: 'chief' }, 'assignee_role'],
      [{ title: 'ok', assignee_id: b.members.operator.user_id }, 'assignee_id'],
      [{ title: 'ok', due_at: 'tomorrow' }, 'due_at'],
      [{ title: 'ok', subject_type: 'invoice' }, 'subject_id'],
      [{ title: 'ok', status: 'done' }, 'status'],
    ];
    for (const [body, path] of cases) {
      const r = await create(a, body);
      expect([path, r.status, r.body.code]).toEqual([path, 422, 'validation_failed']);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
      expect(isProblem(r)).toBe(true);
    }
    expect(await footprint(a, base(a))).toEqual(before);
  });

  it('PATCH changes the five editable fields only; anything else is 422', async () => {
    const t = (await create(a, { title: 'Draft' })).body;
    const patch = (body: unknown) =>
      a.api.call('PATCH', `${base(a)}/${t.id}`, { token: a.members.manager.token, body });
    const r = await patch({ title: 'Final', assignee_id: a.members.operator.user_id, due_at: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ title: 'Final', assignee_id: a.members.operator.user_id });
    for (const field of ['status', 'subject_id', 'source_rule_id', 'completed_at']) {
      const bad = await patch({ [field]: 'x' });
      expect([field, bad.status, bad.body.errors[0].path]).toEqual([field, 422, field]);
    }
    const stranger = await patch({ assignee_id: b.members.owner.user_id });
    expect([stranger.status, stranger.body.errors[0].path]).toEqual([422, 'assignee_id']);
  });

  it('moves through its states; done and cancelled are final (409); racing changes: one wins', async () => {
    const t = (await create(a, { title: 'Work' })).body;
    const status = (to: string) =>
      a.api.call('POST', `${base(a)}/${t.id}/status`, {
        token: a.members.operator.token,
        body: { status: to },
      });
    expect((await status('in_progress')).body.status).toBe('in_progress');
    const race = await Promise.all([status('done'), status('cancelled')]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    const final = race.find((r) => r.status === 200)!.body;
    expect(final.completed_at === null).toBe(final.status === 'cancelled');
    const reopen = await status('open');
    expect([reopen.status, reopen.body.code]).toEqual([409, 'invalid_transition']);
  });

  it('lists with its filters', async () => {
    const c = await seedTenant(rt);
    const me = c.members.operator.user_id;
    await create(c, { title: 'Mine', assignee_id: me, subject_type: 'invoice', subject_id: 'I-1' });
    await create(c, { title: 'Theirs', subject_type: 'invoice', subject_id: 'I-2' });
    const titles = async (q: string) =>
      (await c.api.call('GET', `${base(c)}?${q}`, { token: c.members.support.token })).body.items.map(
        (t: { title: string }) => t.title,
      );
    expect(await titles('')).toEqual(['Theirs', 'Mine']);
    expect(await titles(`assignee_id=${me}`)).toEqual(['Mine']);
    expect(await titles('subject_type=invoice&subject_id=I-2')).toEqual(['Theirs']);
    expect(await titles('status=done')).toEqual([]);
  });

  it('replays an Idempotency-Key', async () => {
    const first = await create(a, { title: 'Once' }, 'operator', { 'idempotency-key': 'task-1' });
    const again = await create(a, { title: 'Once' }, 'operator', { 'idempotency-key': 'task-1' });
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('follows the role matrix: operator, manager and owner write; everyone reads', async () => {
    const writers: Role[] = ['operator', 'manager', 'owner'];
    const t = (await create(a, { title: 'Shared' })).body;
    for (const role of ROLES) {
      const token = a.members[role].token;
      const expected = writers.includes(role) ? [201, 200, 200] : [403, 403, 403];
      const created = await create(a, { title: 'By role' }, role);
      const patched = await a.api.call('PATCH', `${base(a)}/${t.id}`, {
        token,
        body: { title: `By ${role}` },
      });
      const moved = await a.api.call(
        'POST',
        `${base(a)}/${(await create(a, { title: 'Move me' })).body.id}/status`,
        {
          token,
          body: { status: 'in_progress' },
        },
      );
      expect([role, created.status, patched.status, moved.status]).toEqual([role, ...expected]);
      expect((await a.api.call('GET', `${base(a)}/${t.id}`, { token })).status).toBe(200);
    }
  });

  it("answers 404 for a foreign tenant and for another tenant's task", async () => {
    const t = (await create(a, { title: 'Private' })).body;
    expect((await a.api.call('GET', base(a), { token: b.members.owner.token })).status).toBe(404);
    expect((await b.api.call('GET', `${base(b)}/${t.id}`, { token: b.adminToken })).status).toBe(404);
    const patched = await b.api.call('PATCH', `${base(b)}/${t.id}`, {
      token: b.adminToken,
      body: { title: 'Mine' },
    });
    expect(patched.status).toBe(404);
  });
});
