import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '#local/call-record';
import { ROLE_ACKNOWLEDGEMENTS, type RoleAcknowledgement } from '#infra/role-acknowledgements';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { QUEUES } from '#shared/kernel/names';
import { TOUCH_INTERVAL_MS } from '#shared/domain/identity/sessions';
import { activeBackground } from '#local/background';
import { LOCAL_CLOCK_PATH } from '#local/clock';
import { asFunction } from '#local/call-record';
import openapi from '../../generated/openapi.json';
import { SAMPLE_BODIES, type Seeded, seedTenant, until } from '#tests/support/e2e';
import {
  allowed,
  type AwsCall,
  callOf,
  grantCovers,
  grantsOf,
  requestsOf,
  rolesOf,
  wildcard,
  type Deployed,
  type IamRequest,
} from '#tests/support/roles';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { startSsmStandIn, type SsmStandIn } from '#tests/support/ssm-stand-in';
import { synthService } from '#tests/infra/synth';

/**
 * Roles from the calls (issue 37, CONTRACT.md section 19): the local runtime runs with every SDK
 * call recorded (local/call-record.ts, OPS_AWS_CALL_LOG) and attributed to its
 * deployed function, while a drive makes each function work: every operation of the manifest
 * with its sample body (creations first, then reads, as the platform admin and as a tenant
 * owner, changes and removals), the channels connected through the hub with their secrets in
 * SSM (a loopback stand-in, tests/support/ssm-stand-in.ts), one notification per channel (SES,
 * SNS, the secret read back), the relay, the workers and both sweepers. Each call is then
 * checked against its function's role in the synthesized templates (tests/support/roles.ts):
 * a call the role does not allow fails, and so does a grant no call uses, unless
 * infra/role-acknowledgements.ts says why.
 */
const dir = mkdtempSync(join(tmpdir(), 'roles-'));
const LOG = join(dir, 'calls.jsonl');
let rt: TestRuntime;
let ssm: SsmStandIn;
let a: Seeded;
const service = synthService();
const roles = rolesOf(service);
const saved = { log: process.env.OPS_AWS_CALL_LOG, ssm: process.env.AWS_ENDPOINT_URL_SSM };

beforeAll(async () => {
  ssm = await startSsmStandIn();
  process.env.OPS_AWS_CALL_LOG = LOG;
  process.env.AWS_ENDPOINT_URL_SSM = ssm.url;
  rt = await startRuntime({
    OPS_LOCAL_CLOCK: 'manual',
    OPS_LOCAL_QUEUE_MS_PER_SECOND: '10',
    OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000',
    OPS_CONNECTION_SECRETS: `ssm:/ops-platform/${service.config.stage}/connections/`,
  });
  a = await seedTenant(rt);
  await drive();
}, 120_000);

afterAll(async () => {
  await rt?.stop();
  await ssm?.close();
  process.env.OPS_AWS_CALL_LOG = saved.log;
  if (saved.log === undefined) delete process.env.OPS_AWS_CALL_LOG;
  process.env.AWS_ENDPOINT_URL_SSM = saved.ssm;
  if (saved.ssm === undefined) delete process.env.AWS_ENDPOINT_URL_SSM;
  rmSync(dir, { recursive: true, force: true });
});

