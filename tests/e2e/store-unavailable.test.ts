import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamoEndpoint } from '#tests/support/db';
import { isProblem, PASSWORD, type Seeded, seedTenant } from '#tests/support/e2e';
import { client, type Reply } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy';

/**
 * docs/api.md section 2: with the table unavailable, every answer that needs it is 503
 * `unavailable` (Retry-After, Cache-Control: no-store), never a 401 for a valid token, never a 500;
 * `/health` says so too; and once the table is back, the same token works. The runtime reaches
 * DynamoDB Local through a proxy that the test cuts and restores.
 */

let proxy: TcpProxy;
let rt: TestRuntime;
let seeded: Seeded;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  proxy = await startTcpProxy(dynamoEndpoint());
  rt = await startRuntime({}, { endpoint: proxy.url });
  seeded = await seedTenant(rt);
  api = client(rt.baseUrl);
});
afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await rt?.stop();
  await proxy?.close();
});

const expectUnavailable = (r: Reply, what: string) => {
  expect([what, r.status, r.body?.code]).toEqual([what, 503, 'unavailable']);
  expect(isProblem(r), what).toBe(true);
  expect(r.headers.get('retry-after'), what).toMatch(/^[1-9][0-9]*$/);
  expect(r.headers.get('cache-control'), what).toBe('no-store');
  expect(r.headers.get('www-authenticate'), what).toBeNull();
  // The request id is a random UUID, which may itself contain `e2e-`: only the rest is checked.
  const { request_id: _, ...shown } = r.body as Record<string, unknown>;
  expect(JSON.stringify(shown), what).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|e2e-|dynamo/i);
};

const health = () => api.call('GET', '/health');

describe('the table goes away, and comes back', () => {
  it('answers 503 unavailable, never 401 or 500, while the table is unreachable', async () => {
    const token = seeded.members.operator.token;
    const tenant = seeded.tenantId;
    expect((await api.call('GET', '/auth/me', { token })).status).toBe(200);
    expect((await health()).status).toBe(200);

    await proxy.cut();
    expectUnavailable(await api.call('GET', '/auth/me', { token }), 'me');
    expectUnavailable(await api.call('GET', `/tenants/${tenant}/exceptions`, { token }), 'list');
    expectUnavailable(
      await api.call('POST', `/tenants/${tenant}/exceptions`, {
        token: seeded.adminToken,
        body: {
          exception_type: 'x.y',
          subject_type: 'invoice',
          subject_id: 'I-1',
          title: 'T1',
          summary: 'S1',
        },
      }),
      'create',
    );
    // A token that cannot be checked is not answered as a bad one either.
    expectUnavailable(await api.call('GET', '/auth/me', { token: 'x'.repeat(43) }), 'unknown token');
    expectUnavailable(
      await api.call('POST', '/auth/sessions', {
        body: { email: seeded.members.operator.email, password: PASSWORD },
      }),
      'login',
    );
    // Health's answer stands 2 s: it turns within that.
    await expect.poll(async () => (await health()).status, { timeout: 5_000, interval: 250 }).toBe(503);
    expectUnavailable(await health(), 'health');

    await proxy.restore();
    expect((await api.call('GET', '/auth/me', { token })).status).toBe(200);
    expect((await api.call('GET', `/tenants/${tenant}/exceptions`, { token })).status).toBe(200);
    expect((await api.call('GET', '/auth/me', { token: 'x'.repeat(43) })).status).toBe(401);
    const again = await api.call('POST', '/auth/sessions', {
      body: { email: seeded.members.operator.email, password: PASSWORD },
    });
    expect(again.status).toBe(201);
    await expect.poll(async () => (await health()).status, { timeout: 5_000, interval: 250 }).toBe(200);
    const ok = await health();
    expect(ok.body).toEqual({ status: 'ok' });
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });
});
