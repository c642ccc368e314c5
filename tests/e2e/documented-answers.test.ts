import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { PERMISSIONS, ROLES, type Role } from '#shared/kernel/policy';
import { documentedPairs } from '#tests/support/openapi-check';
import { dynamoEndpoint } from '#tests/support/db';
import { isProblem, SAMPLE_BODIES, type Seeded, seedTenant, tenantScoped } from '#tests/support/e2e';
import { type Reply } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy';

/**
 * Every error answer a caller can cause, caused once on every operation that documents it, in
 * the order docs/api.md section 2 checks a request: 401 without a token, 404 for a tenant the
 * caller is not a member of, 403 for a role without the permission, 413, 415, 400 and 422 for a
 * bad body, 400 for a forged cursor, 304 for a current ETag, 503 with the table unreachable. The
 * list is generated from the operations manifest, so a new route is swept without touching this
 * file, and the test client checks every answer against the OpenAPI document (its status is
 * documented for the operation, its body matches that status's schema). Not caused here: 409
 * (each has its own test), 429 (API Gateway's throttle; the login throttle has its own test) and
 * 500 (never on purpose).
 */
let proxy: TcpProxy;
let rt: TestRuntime;
let a: Seeded;
let b: Seeded;
beforeAll(async () => {
  proxy = await startTcpProxy(dynamoEndpoint());
  rt = await startRuntime({}, { endpoint: proxy.url });
  [a, b] = await Promise.all([seedTenant(rt), seedTenant(rt)]);
}, 120_000);
afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await rt?.stop();
  await proxy?.close();
});

const documented = new Map<string, Set<number>>();
for (const { operation, status } of documentedPairs())
  documented.set(operation, (documented.get(operation) ?? new Set()).add(status));
const docs = (id: string, status: number) => documented.get(id)?.has(status) ?? false;

const ops = (Object.entries(OPERATIONS) as [string, Operation][]).filter(
  ([, op]) => !op.path.startsWith('/demo/'),
);
const path = (op: Operation) =>
  op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string) =>
    name === 'tenant_id' ? a.tenantId : `absent-${name}`,
  );
const allowedRoles = (op: Operation): readonly Role[] =>
  op.permission ? (PERMISSIONS[op.permission] as readonly Role[]) : ROLES;
/** A token of tenant A that passes the operation's role check: its least role allowed, else the admin. */
const allowedToken = (op: Operation) => {
  if (op.auth === 'public') return undefined;
  const role = tenantScoped(op) ? allowedRoles(op)[0] : undefined;
  return role ? a.members[role].token : a.adminToken;
};

async function send(
  op: Operation,
  options: {
    token?: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    query?: string;
  } = {},
): Promise<Reply> {
  const { query = '', ...rest } = options;
  // A GET carries no body; the body-less checks send `{}` so that only the check under test fails.
  if (op.method === 'GET') delete rest.body;
  return a.api.call(op.method, `${path(op)}${query}`, rest);
}

/** What each answer was: [operation, status, problem code, or `html` for the browser's page]. */
const shape = (id: string, r: Reply) => [
  id,
  r.status,
  isProblem(r) ? r.body.code : r.headers.get('content-type')?.startsWith('text/html') ? 'html' : 'body',
];
const auditIds = async () => {
  const r = await a.api.call('GET', `/tenants/${a.tenantId}/audit-events?limit=100`, { token: a.adminToken });
  expect(r.status).toBe(200);
  return (r.body.items as { id: string }[]).map((e) => e.id);
};

