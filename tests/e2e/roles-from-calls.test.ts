import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedCall } from '#functions/adapters/call-record';
import { ROLE_ACKNOWLEDGEMENTS, type RoleAcknowledgement } from '#infra/role-acknowledgements';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { QUEUES } from '#shared/kernel/names';
import { activeBackground } from '#local/background';
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
 * call recorded (functions/adapters/call-record.ts, OPS_AWS_CALL_LOG) and attributed to its
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
  const call = async (id: string, op: Operation, as = token) => {
    const res = await fetch(`${rt.baseUrl}${fill(op)}`, {
      method: op.method,
      headers: {
        ...(op.auth === 'public' ? {} : { authorization: `Bearer ${as}` }),
        ...(SAMPLE_BODIES[id] === undefined ? {} : { 'content-type': 'application/json' }),
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
  const order = ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'];
  for (const method of order)
    for (const [id, op] of ops)
      if (op.method === method && !(method === 'POST' && params(op) <= 1)) await call(id, op);
  const bg = activeBackground()!;
  await bg.sweep();
  await bg.sweepTimers();
  const waiting = () =>
    [QUEUES.internal, QUEUES.external].reduce((n, q) => n + bg.queues.queues.get(q)!.size, 0);
  await until(
    async () => (waiting() === 0 ? true : undefined),
    () => `the queues to drain (${waiting()} waiting)`,
  );
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

  it('keeps no acknowledgement that matches no grant', () => {
    const stale = ROLE_ACKNOWLEDGEMENTS.filter(
      (ack) =>
        ![...roles].some(([fn, statements]) => grantsOf(statements).some((g) => acknowledges(ack, fn, g))),
    ).map((ack) => `${ack.action} on ${ack.resource}`);
    expect(stale).toEqual([]);
  });
});
