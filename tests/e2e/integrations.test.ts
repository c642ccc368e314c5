import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '#shared/kernel/policy';
import { footprint, isProblem, type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** The integration hub over HTTP (docs/api.md section 9.3): catalog, connections, roles, secrets. */

let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
}, 60_000);
afterAll(() => rt?.stop());

const base = (s: Seeded) => `/tenants/${s.tenantId}/integration-connections`;
const BOT_TOKEN = `424242:${'Q'.repeat(20)}x${'z'.repeat(14)}`;
const telegram = (name = 'Ops bot') => ({ adapter_key: 'telegram', name, secret: { bot_token: BOT_TOKEN } });
const create = (s: Seeded, body: unknown, role: Role = 'manager', headers: Record<string, string> = {}) =>
  s.api.call('POST', base(s), { token: s.members[role].token, body, headers });

describe('adapter catalog over HTTP', () => {
  it('lists at least 8 adapters to any signed-in user, and one by key', async () => {
    const list = await a.api.call('GET', '/adapters', { token: a.members.support.token });
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(8);
    expect(list.body.next_cursor).toBeNull();
    const accounting = await a.api.call('GET', '/adapters?category=accounting', {
      token: a.members.operator.token,
    });
    expect(accounting.body.items.map((x: { key: string }) => x.key)).toEqual([
      'xero',
      'quickbooks_online',
      'ledgerly',
      'tallybook',
    ]);
    const one = await a.api.call('GET', '/adapters/webhook', { token: a.members.accountant.token });
    expect(one.body).toMatchObject({ key: 'webhook', channel: 'webhook', category: 'notification' });
    expect(one.body.config_schema.required).toEqual(['url']);
    const missing = await a.api.call('GET', '/adapters/nope', { token: a.members.owner.token });
    expect([missing.status, isProblem(missing)]).toEqual([404, true]);
    expect((await a.api.call('GET', '/adapters', {})).status).toBe(401);
  });
});

