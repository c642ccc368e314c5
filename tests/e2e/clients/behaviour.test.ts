import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createOpsClient,
  exceptionsChangeStatus,
  exceptionsCreate,
  exceptionsList,
  login,
  paginate,
  type RetryOptions,
} from '../../../clients/typescript/index';
import { LOGIN_FAILURE_LIMIT, LOGIN_WINDOW_SECONDS } from '#shared/domain/identity/sessions';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '#shared/kernel/errors';
import { dynamoEndpoint } from '#tests/support/db';
import { client } from '#tests/support/http';
import { assertDocumented } from '#tests/support/openapi-check';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy';

/**
 * docs/api.md section 12, "Clients": the TypeScript and Python clients against the local runtime
 * (one start for the file). The 429 is the runtime's own failed-login throttle, waited out by
 * moving the manual clock; the 503 is the runtime's own answer while the table is unreachable
 * (its DynamoDB Local behind a proxy the test cuts), waited out by restoring the proxy. The
 * clients' `sleep` does either, so nothing here sleeps. The JavaScript client is the TypeScript
 * one compiled, and runs in tests/e2e/clients/smoke.test.ts.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const PASSWORD = 'a-member-password';
const TENANT = 'client-behaviour';

let proxy: TcpProxy;
let rt: TestRuntime;
let adminToken: string;
let control: Server;
let controlUrl: string;

const api = () => client(rt.baseUrl);
const moveClock = async (seconds: number) => {
  const r = await api().call('POST', '/_local/clock', { body: { advance_seconds: Math.ceil(seconds) } });
  expect(r.status).toBe(200);
};
/**
 * LOGIN_FAILURE_LIMIT wrong passwords: the next login of `email` is 429 until the window ends.
 * The login window is fixed (aligned to the epoch), so the clock first moves to the start of the
 * next one: the Retry-After is then the whole window, whatever the wall clock said at start.
 */
const lockOut = async (email: string) => {
  const at = await api().call('POST', '/_local/clock', { body: { advance_seconds: 1 } });
  const now = Date.parse((at.body as { now: string }).now) / 1000;
  const next = (Math.floor(now / LOGIN_WINDOW_SECONDS) + 1) * LOGIN_WINDOW_SECONDS;
  const moved = await api().call('POST', '/_local/clock', { body: { now: new Date(next * 1000).toISOString() } });
  expect(moved.status).toBe(200);
  for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
    const r = await api().call('POST', '/auth/sessions', { body: { email, password: 'a-wrong-password' } });
    expect(r.status).toBe(401);
  }
};

