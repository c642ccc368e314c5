import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerOperations, isProblem, SAMPLE_BODIES } from '#tests/support/e2e';
import { client } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** Its own runtime: the handlers read OPS_SESSION_TTL_SECONDS once, at load. */
let rt: TestRuntime;
let expired: string;
beforeAll(async () => {
  // The manual clock moves past the session's end: no wait, and no race with a loaded machine.
  rt = await startRuntime({ OPS_SESSION_TTL_SECONDS: '60', OPS_LOCAL_CLOCK: 'manual' });
  const api = client(rt.baseUrl);
  expired = await api.login(rt.admin.email, rt.admin.password);
  expect((await api.call('GET', '/auth/me', { token: expired })).status).toBe(200);
  const moved = await api.call('POST', '/_local/clock', { body: { advance_seconds: 61 } });
  expect(moved.status).toBe(200);
});
afterAll(() => rt?.stop());

describe('an expired token', () => {
  it('gets 401 unauthenticated with WWW-Authenticate: Bearer on every bearer route', async () => {
    const api = client(rt.baseUrl);
    const ops = bearerOperations({ tenant_id: 'acme', exception_id: 'e1', user_id: 'u1', token_id: 't1' });
    for (const { id, op, path } of ops) {
      const r = await api.call(op.method, path, { token: expired, body: SAMPLE_BODIES[id] });
      expect([id, r.status, r.headers.get('www-authenticate'), r.body.code]).toEqual([
        id,
        401,
        'Bearer',
        'unauthenticated',
      ]);
      expect(isProblem(r)).toBe(true);
    }
  });

  it('shows as expired in the session list of a fresh session', async () => {
    const api = client(rt.baseUrl);
    const fresh = await api.login(rt.admin.email, rt.admin.password);
    const list = await api.call('GET', '/auth/sessions', { token: fresh });
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { status: string }) => s.status).sort()).toEqual(['active', 'expired']);
  });
});
