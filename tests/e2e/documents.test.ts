import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '#shared/kernel/policy';
import { footprint, isProblem, type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** Documents over HTTP (docs/api.md section 9): money, uniqueness, applies_to, states, roles. */

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
}, 60_000);
afterAll(() => rt?.stop());

let seq = 0;
const invoice = (overrides: Record<string, unknown> = {}) => ({
  document_type: 'invoice',
  number: `INV-${++seq}`,
  counterparty: 'Globex Ltd',
  currency: 'EUR',
  amount: '1000.00',
  issued_on: '2026-01-31',
  ...overrides,
});
const base = (s: Seeded) => `/tenants/${s.tenantId}/documents`;
const create = (s: Seeded, body: unknown, role: Role = 'accountant', headers: Record<string, string> = {}) =>
  s.api.call('POST', base(s), { token: s.members[role].token, body, headers });

describe('documents over HTTP', () => {
  it('creates a draft with exact money and reads it back', async () => {
    const r = await create(a, {
      ...invoice({ amount: '0.3' }),
      lines: [
        { description: 'First', quantity: '1', unit_amount: '0.1' },
        { description: 'Second', quantity: '1', unit_amount: '0.2' },
      ],
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'draft', amount: '0.30', tenant_id: a.tenantId });
    expect(r.body.lines.map((l: { total: string }) => l.total)).toEqual(['0.10', '0.20']);
    const got = await a.api.call('GET', `${base(a)}/${r.body.id}`, { token: a.members.support.token });
    expect(got.body).toEqual(r.body);
  });

  it('answers every bad input of the contract with 422, its path, and stores nothing', async () => {
    const target = (await create(a, invoice())).body;
    const before = await footprint(a, base(a));
    const cases: [Record<string, unknown>, string][] = [
      [invoice({ amount: '0.00' }), 'amount'],
      [invoice({ amount: '12.345' }), 'amount'],
      [invoice({ amount: 12.5 }), 'amount'],
      [invoice({ currency: 'eur' }), 'currency'],
      [invoice({ document_type: 'receipt' }), 'document_type'],
      [invoice({ number: '' }), 'number'],
      [invoice({ counterparty: 'x'.repeat(201) }), 'counterparty'],
      [invoice({ issued_on: '31.01.2026' }), 'issued_on'],
      [invoice({ due_on: '2026-01-30' }), 'due_on'],
      [
        invoice({ external_refs: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, 'r'])) }),
        'external_refs',
      ],
      [invoice({ lines: [{ description: 'x', quantity: '3', unit_amount: '333.33' }] }), 'lines'],
      [invoice({ lines: [{ description: 'x', quantity: 1, unit_amount: '1000' }] }), 'lines.0.quantity'],
      [invoice({ applies_to: target.id }), 'applies_to'],
      [invoice({ document_type: 'payment', applies_to: 'no-such-document' }), 'applies_to'],
      [invoice({ document_type: 'payment', currency: 'USD', applies_to: target.id }), 'applies_to'],
      [invoice({ status: 'paid' }), 'status'],
    ];
    for (const [body, path] of cases) {
      const r = await create(a, body);
      expect([path, r.status, r.body.code]).toEqual([path, 422, 'validation_failed']);
      expect(r.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
      expect(isProblem(r)).toBe(true);
    }
    expect(await footprint(a, base(a))).toEqual(before);
  });

  it("refuses a payment applied to another tenant's invoice as not found (422), revealing nothing", async () => {
    const theirs = (await create(b, invoice())).body;
    const r = await create(a, invoice({ document_type: 'payment', applies_to: theirs.id }));
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual([expect.objectContaining({ path: 'applies_to', code: 'not_found' })]);
    expect((await a.api.call('GET', `${base(a)}/${theirs.id}`, { token: a.adminToken })).status).toBe(404);
  });

  it('keeps (document_type, number) unique per tenant: 409 conflict', async () => {
    const body = invoice();
    expect((await create(a, body)).status).toBe(201);
    const again = await create(a, { ...body, amount: '5.00' });
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);
    expect((await create(b, body)).status).toBe(201);
  });

  it('moves through its states; anything else is 409 invalid_transition; racing changes: one wins', async () => {
    const d = (await create(a, invoice())).body;
    const status = (to: string, role: Role = 'accountant') =>
      a.api.call('POST', `${base(a)}/${d.id}/status`, { token: a.members[role].token, body: { status: to } });
    expect((await status('paid')).status).toBe(409);
    expect((await status('open')).body.status).toBe('open');
    const race = await Promise.all([status('paid'), status('void', 'manager')]);
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(race.find((r) => r.status === 409)!.body.code).toBe('invalid_transition');
    const audit = await a.api.call(
      'GET',
      `/tenants/${a.tenantId}/audit-events?entity_type=document&entity_id=${d.id}`,
      { token: a.adminToken },
    );
    expect(audit.body.items.map((e: { event_type: string }) => e.event_type)).toEqual([
      'document.status_changed',
      'document.status_changed',
      'document.created',
    ]);
  });

  it('lists newest first with its filters and signed cursors', async () => {
    const c = await seedTenant(rt);
    for (const [type, counterparty] of [
      ['invoice', 'A'],
      ['payment', 'B'],
      ['invoice', 'B'],
    ])
      await create(c, invoice({ document_type: type, counterparty }));
    const list = async (q: string) =>
      (await c.api.call('GET', `${base(c)}?${q}`, { token: c.members.support.token })).body;
    expect((await list('')).items.map((d: { counterparty: string }) => d.counterparty)).toEqual([
      'B',
      'B',
      'A',
    ]);
    expect((await list('document_type=invoice&counterparty=B')).items).toHaveLength(1);
    expect((await list('status=draft&document_type=payment')).items).toHaveLength(1);
    const page = await list('limit=1');
    const other = await c.api.call('GET', `${base(c)}?limit=1&counterparty=A&cursor=${page.next_cursor}`, {
      token: c.adminToken,
    });
    expect([other.status, other.body.code]).toEqual([400, 'invalid_cursor']);
    expect((await c.api.call('GET', `${base(c)}?colour=red`, { token: c.adminToken })).status).toBe(422);
  });

  it('replays an Idempotency-Key and refuses it with another body', async () => {
    const body = invoice();
    const first = await create(a, body, 'accountant', { 'idempotency-key': 'doc-key-1' });
    const again = await create(a, body, 'accountant', { 'idempotency-key': 'doc-key-1' });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await create(a, invoice(), 'accountant', { 'idempotency-key': 'doc-key-1' });
    expect([other.status, other.body.code]).toEqual([409, 'conflict']);
  });

  it('follows the role matrix: operator, accountant, manager and owner write; everyone reads', async () => {
    const writers: Role[] = ['operator', 'accountant', 'manager', 'owner'];
    for (const role of ROLES) {
      const r = await create(a, invoice(), role);
      expect([role, r.status]).toEqual([role, writers.includes(role) ? 201 : 403]);
      const d = (await create(a, invoice())).body;
      const s = await a.api.call('POST', `${base(a)}/${d.id}/status`, {
        token: a.members[role].token,
        body: { status: 'open' },
      });
      expect([role, s.status]).toEqual([role, writers.includes(role) ? 200 : 403]);
      expect((await a.api.call('GET', base(a), { token: a.members[role].token })).status).toBe(200);
    }
  });

  it("answers 404 for a tenant the caller is not a member of, and for another tenant's document", async () => {
    const d = (await create(a, invoice())).body;
    const outsider = b.members.owner.token;
    expect((await a.api.call('GET', base(a), { token: outsider })).status).toBe(404);
    expect((await a.api.call('POST', base(a), { token: outsider, body: invoice() })).status).toBe(404);
    expect((await b.api.call('GET', `${base(b)}/${d.id}`, { token: b.adminToken })).status).toBe(404);
    const moved = await b.api.call('POST', `${base(b)}/${d.id}/status`, {
      token: b.adminToken,
      body: { status: 'open' },
    });
    expect(moved.status).toBe(404);
  });
});
