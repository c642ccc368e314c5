import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FAILURE_LIMIT } from '#shared/domain/identity/sessions';
import { client } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** docs/api.md section 2's 429: failed logins per email are throttled, known emails or not. */

let rt: TestRuntime;
let api: ReturnType<typeof client>;
const password = 'a-member-password';

beforeAll(async () => {
  rt = await startRuntime();
  api = client(rt.baseUrl);
  const admin = await api.login(rt.admin.email, rt.admin.password);
  await api.call('POST', '/tenants', { token: admin, body: { id: 'throttle', name: 'Throttle' } });
  for (const email of ['locked@example.test', 'other@example.test', 'burst@example.test']) {
    const r = await api.call('POST', '/tenants/throttle/members', {
      token: admin,
      body: { email, display_name: 'Member', role: 'operator', password },
    });
    expect(r.status).toBe(201);
  }
});
afterAll(() => rt?.stop());

const attempt = (email: string, pw: string) =>
  api.call('POST', '/auth/sessions', { body: { email, password: pw } });

describe('login throttle', () => {
  it(`answers 429 with Retry-After after ${LOGIN_FAILURE_LIMIT} failures, even for the right password`, async () => {
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      expect((await attempt('locked@example.test', 'wrong-password')).status).toBe(401);
    }
    const locked = await attempt('locked@example.test', password);
    expect(locked.status).toBe(429);
    expect(locked.headers.get('content-type')).toBe('application/problem+json');
    expect(locked.body.code).toBe('rate_limited');
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('leaves other emails alone', async () => {
    expect((await attempt('other@example.test', password)).status).toBe(201);
  });

  it('counts unknown emails the same way, so the answer reveals nothing', async () => {
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const r = await attempt('nobody@example.test', 'whatever-password');
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('invalid_credentials');
    }
    expect((await attempt('nobody@example.test', 'whatever-password')).status).toBe(429);
  });

  it(`lets at most ${LOGIN_FAILURE_LIMIT} of 40 concurrent wrong passwords through as 401; the rest are 429`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => attempt('burst@example.test', 'wrong-password')),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(40 - LOGIN_FAILURE_LIMIT);
    expect((await attempt('burst@example.test', password)).status).toBe(429);
  });
});
