import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_DEADLINES } from '#functions/adapters/client-options';
import { dynamoEndpoint } from '#tests/support/db';
import { isProblem, PASSWORD } from '#tests/support/e2e';
import { client, type Reply } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy';

/**
 * A table that hangs (accepts connections, never answers: a paused process, not a dead one) costs
 * a caller seconds, not the function's timeout: every route that needs it answers 503
 * `unavailable` with Retry-After within the SDK deadlines (functions/adapters/client-options.ts),
 * `/health` too, and once the table answers again so does the service. The runtime reaches
 * DynamoDB Local through a proxy the test hangs and restores, with the production deadlines
 * (their values and the client options: tests/unit/client-options.test.ts).
 */

let proxy: TcpProxy;
let rt: TestRuntime;
let seeded: { adminToken: string; tenantId: string; operator: string };
let api: ReturnType<typeof client>;

beforeAll(async () => {
  proxy = await startTcpProxy(dynamoEndpoint());
  // The cloud's deadlines, not the suite's lenient ones (tests/support/runtime.ts).
  rt = await startRuntime(
    {
      OPS_SDK_CONNECTION_TIMEOUT_MS: String(SDK_DEADLINES.connectionTimeoutMs),
      OPS_SDK_REQUEST_TIMEOUT_MS: String(SDK_DEADLINES.requestTimeoutMs),
      OPS_SDK_MAX_ATTEMPTS: String(SDK_DEADLINES.maxAttempts),
      // Health's answer stands 2 s on the functions' clock: the test moves it rather than waiting.
      OPS_LOCAL_CLOCK: 'manual',
    },
    { endpoint: proxy.url },
  );
  seeded = await seedQuietly(rt);
  api = client(rt.baseUrl);
});
afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await rt?.stop();
  await proxy?.close();
});

/**
 * The tenant and the one member this file needs, one request at a time: with the cloud's 1.5 s
 * deadlines, DynamoDB Local on a machine running the whole suite may miss one, so a 503 is tried
 * again (a create that did land answers 409 then, which is as good).
 */
async function seedQuietly(runtime: TestRuntime) {
  const api = client(runtime.baseUrl);
  const retried = async (call: () => Promise<Reply>, ok: number[]) => {
    for (let i = 0; ; i++) {
      const r = await call();
      if (ok.includes(r.status)) return r;
      if (r.status !== 503 || i === 4) throw new Error(`seed: ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  const login = async (email: string, password: string) =>
    (await retried(() => api.call('POST', '/auth/sessions', { body: { email, password } }), [201])).body
      .access_token as string;
  const adminToken = await login(runtime.admin.email, runtime.admin.password);
  const tenantId = `t-${randomUUID().slice(0, 8)}`;
  await retried(
    () => api.call('POST', '/tenants', { token: adminToken, body: { id: tenantId, name: 'Hung' } }),
    [201, 409],
  );
  const email = `operator-${tenantId}@example.test`;
  await retried(
    () =>
      api.call('POST', `/tenants/${tenantId}/members`, {
        token: adminToken,
        body: { email, display_name: 'Operator', role: 'operator', password: PASSWORD },
      }),
    [201, 409],
  );
  return { adminToken, tenantId, operator: await login(email, PASSWORD) };
}

/** One call's bound: every attempt's deadline, plus the retry backoff (a few hundred ms at most). */
const CALL_MS = SDK_DEADLINES.maxAttempts * SDK_DEADLINES.requestTimeoutMs + 500;

const timed = async (call: () => Promise<Reply>) => {
  const started = performance.now();
  const reply = await call();
  return { reply, ms: performance.now() - started };
};

const expectUnavailable = ({ reply: r, ms }: { reply: Reply; ms: number }, what: string, calls: number) => {
  expect([what, r.status, r.body?.code]).toEqual([what, 503, 'unavailable']);
  expect(isProblem(r), what).toBe(true);
  expect(r.headers.get('retry-after'), what).toMatch(/^[1-9][0-9]*$/);
  expect(r.headers.get('cache-control'), what).toBe('no-store');
  // At least one attempt's deadline passed (the hang was met, not a refused connection) ...
  expect(ms, what).toBeGreaterThanOrEqual(SDK_DEADLINES.requestTimeoutMs - 50);
  // ... and no more than the hung calls' deadlines: seconds, never the 10 s function timeout.
  expect(ms, what).toBeLessThan(calls * CALL_MS);
  const { request_id: _, ...shown } = r.body as Record<string, unknown>;
  expect(JSON.stringify(shown), what).not.toMatch(/Timeout|timed out|127\.0\.0\.1|e2e-|dynamo/i);
};

/** Moves the runtime's manual clock (the local clock route): time passes for the functions, not the test. */
const moveClock = async (seconds: number) => {
  const moved = await api.call('POST', '/_local/clock', { body: { advance_seconds: seconds } });
  expect(moved.status).toBe(200);
};

describe('the table hangs, and comes back', () => {
  it('answers 503 unavailable within seconds while the table hangs, and 200 once it answers', async () => {
    const token = seeded.operator;
    const tenant = seeded.tenantId;
    await expect.poll(async () => (await api.call('GET', '/auth/me', { token })).status).toBe(200);
    await expect.poll(async () => (await api.call('GET', '/health')).status).toBe(200);

    // Health's last answer (200) stands 2 s on the functions' clock: past them, its next probe
    // meets the hang. (The clock route itself reads the table, so it moves before the hang.)
    await moveClock(3);
    proxy.hang();
    // Concurrently, as a busy service meets a hang: no request waits for another's deadline.
    const [me, list, create, health] = await Promise.all([
      timed(() => api.call('GET', '/auth/me', { token })),
      timed(() => api.call('GET', `/tenants/${tenant}/exceptions`, { token })),
      timed(() =>
        api.call('POST', `/tenants/${tenant}/exceptions`, {
          token: seeded.adminToken,
          body: {
            exception_type: 'x.y',
            subject_type: 'invoice',
            subject_id: 'I-1',
            title: 'T',
            summary: 'S',
          },
        }),
      ),
      timed(() => api.call('GET', '/health')),
    ]);
    // A bearer route checks the token twice when the first check fails (the authorizer, then the
    // route itself, as in the cloud): two hung calls.
    expectUnavailable(me, 'me', 2);
    expectUnavailable(list, 'list', 2);
    expectUnavailable(create, 'create', 2);
    expectUnavailable(health, 'health', 1);

    await proxy.restore();
    await expect
      .poll(async () => (await api.call('GET', '/auth/me', { token })).status, {
        timeout: 10_000,
        interval: 250,
      })
      .toBe(200);
    expect((await api.call('GET', `/tenants/${tenant}/exceptions`, { token })).status).toBe(200);
    // Health's 503 stands 2 s as its 200 did.
    await moveClock(3);
    await expect
      .poll(async () => (await api.call('GET', '/health')).status, { timeout: 5_000, interval: 250 })
      .toBe(200);
  }, 30_000);
});
