import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startRuntime();
});
afterAll(() => rt?.stop());

describe('local runtime', () => {
  it('answers health and echoes a sane x-request-id', async () => {
    const r = await client(rt.baseUrl).call('GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
  });

  it('replaces an insane x-request-id with a generated one', async () => {
    const r = await client(rt.baseUrl).call('GET', '/health', {
      headers: { 'x-request-id': 'x'.repeat(129) },
    });
    expect(r.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the demo site at / with an x-request-id, like every other answer', async () => {
    const r = await client(rt.baseUrl).call('GET', '/', { headers: { 'x-request-id': 'static-1' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('x-request-id')).toBe('static-1');
  });

  it('logs the bootstrapped admin in', async () => {
    const token = await client(rt.baseUrl).login(rt.admin.email, rt.admin.password);
    const me = await client(rt.baseUrl).call('GET', '/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.platform_roles).toEqual(['platform_admin']);
  });
});