describe('integration connections over HTTP', () => {
  it('creates with a write-only secret, replays on the same Idempotency-Key, never returns the secret', async () => {
    const key = `conn-${Date.now()}`;
    const r = await create(a, telegram(), 'manager', { 'idempotency-key': key });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      adapter_key: 'telegram',
      status: 'active',
      scopes: ['messages.send'],
      secret_configured: true,
      health: { state: 'unknown', open_issues: 0 },
    });
    expect(r.body.id.length).toBeLessThanOrEqual(36);
    const again = await create(a, telegram(), 'manager', { 'idempotency-key': key });
    expect([again.status, again.body.id, again.headers.get('idempotent-replayed')]).toEqual([
      201,
      r.body.id,
      'true',
    ]);

    const got = await a.api.call('GET', `${base(a)}/${r.body.id}`, { token: a.members.support.token });
    const list = await a.api.call('GET', base(a), { token: a.members.operator.token });
    const audit = await a.api.call(
      'GET',
      `/tenants/${a.tenantId}/audit-events?entity_id=${r.body.id}&entity_type=integration_connection`,
      {
        token: a.members.owner.token,
      },
    );
    expect(audit.body.items.map((e: { event_type: string }) => e.event_type)).toEqual([
      'integration_connection.created',
    ]);
    for (const body of [r.body, got.body, list.body, audit.body])
      expect(JSON.stringify(body)).not.toContain(BOT_TOKEN);

    const dup = await create(a, telegram('Second bot'));
    expect([dup.status, dup.body.code]).toEqual([409, 'conflict']);
    await a.api.call('DELETE', `${base(a)}/${r.body.id}`, { token: a.members.owner.token });
  });

  it('names the scope and the config field it refuses, and writes nothing', async () => {
    const before = await footprint(a, base(a));
    const r = await create(a, {
      adapter_key: 'tallybook',
      name: 'Books',
      scopes: ['invoices.write', 'payroll.write'],
      config: { company_id: 'abc', ledger: 'sales', currency: 'EUR' },
      secret: { api_key: 'short' },
    });
    expect(r.status).toBe(422);
    const errors = r.body.errors.map((e: { path: string; code: string }) => [e.path, e.code]);
    expect(errors).toEqual(
      expect.arrayContaining([
        ['scopes', 'unsupported_scope'],
        ['config.company_id', 'invalid_format'],
        ['secret.api_key', 'too_small'],
      ]),
    );
    expect(JSON.stringify(r.body)).toContain('payroll.write');
    expect(await footprint(a, base(a))).toEqual(before);
  });

  it('refuses a schedule out of bounds, or reconciliation on a channel, naming the field; writes nothing', async () => {
    const before = await footprint(a, base(a));
    const tooOften = await create(a, { ...telegram('Hourly bot'), schedule: { diagnostics_every_hours: 0 } });
    expect(tooOften.status).toBe(422);
    expect(tooOften.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'schedule.diagnostics_every_hours',
    ]);
    const channel = await create(a, {
      ...telegram('Reconciling bot'),
      schedule: { reconciliation_every_hours: 24 },
    });
    expect(channel.status).toBe(422);
    expect(channel.body.errors).toEqual([
      expect.objectContaining({ path: 'schedule.reconciliation_every_hours', code: 'not_reconcilable' }),
    ]);
    expect(await footprint(a, base(a))).toEqual(before);
  });

  it('disables, re-enables and deletes; manager and owner write, everyone reads', async () => {
    const c = await create(a, { adapter_key: 'sms', name: 'Texts', config: { sender_id: 'ACME' } }, 'owner');
    expect(c.status).toBe(201);
    const url = `${base(a)}/${c.body.id}`;
    for (const role of ROLES) {
      const read = await a.api.call('GET', url, { token: a.members[role].token });
      expect([role, read.status]).toEqual([role, 200]);
      const write = await a.api.call('PATCH', url, {
        token: a.members[role].token,
        body: { name: `By ${role}` },
      });
      expect([role, write.status]).toEqual([role, ['manager', 'owner'].includes(role) ? 200 : 403]);
    }
    const off = await a.api.call('PATCH', url, {
      token: a.members.manager.token,
      body: { status: 'disabled' },
    });
    expect(off.body.status).toBe('disabled');
    const blocked = await a.api.call('POST', `/tenants/${a.tenantId}/notifications`, {
      token: a.members.operator.token,
      body: { channel: 'sms', recipient: '+4915112345678', body: 'Hi' },
    });
    expect(blocked.body.errors).toContainEqual(expect.objectContaining({ code: 'channel_disabled' }));
    const on = await a.api.call('PATCH', url, { token: a.members.manager.token, body: { status: 'active' } });
    expect(on.body.status).toBe('active');
    const forbidden = await a.api.call('DELETE', url, { token: a.members.operator.token });
    expect(forbidden.status).toBe(403);
    expect((await a.api.call('DELETE', url, { token: a.members.manager.token })).status).toBe(204);
    expect((await a.api.call('GET', url, { token: a.members.manager.token })).status).toBe(404);
  });

  it("answers 404 for another tenant's connection and for a tenant the caller is not in", async () => {
    const c = await create(b, {
      adapter_key: 'email',
      name: 'Mail',
      config: { from_address: 'x@b.example' },
    });
    expect(c.status).toBe(201);
    const foreign = await a.api.call('GET', `${base(a)}/${c.body.id}`, { token: a.members.owner.token });
    expect(foreign.status).toBe(404);
    const outside = await a.api.call('GET', base(b), { token: a.members.owner.token });
    expect([outside.status, outside.body.code]).toEqual([404, 'not_found']);
    const longId = await a.api.call('GET', `${base(a)}/${'x'.repeat(37)}`, { token: a.members.owner.token });
    expect(longId.status).toBe(404);
  });
});