async function drive() {
  const token = a.adminToken;
  const T = a.tenantId;
  const ids = new Map<string, string>();
  const ops = (Object.entries(OPERATIONS) as [string, Operation][]).filter(
    ([, op]) => !op.path.startsWith('/demo/'),
  );
  const fill = (op: Operation) =>
    op.path.replace(/\{([a-z_]+)\}/g, (_m, name: string, at: number) =>
      name === 'tenant_id' ? T : (ids.get(op.path.slice(0, at - 1)) ?? `absent-${name}`),
    );
  // Plain fetch: the drive only makes the functions work; what they answer is other tests' concern.
  const call = async (id: string, op: Operation, as = token, query = '') => {
    const res = await fetch(`${rt.baseUrl}${fill(op)}${query}`, {
      method: op.method,
      headers: {
        ...(op.auth === 'public' ? {} : { authorization: `Bearer ${as}` }),
        ...(SAMPLE_BODIES[id] === undefined ? {} : { 'content-type': 'application/json' }),
        // The key's claim and kept answer are the route group's own writes.
        ...(op.idempotent ? { 'idempotency-key': randomUUID() } : {}),
      },
      body: SAMPLE_BODIES[id] === undefined ? undefined : JSON.stringify(SAMPLE_BODIES[id]),
    });
    const text = await res.text();
    const r = { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : undefined };
    if (op.method === 'POST' && r.status === 201 && typeof r.body?.id === 'string')
      ids.set(op.path, r.body.id);
    return r;
  };
  // The channels through the hub (their secrets to SSM), and one notification on each (SES, SNS,
  // the secret read back by the worker).
  const post = (path: string, body: unknown) =>
    fetch(`${rt.baseUrl}/tenants/${T}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  await post('/integration-connections', {
    adapter_key: 'telegram',
    name: 'Bot',
    secret: { bot_token: `123456:${'c'.repeat(35)}` },
  });
  await post('/integration-connections', {
    adapter_key: 'email',
    name: 'Mail',
    config: { from_address: 'ops@sandbox.invalid' },
  });
  await post('/integration-connections', { adapter_key: 'sms', name: 'Texts', config: { sender_id: 'OPS' } });
  for (const [channel, recipient] of [
    ['email', 'someone@example.test'],
    ['sms', '+4915112345678'],
    ['telegram', '12345'],
    ['in_app', a.members.owner.user_id],
  ])
    await post('/notifications', { channel, recipient, subject: 'Hi', body: 'Invoice 42 needs a look' });
  const params = (op: Operation) => (op.path.match(/\{/g) ?? []).length;
  // Creations first, then reads, changes and removals of what they created.
  for (const [id, op] of ops) if (op.method === 'POST' && params(op) <= 1) await call(id, op);
  // Reads as a member of the tenant too: some answer a member otherwise than a platform admin
  // (GET /tenants lists a member's own tenants, read in one BatchGetItem).
  for (const [id, op] of ops) if (op.method === 'GET') await call(id, op, a.members.owner.token);
  // A list's filters choose its index (a status filter reads gsi1, an assignee gsi2...): each
  // filter alone and each two together, with a value its schema accepts.
  for (const [id, op] of ops)
    if (op.method === 'GET')
      for (const query of filterQueries(op)) await call(id, op, a.members.owner.token, query);
  const order = ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'];
  for (const method of order)
    for (const [id, op] of ops)
      if (op.method === method && !(method === 'POST' && params(op) <= 1)) await call(id, op);
  await pathsTheSamplesMiss(post, ids);
  await reviewDecision(post);
  const books = await accountingThroughOAuth(post);
  await tokenCheckInEachGroup(ops, fill);
  // Last: a member leaves (the tenant group's Delete of the membership); the owner stays.
  await fetch(`${rt.baseUrl}/tenants/${T}/members/${a.members.support.user_id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  const bg = activeBackground()!;
  await bg.sweep();
  await bg.sweepTimers();
  await drained();
  // Removed once the clock has moved past its schedule (the internal worker's run reads its secret).
  await fetch(`${rt.baseUrl}/tenants/${T}/integration-connections/${books}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
}

type ParameterSchema = { type?: string; enum?: string[]; format?: string; $ref?: string };
type DocumentedParameter = { name: string; in: string; schema: ParameterSchema };
const documented = openapi as unknown as {
  paths: Record<string, Record<string, { parameters?: DocumentedParameter[] }>>;
  components: { schemas: Record<string, ParameterSchema> };
};

/** A value the parameter's documented schema accepts: an enum's first, else a plain word. */
function sampleOf(schema: ParameterSchema): string {
  const s = schema.$ref ? documented.components.schemas[schema.$ref.split('/').pop()!]! : schema;
  if (s.enum) return s.enum[0]!;
  if (s.type === 'boolean') return 'true';
  if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
  return 'sample';
}

/** The query strings of a GET's filters: each alone and each pair (paging parameters aside). */
function filterQueries(op: Operation): string[] {
  const filters = (documented.paths[op.path]?.get?.parameters ?? []).filter(
    (p) => p.in === 'query' && !['cursor', 'limit'].includes(p.name),
  );
  const q = (ps: DocumentedParameter[]) =>
    `?${new URLSearchParams(ps.map((p): [string, string] => [p.name, sampleOf(p.schema)])).toString()}`;
  return [
    ...filters.map((p) => q([p])),
    ...filters.flatMap((p, i) => filters.slice(i + 1).map((other) => q([p, other]))),
  ];
}

/**
 * Each bearer route group's own token check, which runs when the authorizer could not read the
 * table (functions/http/principal.ts, `auth: 'unavailable'`): one of the group's operations (a GET
 * where it has one), handed to its handler as API Gateway hands it over then. Locally the
 * authorizer's read never fails. The clock moves past the touch interval before each, so that
 * each group's check refreshes the session's `last_used_at` itself (and due timers fire).
 */
async function tokenCheckInEachGroup(ops: [string, Operation][], fill: (op: Operation) => string) {
  const chosen = new Map<string, [string, Operation]>();
  for (const [id, op] of ops)
    if (
      op.auth === 'bearer' &&
      (!chosen.has(op.group) || (op.method === 'GET' && chosen.get(op.group)![1].method !== 'GET'))
    )
      chosen.set(op.group, [id, op]);
  for (const [group, [id, op]] of chosen) {
    await moveClock(TOUCH_INTERVAL_MS / 1000 + 1);
    const { handler } = (await import(/* @vite-ignore */ `../../functions/${group}/handler.ts`)) as {
      handler: (event: unknown, context: unknown) => Promise<unknown>;
    };
    const path = fill(op);
    const body = SAMPLE_BODIES[id];
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: path,
      rawQueryString: '',
      headers: {
        authorization: `Bearer ${a.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      requestContext: {
        http: { method: op.method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'roles' },
        requestId: randomUUID(),
        routeKey: '$default',
        stage: '$default',
        timeEpoch: Date.now(),
        authorizer: { lambda: { principal: '', auth: 'unavailable' } },
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      isBase64Encoded: false,
    };
    await asFunction(`api-${group}`, () =>
      handler(event, { functionName: `ops-platform-${group}`, awsRequestId: randomUUID() }),
    );
  }
}

/**
 * Writes whose conditions the sample bodies never set: a task's assignee must be a member and its
 * due date arms a timer (which the moving clock later fires: the timer sweeper's claim, the
 * internal worker's overdue task); a credit note must apply to a live invoice; a second
 * notification of one digest joins the digest the first opened, and a second with one dedupe key
 * meets the first's claim; a critical exception under an escalation policy is resolved; a member
 * keeps their preferences.
 */
async function pathsTheSamplesMiss(
  post: (path: string, body: unknown) => Promise<Response>,
  ids: Map<string, string>,
) {
  const owner = a.members.owner.user_id;
  const soon = new Date(Date.now() + 10 * 60_000).toISOString();
  await post('/tasks', { title: 'Call the bank', assignee_id: owner, due_at: soon });
  const invoice = ids.get('/tenants/{tenant_id}/documents');
  await post('/documents', {
    ...(SAMPLE_BODIES['documents.create'] as object),
    document_type: 'credit_note',
    number: 'CN-SAMPLE',
    applies_to: invoice,
  });
  // A critical exception falls under a policy (its escalation timer armed); resolving it cancels
  // the timers in the change's transaction.
  await post('/escalation-policies', SAMPLE_BODIES['escalationPolicies.create']);
  const opened = await post('/exceptions', {
    ...(SAMPLE_BODIES['exceptions.create'] as object),
    severity: 'critical',
  });
  const exception = ((await opened.json()) as { id: string }).id;
  await post(`/exceptions/${exception}/status`, { status: 'resolved' });
  // A member's own preferences (the sample set has no body for them).
  await fetch(`${rt.baseUrl}/tenants/${a.tenantId}/me/preferences`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${a.members.owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ quiet_hours: { start: '22:00', end: '07:00' } }),
  });
  for (const body of ['first', 'second']) {
    await post('/notifications', {
      channel: 'in_app',
      recipient_user_id: owner,
      body,
      digest: { key: 'daily', window_minutes: 5 },
    });
    await post('/notifications', {
      channel: 'in_app',
      recipient_user_id: owner,
      body,
      dedupe_key: 'once',
      dedupe_window_minutes: 5,
    });
  }
}

/**
 * A text the provider refuses for good (400): the external worker fails it (its dedupe claim
 * released) and opens a review item, which a retry decision sends again (the review group's
 * decision re-drafts the notification).
 */
async function reviewDecision(post: (path: string, body: unknown) => Promise<Response>) {
  const bg = activeBackground()!;
  bg.sandbox.script('sms', [400]);
  const sent = await post('/notifications', {
    channel: 'sms',
    recipient: '+4915112345678',
    subject: 'Hi',
    body: 'Refused once',
  });
  const notification = ((await sent.json()) as { id: string }).id;
  const item = await until(async () => {
    const res = await fetch(`${rt.baseUrl}/tenants/${a.tenantId}/review-items?status=open`, {
      headers: { authorization: `Bearer ${a.adminToken}` },
    });
    const { items } = (await res.json()) as { items: { id: string; notification_id?: string }[] };
    return items.find((i) => i.notification_id === notification)?.id;
  }, `a review item for notification ${notification}`);
  await post(`/review-items/${item}/decision`, { action: 'retry' });
}

/**
 * An accounting connection through the sandbox's OAuth consent: the callback takes the state,
 * exchanges the code and keeps the token pair in SSM; then an export over it (the external
 * worker). The drive removes it last (the hub deletes it and its secret).
 */
async function accountingThroughOAuth(
  post: (path: string, body: unknown) => Promise<Response>,
): Promise<string> {
  const created = await post('/integration-connections', {
    adapter_key: 'xero',
    name: 'Xero books',
    config: { sales_account_code: '200' },
  });
  const { id } = (await created.json()) as { id: string };
  const authorized = await post(`/integration-connections/${id}/authorize`, {});
  const { authorize_url } = (await authorized.json()) as { authorize_url: string };
  const consent = new URL(authorize_url);
  consent.searchParams.set('prompt', 'auto');
  const callback = (await fetch(consent, { redirect: 'manual' })).headers.get('location')!;
  expect((await fetch(callback, { redirect: 'manual' })).status).toBeLessThan(400);
  await post('/accounting-exports', {
    export_batch_id: 'roles',
    integration_connection_id: id,
    documents: [{ number: 'INV-ROLES', amount: '120.00', currency: 'EUR', counterparty: 'Acme' }],
  });
  return id;
}

/** Until the internal and external queues hold nothing. */
async function drained() {
  const bg = activeBackground()!;
  const waiting = () =>
    [QUEUES.internal, QUEUES.external].reduce((n, q) => n + bg.queues.queues.get(q)!.size, 0);
  await until(
    async () => (waiting() === 0 ? true : undefined),
    () => `the queues to drain (${waiting()} waiting)`,
  );
}

/** Moves the runtime's manual clock; due timers fire (the timer sweeper's claim). */
async function moveClock(seconds: number) {
  const res = await fetch(`${rt.baseUrl}${LOCAL_CLOCK_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  expect(res.status).toBe(200);
}

const calls = (): AwsCall[] =>
  readFileSync(LOG, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => callOf(JSON.parse(l) as RecordedCall));

const deployed: Deployed = { table: service.config.prefix, queuePrefix: `${service.config.prefix}-` };
const acknowledges = (ack: RoleAcknowledgement, fn: string, g: { action: string; resource: string }) =>
  (ack.functions === '*' || ack.functions.includes(fn)) &&
  wildcard(ack.action, g.action, true) &&
  wildcard(ack.resource, g.resource);

describe('each function is allowed the AWS calls it makes, and holds no grant it never uses', () => {
  let byFn: Map<string, IamRequest[]>;
  beforeAll(() => {
    byFn = new Map([...roles.keys()].map((fn) => [fn, []]));
    for (const c of calls()) {
      // Calls outside any handler are the local runtime's own (the bootstrap admin, the app secrets).
      if (c.fn === null) continue;
      const requests = byFn.get(c.fn);
      if (!requests) throw new Error(`a call of ${c.fn}, which is no deployed function`);
      requests.push(...requestsOf(c, deployed));
    }
  });

  it('records calls of every deployed function but the ones the drive cannot reach', () => {
    const silent = [...byFn].filter(([, r]) => r.length === 0).map(([fn]) => fn);
    expect(silent).toEqual([]);
    const distinct = new Set(
      [...byFn].flatMap(([fn, rs]) => rs.map((r) => `${fn} ${r.action} ${r.resource}`)),
    );
    console.info(
      `[roles from the calls] ${calls().length} calls recorded, ${distinct.size} distinct (function, action, resource) across ${byFn.size} functions`,
    );
    expect(byFn.size).toBe(roles.size);
  });

  it("allows every recorded call by the calling function's own role", () => {
    const denied = [...byFn].flatMap(([fn, requests]) =>
      requests
        .filter((r) => !allowed(roles.get(fn)!, r))
        .map(
          (r) =>
            `${fn}: ${r.action} on ${r.resource}${r.partitions.length ? ` (${r.partitions.join(', ')})` : ''}`,
        ),
    );
    expect([...new Set(denied)]).toEqual([]);
  });

  it('holds no allowed action that no call uses, unless infra/role-acknowledgements.ts says why', () => {
    const unused = [...roles].flatMap(([fn, statements]) =>
      grantsOf(statements)
        .filter((g) => !byFn.get(fn)!.some((r) => grantCovers(g, r)))
        .filter((g) => !ROLE_ACKNOWLEDGEMENTS.some((ack) => acknowledges(ack, fn, g)))
        .map((g) => `${fn}: ${g.action} on ${g.resource}`),
    );
    expect([...new Set(unused)]).toEqual([]);
  });

  it('keeps no acknowledgement that matches no grant left unused by the calls', () => {
    // An acknowledged grant that a call now uses needs no reason any more: the reason is stale.
    const unusedGrants = [...roles].flatMap(([fn, statements]) =>
      grantsOf(statements)
        .filter((g) => !byFn.get(fn)!.some((r) => grantCovers(g, r)))
        .map((g) => ({ fn, g })),
    );
    const stale = ROLE_ACKNOWLEDGEMENTS.filter(
      (ack) => !unusedGrants.some(({ fn, g }) => acknowledges(ack, fn, g)),
    ).map(
      (ack) => `${ack.functions === '*' ? '*' : ack.functions.join(',')}: ${ack.action} on ${ack.resource}`,
    );
    expect(stale).toEqual([]);
  });
});