beforeAll(async () => {
  proxy = await startTcpProxy(dynamoEndpoint());
  rt = await startRuntime({ OPS_LOCAL_CLOCK: 'manual' }, { endpoint: proxy.url });
  adminToken = await api().login(rt.admin.email, rt.admin.password);
  expect(
    (await api().call('POST', '/tenants', { token: adminToken, body: { id: TENANT, name: 'Clients' } })).status,
  ).toBe(201);
  for (const email of ['ts-locked@example.test', 'py-locked@example.test']) {
    const r = await api().call('POST', `/tenants/${TENANT}/members`, {
      token: adminToken,
      body: { email, display_name: 'Locked', role: 'operator', password: PASSWORD },
    });
    expect(r.status).toBe(201);
  }
  // The Python script cuts and restores the table through here.
  control = createServer((req, res) => {
    const done = () => res.writeHead(204).end();
    if (req.url === '/cut') void proxy.cut().then(done);
    else if (req.url === '/restore') void proxy.restore().then(done);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  control?.close();
  await rt?.stop();
  await proxy?.close();
});

interface Sent {
  method: string;
  path: string;
  key: string | null;
  status: number;
}

/** The TypeScript client, every request it sends recorded and every answer checked against the document. */
function recordingClient(retry: RetryOptions = {}) {
  const sent: Sent[] = [];
  const sleeps: number[] = [];
  const ops = createOpsClient({
    baseUrl: rt.baseUrl,
    token: adminToken,
    retry: {
      ...retry,
      sleep: async (seconds) => {
        sleeps.push(seconds);
        await retry.sleep?.(seconds);
      },
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const response = await fetch(request);
      const { pathname } = new URL(request.url);
      const text = await response.clone().text();
      assertDocumented(request.method, pathname, {
        status: response.status,
        headers: response.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      sent.push({
        method: request.method,
        path: pathname,
        key: request.headers.get('idempotency-key'),
        status: response.status,
      });
      return response;
    },
  });
  return { ops, sent, sleeps };
}

const EXCEPTION = {
  exception_type: 'payment.amount_mismatch',
  subject_type: 'supplier_invoice',
  subject_id: 'INV-1',
  title: 'Payment below invoice',
  summary: 'Paid less than invoiced.',
};

describe('TypeScript client', () => {
  it('a 429 whose Retry-After is past the bound is thrown at once; within it, waited out and retried, at most 3 tries', async () => {
    await lockOut('ts-locked@example.test');
    const impatient = recordingClient();
    const error = await login(impatient.ops, 'ts-locked@example.test', PASSWORD).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect(impatient.sent.map((s) => s.status)).toEqual([429]);
    expect(impatient.sleeps).toEqual([]);

    // Waiting without the window passing: 3 tries in all, then the 429 is thrown.
    const stuck = recordingClient({ maxRetryAfterSeconds: 900 });
    const again = await login(stuck.ops, 'ts-locked@example.test', PASSWORD).catch((e: unknown) => e);
    expect((again as ApiError).status).toBe(429);
    expect(stuck.sent.map((s) => s.status)).toEqual([429, 429, 429]);
    expect(stuck.sleeps).toHaveLength(2);

    const patient = recordingClient({ maxRetryAfterSeconds: 900, sleep: moveClock });
    const session = await login(patient.ops, 'ts-locked@example.test', PASSWORD);
    expect(session.token_type).toBe('bearer');
    expect(patient.sent.map((s) => s.status)).toEqual([429, 201]);
    expect(patient.sleeps).toHaveLength(1);
    expect(patient.sleeps[0]).toBeGreaterThan(60);
    expect(patient.sleeps[0]).toBeLessThanOrEqual(900);
  });

  it('a creating POST answered 503 is retried after Retry-After with the Idempotency-Key it generated', async () => {
    const { ops, sent, sleeps } = recordingClient({ sleep: () => proxy.restore() });
    await proxy.cut();
    const { data: created } = await exceptionsCreate({
      client: ops,
      path: { tenant_id: TENANT },
      body: EXCEPTION,
    });
    expect(sent.map((s) => s.status)).toEqual([503, 201]);
    expect(sleeps).toEqual([UNAVAILABLE_RETRY_AFTER_SECONDS]);
    const [first, second] = sent;
    expect(first!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(second!.key).toBe(first!.key);
    // The key is one the service honours: the same key and body replay the first answer.
    const replay = await api().call('POST', `/tenants/${TENANT}/exceptions`, {
      token: adminToken,
      body: EXCEPTION,
      headers: { 'idempotency-key': first!.key! },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(created.id);
  });

  it('a key the caller gives is the one sent; a GET carries none', async () => {
    const { ops, sent } = recordingClient();
    await exceptionsCreate({
      client: ops,
      path: { tenant_id: TENANT },
      body: EXCEPTION,
      headers: { 'Idempotency-Key': 'caller-key-1' },
    });
    await exceptionsList({ client: ops, path: { tenant_id: TENANT } });
    expect(sent.map((s) => s.key)).toEqual(['caller-key-1', null]);
  });

  it('a 503 on a POST that carries no key is not retried: repeating it may not be safe', async () => {
    const { ops, sent, sleeps } = recordingClient({ sleep: () => proxy.restore() });
    const { data: created } = await exceptionsCreate({ client: ops, path: { tenant_id: TENANT }, body: EXCEPTION });
    await proxy.cut();
    try {
      const error = await exceptionsChangeStatus({
        client: ops,
        path: { tenant_id: TENANT, exception_id: created.id },
        body: { status: 'acknowledged' },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(503);
    } finally {
      await proxy.restore();
    }
    expect(sent.map((s) => s.status)).toEqual([201, 503]);
    expect(sleeps).toEqual([]);
  });

  it('paginate() yields every item, page after page, following next_cursor', async () => {
    const tenant = { tenant_id: TENANT };
    const { ops, sent } = recordingClient();
    const all = (await exceptionsList({ client: ops, path: tenant, query: { limit: 100 } })).data.items;
    expect(all.length).toBeGreaterThanOrEqual(3);
    sent.length = 0;
    const seen: string[] = [];
    const pages = (cursor?: string) =>
      exceptionsList({ client: ops, path: tenant, query: { limit: 2, ...(cursor ? { cursor } : {}) } });
    for await (const item of paginate(pages)) seen.push(item.id);
    expect(seen).toEqual(all.map((e) => e.id));
    expect(sent.length).toBeGreaterThanOrEqual(Math.ceil(all.length / 2));
  });
});

describe('Python client', () => {
  it('retries, sends Idempotency-Key and pages the same way', async () => {
    await lockOut('py-locked@example.test');
    const { stdout } = await run('python3', ['-S', `${root}tests/e2e/clients/behaviour_python.py`], {
      env: {
        ...process.env,
        PYTHONPATH: `${root}clients/python`,
        PYTHONDONTWRITEBYTECODE: '1',
        OPS_BASE_URL: rt.baseUrl,
        OPS_TOKEN: adminToken,
        OPS_TENANT: TENANT,
        OPS_LOCKED_EMAIL: 'py-locked@example.test',
        OPS_PASSWORD: PASSWORD,
        OPS_CONTROL_URL: controlUrl,
      },
    });
    const seen = JSON.parse(stdout) as Record<string, unknown>;
    const listed = (await api().call('GET', `/tenants/${TENANT}/exceptions?limit=100`, { token: adminToken }))
      .body.items as { id: string }[];
    expect(seen).toEqual({
      impatient: { status: 429, sleeps: [], statuses: [429] },
      patient: {
        token_type: 'bearer',
        sleeps: [expect.any(Number)],
        statuses: [429, 201],
      },
      created: {
        statuses: [503, 201],
        sleeps: [UNAVAILABLE_RETRY_AFTER_SECONDS],
        keys_equal: true,
        key_is_uuid: true,
        replayed: true,
      },
      given_key: ['py-caller-key', null],
      unsafe: { status: 503, statuses: [503], sleeps: [] },
      paged: { ids: listed.map((e) => e.id), requests: expect.any(Number) },
    });
    expect((seen.paged as { requests: number }).requests).toBeGreaterThanOrEqual(Math.ceil(listed.length / 2));
    const patientSleep = (seen.patient as { sleeps: number[] }).sleeps[0]!;
    expect(patientSleep).toBeGreaterThan(60);
    expect(patientSleep).toBeLessThanOrEqual(900);
  });
});
