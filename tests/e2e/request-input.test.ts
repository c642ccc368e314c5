import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProblem, SAMPLE_BODIES, type Seeded, seedTenant } from '#tests/support/e2e';
import type { Reply } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Request input that JavaScript reads in its own way: names of Object.prototype's members as
 * tenant ids, query names and body keys; JSON numbers beyond a double; integers that Number()
 * reads in other notations; nesting that overflows a recursive walk. Each gets the clear 4xx of
 * docs/api.md section 2 and changes nothing.
 */

let rt: TestRuntime;
let a: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  a = await seedTenant(rt);
});
afterAll(() => rt?.stop());

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

const expect422 = (r: Reply, path: string) => {
  expect([r.status, r.body?.code], JSON.stringify(r.body)).toEqual([422, 'validation_failed']);
  expect(isProblem(r)).toBe(true);
  expect(r.body.errors.map((e: { path: string }) => e.path)).toContain(path);
};

const exceptionCount = async () =>
  (
    await a.api.call('GET', `/tenants/${a.tenantId}/exceptions?limit=100`, {
      token: a.adminToken,
    })
  ).body.items.length;

describe("Object.prototype's names as tenant ids", () => {
  for (const id of PROTOTYPE_NAMES) {
    it(`${id}: 404 for a member of another tenant, 404 for platform_admin creating an exception`, async () => {
      const asMember = await a.api.call('GET', `/tenants/${id}/exceptions`, { token: a.members.owner.token });
      expect([asMember.status, asMember.body.code]).toEqual([404, 'not_found']);
      const read = await a.api.call('GET', `/tenants/${id}`, { token: a.members.operator.token });
      expect(read.status).toBe(404);

      const asAdmin = await a.api.call('POST', `/tenants/${id}/exceptions`, {
        token: a.adminToken,
        body: SAMPLE_BODIES['exceptions.create'],
      });
      expect([asAdmin.status, asAdmin.body.code]).toEqual([404, 'not_found']);
      const list = await a.api.call('GET', `/tenants/${id}/exceptions`, { token: a.adminToken });
      expect(list.status).toBe(404);
    });
  }
});

describe('JSON bodies', () => {
  const post = (raw: string) =>
    a.api.call('POST', `/tenants/${a.tenantId}/exceptions`, {
      token: a.adminToken,
      raw,
      headers: { 'content-type': 'application/json' },
    });
  const sample = JSON.stringify(SAMPLE_BODIES['exceptions.create']).slice(1, -1);

  it('a __proto__ key is 422 with its path, not 400, at the top or nested; nothing is stored', async () => {
    const before = await exceptionCount();
    expect422(await post(`{${sample},"__proto__":{"status":"resolved"}}`), '__proto__');
    expect422(await post(`{${sample},"evidence":{"x":{"__proto__":{"a":1}}}}`), 'evidence.x.__proto__');
    expect(await exceptionCount()).toBe(before);
  });

  it('a number beyond a double (1e309) is 422, never stored as null', async () => {
    const before = await exceptionCount();
    expect422(await post(`{${sample},"impact":{"amount":1e309}}`), 'impact.amount');
    expect422(await post(`{${sample},"evidence":{"ratios":[1,-1e400]}}`), 'evidence.ratios.1');
    expect(await exceptionCount()).toBe(before);
  });

  it('nesting deeper than 64 levels is 422, also thousands deep (which made JSON.stringify throw: 500)', async () => {
    const deep = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    expect((await post(`{${sample},"evidence":${deep(40)}}`)).status).toBe(201);
    // The body is level 1, so the 64th object inside evidence is level 65.
    expect422(await post(`{${sample},"evidence":${deep(64)}}`), `evidence.${Array(63).fill('a').join('.')}`);
    const r = await post(`{${sample},"evidence":${deep(20_000)}}`);
    expect([r.status, r.body.code]).toEqual([422, 'validation_failed']);
  });
});

describe('query strings', () => {
  const list = (qs: string) =>
    a.api.call('GET', `/tenants/${a.tenantId}/exceptions?${qs}`, { token: a.adminToken });

  it('limit is plain decimal digits: 0x10, 1e1, +5, 5.0 and " 5" are 422', async () => {
    expect((await list('limit=16')).status).toBe(200);
    expect((await list('limit=007')).status).toBe(200);
    for (const limit of ['0x10', '1e1', '+5', '5.0', '%205', '0b11', '']) {
      expect422(await list(`limit=${limit}`), 'limit');
    }
  });

  it("Object.prototype's names as query parameters are unknown parameters (422)", async () => {
    for (const name of PROTOTYPE_NAMES) expect422(await list(`${name}=1`), name);
  });
});