describe('every documented answer a caller can cause', () => {
  it('401 unauthenticated without a token', async () => {
    const seen: unknown[] = [];
    for (const [id, op] of ops.filter(([id, op]) => op.auth === 'bearer' && docs(id, 401)))
      seen.push(shape(id, await send(op)));
    expect(seen).toEqual(seen.map((s) => [(s as string[])[0], 401, 'unauthenticated']));
    expect(seen.length).toBeGreaterThan(50);
  });

  it('404 not_found for a tenant the caller is not a member of, whatever its role there', async () => {
    const seen: unknown[] = [];
    for (const [id, op] of ops.filter(([id, op]) => tenantScoped(op) && docs(id, 404)))
      seen.push(shape(id, await send(op, { token: b.members.owner.token, body: {} })));
    expect(seen).toEqual(seen.map((s) => [(s as string[])[0], 404, 'not_found']));
    expect(seen.length).toBeGreaterThan(50);
  });

  it('403 forbidden for a role without the permission, and for a tenant member on platform routes', async () => {
    const seen: unknown[] = [];
    for (const [id, op] of ops.filter(([id]) => docs(id, 403))) {
      const denied = ROLES.find((role) => !allowedRoles(op).includes(role));
      if (!denied) continue;
      seen.push(shape(id, await send(op, { token: a.members[denied].token, body: {} })));
    }
    expect(seen).toEqual(seen.map((s) => [(s as string[])[0], 403, 'forbidden']));
    expect(seen.length).toBeGreaterThan(30);
  });

  it('413, 415, 400 and 422 for a body too large, not JSON, malformed, or of no schema; nothing stored', async () => {
    const seen: unknown[] = [];
    const expected: unknown[] = [];
    const bodied = ops.filter(([, op]) => op.body !== undefined);
    const before = await auditIds();
    for (const [id, op] of bodied) {
      const token = allowedToken(op);
      const json = { 'content-type': 'application/json' };
      const cases: [number, string, () => Promise<Reply>][] = [
        [413, 'payload_too_large', () => send(op, { token, raw: 'x'.repeat(262_145), headers: json })],
        [
          415,
          'unsupported_media_type',
          () => send(op, { token, raw: '{}', headers: { 'content-type': 'text/plain' } }),
        ],
        [400, 'malformed_json', () => send(op, { token, raw: '{"a":', headers: json })],
        [422, 'validation_failed', () => send(op, { token, raw: '{"__proto__":{}}', headers: json })],
      ];
      for (const [status, code, call] of cases)
        if (docs(id, status)) {
          seen.push(shape(id, await call()));
          expected.push([id, status, code]);
        }
    }
    expect(seen).toEqual(expected);
    expect(bodied.length).toBeGreaterThan(20);
    expect(await auditIds()).toEqual(before);
  });

  it('400 invalid_cursor for a cursor the service did not issue, on every list', async () => {
    const seen: unknown[] = [];
    // A list under a record (a webhook endpoint's messages) answers 404 for an absent parent first.
    const lists = ops.filter(
      ([id, op]) =>
        op.method === 'GET' && docs(id, 400) && op.auth === 'bearer' && !/\{(?!tenant_id\})/.test(op.path),
    );
    for (const [id, op] of lists)
      seen.push(shape(id, await send(op, { token: allowedToken(op), query: '?cursor=not-a-cursor' })));
    expect(seen).toEqual(seen.map((s) => [(s as string[])[0], 400, 'invalid_cursor']));
    expect(seen.length).toBeGreaterThan(10);
  });

  it('304 for a demo read whose ETag the caller holds', async () => {
    const demo = (Object.entries(OPERATIONS) as [string, Operation][]).filter(([id]) => docs(id, 304));
    for (const [id, op] of demo) {
      const first = await a.api.call('GET', op.path);
      const etag = first.headers.get('etag');
      expect([id, first.status, typeof etag]).toEqual([id, 200, 'string']);
      const again = await a.api.call('GET', op.path, { headers: { 'if-none-match': etag! } });
      expect([id, again.status, again.body]).toEqual([id, 304, undefined]);
    }
    expect(demo.length).toBeGreaterThan(0);
  });

  // Last: it cuts the table for good.
  it('503 unavailable with Retry-After when the table cannot be reached', async () => {
    await proxy.cut();
    const seen: unknown[] = [];
    const expected: unknown[] = [];
    for (const [id, op] of ops.filter(([id]) => docs(id, 503) && id !== 'public.health')) {
      const r = await send(op, {
        token: op.auth === 'bearer' ? allowedToken(op) : undefined,
        body: op.body ? (SAMPLE_BODIES[id] ?? {}) : undefined,
        query: op.html ? '?state=s&code=c' : '',
      });
      seen.push([...shape(id, r), r.headers.get('retry-after') !== null]);
      expected.push([id, 503, op.html ? 'html' : 'unavailable', true]);
    }
    expect(seen).toEqual(expected);
    expect(seen.length).toBeGreaterThan(50);
    // Health's answer stands 2 s (docs/api.md): it turns within that.
    await expect.poll(async () => (await a.api.call('GET', '/health')).status, { timeout: 5_000 }).toBe(503);
  });
});
