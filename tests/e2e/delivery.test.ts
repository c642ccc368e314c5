import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { until } from '#tests/support/e2e';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground, type Background } from '#local/background';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { client } from '#tests/support/http';
import { idle } from '#tests/support/idle';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * The notification delivery path end to end through the local runtime: HTTP -> DynamoDB Local ->
 * its real stream -> relay -> in-process SQS -> workers -> loopback providers. Queue time runs
 * 100x faster (10 ms per SQS second), so the real backoff schedule is exercised quickly.
 */

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
let rt: TestRuntime;
let bg: Background;
let token: string;
let api: ReturnType<typeof client>['call'];
let memberId: string;
let receiver: Server;
let receiverUrl: string;
const received: { verified: boolean; body: string }[] = [];

const T = 'acme';
const OTHER = 'globex';

const BOT_TOKEN = `123456:${'c'.repeat(35)}`;

const connect = async (tenant: string, body: Record<string, unknown>) => {
  const r = await api('POST', `/tenants/${tenant}/integration-connections`, { token, body });
  expect(r.status).toBe(201);
  return r.body;
};

const send = (body: Record<string, unknown>, headers: Record<string, string> = {}, tenant = T) =>
  api('POST', `/tenants/${tenant}/notifications`, { token, body, headers });

const statusOf = (id: string, status: string, tenant = T) => {
  let last: unknown;
  return until(
    async () => {
      const r = await api('GET', `/tenants/${tenant}/notifications/${id}`, { token });
      last = r.body;
      return r.body.status === status ? r.body : undefined;
    },
    () => `notification ${id} to become ${status}; last read: ${JSON.stringify(last)}`,
  );
};

beforeAll(async () => {
  rt = await startRuntime({
    OPS_LOCAL_QUEUE_MS_PER_SECOND: '10',
    OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000',
  });
  bg = activeBackground()!;
  api = client(rt.baseUrl).call;
  token = await client(rt.baseUrl).login(rt.admin.email, rt.admin.password);
  for (const id of [T, OTHER])
    expect((await api('POST', '/tenants', { token, body: { id, name: id } })).status).toBe(201);
  const m = await api('POST', `/tenants/${T}/members`, {
    token,
    body: { email: 'op@acme.test', display_name: 'Op', role: 'operator', password: 'correct horse battery' },
  });
  memberId = m.body.user_id;
  const wh = new Webhook(WEBHOOK_SECRET);
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let verified: boolean;
    try {
      wh.verify(body, req.headers as Record<string, string>);
      verified = true;
    } catch {
      verified = false;
    }
    received.push({ verified, body });
    res.writeHead(verified ? 204 : 401).end();
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  // The tenant connects its four channels through the hub, as a client would.
  await connect(T, { adapter_key: 'telegram', name: 'Bot', secret: { bot_token: BOT_TOKEN } });
  await connect(T, { adapter_key: 'email', name: 'Mail', config: { from_address: 'ops@sandbox.invalid' } });
  await connect(T, { adapter_key: 'sms', name: 'Texts', config: { sender_id: 'OPS' } });
  await connect(T, {
    adapter_key: 'webhook',
    name: 'Hooks',
    config: { url: receiverUrl },
    secret: { signing_secret: WEBHOOK_SECRET },
  });
}, 60_000);

afterAll(async () => {
  receiver?.close();
  await rt?.stop();
});

describe('notification delivery path', () => {
  it('delivers in_app into the inbox, and reports POST -> delivered latency', async () => {
    const started = performance.now();
    const r = await send({
      channel: 'in_app',
      recipient: memberId,
      subject: 'Hi',
      body: 'Invoice 42 needs a look',
    });
    expect(r.status).toBe(202);
    expect(r.body.status).toBe('queued');
    const done = await statusOf(r.body.id, 'delivered');
    const latency = performance.now() - started;
    console.info(`[delivery latency] in_app POST -> delivered: ${Math.round(latency)} ms`);
    expect(done.attempts).toHaveLength(1);
    expect(done.attempts[0].outcome).toBe('delivered');
  });

  it('posts a Standard Webhooks signed request that the receiver verifies', async () => {
    const r = await send({ channel: 'webhook', recipient: receiverUrl, body: 'Payment reconciled' });
    expect(r.status).toBe(202);
    await statusOf(r.body.id, 'delivered');
    expect(received).toHaveLength(1);
    expect(received[0]!.verified).toBe(true);
    expect(JSON.parse(received[0]!.body).data.notification_id).toBe(r.body.id);
  });

  it('rejects by policy with 422 and keeps a blocked draft', async () => {
    const r = await send({ channel: 'sms', recipient: 'not-a-number', body: 'password: hunter2hunter2' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('policy_rejected');
    expect(r.body.errors.map((e: { code: string }) => e.code).sort()).toEqual([
      'invalid_recipient',
      'secret_like_content',
    ]);
    const blocked = await api('GET', `/tenants/${T}/notifications?status=blocked`, { token });
    expect(blocked.body.items).toHaveLength(1);
    expect(blocked.body.items[0].recipient).toBe('not-a-number');
    expect(bg.sandbox.received('sms')).toHaveLength(0);
  });

  it('gates a channel the tenant has not connected, then delivers after enabling and a retry decision', async () => {
    const r = await send({ channel: 'telegram', recipient: '777', body: 'Stock is low' }, {}, OTHER);
    expect(r.status).toBe(202);
    const gated = await statusOf(r.body.id, 'gated', OTHER);
    const reviews = await api('GET', `/tenants/${OTHER}/review-items?status=open`, { token });
    const item = reviews.body.items.find((i: { notification_id: string }) => i.notification_id === r.body.id);
    expect(item.reason).toBe('gated');
    expect(gated.review_item_id).toBe(item.id);
    expect(bg.sandbox.received('telegram')).toHaveLength(0);

    await connect(OTHER, { adapter_key: 'telegram', name: 'Bot', secret: { bot_token: BOT_TOKEN } });
    const d = await api('POST', `/tenants/${OTHER}/review-items/${item.id}/decision`, {
      token,
      body: { action: 'retry', note: 'connected now' },
    });
    expect(d.status).toBe(200);
    expect(d.body.status).toBe('retried');
    await statusOf(r.body.id, 'delivered', OTHER);
    expect(bg.sandbox.received('telegram')).toHaveLength(1);
    const again = await api('POST', `/tenants/${OTHER}/review-items/${item.id}/decision`, {
      token,
      body: { action: 'discard' },
    });
    expect(again.status).toBe(409);
  });

  it('retries a provider 503 twice with backoff, then delivers', async () => {
    bg.sandbox.script('email', [503, 503, 200]);
    const r = await send({
      channel: 'email',
      recipient: 'cfo@acme.test',
      subject: 'Close',
      body: 'Month-end close is due',
    });
    const done = await statusOf(r.body.id, 'delivered');
    expect(done.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'transient_failure',
      'transient_failure',
      'delivered',
    ]);
    const calls = bg.sandbox.received('email');
    expect(calls.map((c) => c.status)).toEqual([503, 503, 200]);
    // Backoff: 2 s then 4 s (with equal jitter, at least half) at 10 ms per queue second.
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(10);
    expect(calls[2]!.at - calls[1]!.at).toBeGreaterThanOrEqual(20);
  });

  it('sends a provider 400 straight to review without retries', async () => {
    bg.sandbox.script('sms', [400]);
    const r = await send({ channel: 'sms', recipient: '+4915112345678', body: 'Your code is ready' });
    const dead = await statusOf(r.body.id, 'dead_lettered');
    expect(dead.attempts).toHaveLength(1);
    expect(dead.attempts[0].outcome).toBe('permanent_failure');
    const review = await api('GET', `/tenants/${T}/review-items?status=open`, { token });
    expect(
      review.body.items.some(
        (i: { notification_id: string; reason: string }) =>
          i.notification_id === r.body.id && i.reason === 'permanent_failure',
      ),
    ).toBe(true);
    // Nothing left to do in the background (no retry queued or delayed): and no second send.
    await idle();
    expect(bg.sandbox.received('sms')).toHaveLength(1);
  });

  it('sends once when the same SQS message is delivered twice', async () => {
    const before = bg.sandbox.received('telegram').length;
    const r = await send({ channel: 'telegram', recipient: '42', body: 'Shipment left the warehouse' });
    await statusOf(r.body.id, 'delivered');
    const queue = bg.queues.queues.get(QUEUES.external)!;
    const message = {
      event_id: 'duplicate-test',
      kind: 'notification.delivery.requested',
      tenant_id: T,
      idempotency_key: r.body.idempotency_key,
      occurred_at: new Date().toISOString(),
      payload: { notification_id: r.body.id, channel: 'telegram' },
    };
    queue.send(JSON.stringify(message));
    queue.send(JSON.stringify(message));
    await until(async () => (queue.size === 0 ? true : undefined), 'the duplicates to be consumed');
    expect(bg.sandbox.received('telegram').length - before).toBe(1);
  });

  it('dead-letters a poison message, and a redrive delivers it exactly once', async () => {
    const before = bg.sandbox.received('telegram').length;
    bg.sandbox.script('telegram', [503, 503, 503, 503, 503]);
    const r = await send({ channel: 'telegram', recipient: '43', body: 'Quarterly report' });
    await statusOf(r.body.id, 'dead_lettered');
    // The status can be read before the last attempt's record: at 10 ms a queue second, a loaded
    // machine lets the message come back while an earlier attempt is still in flight (one CI run
    // read 4). Five in the end, and no more: the calls are counted below.
    const dead = await until(async () => {
      const n = (await api('GET', `/tenants/${T}/notifications/${r.body.id}`, { token })).body;
      return n.attempts.length >= 5 ? n : undefined;
    }, 'five attempts recorded');
    expect(dead.attempts).toHaveLength(5);
    const source = bg.queues.queues.get(QUEUES.external)!;
    const dlq = bg.queues.queues.get(dlqName(QUEUES.external))!;
    await until(async () => (dlq.size === 1 ? true : undefined), 'the message to reach the DLQ');
    expect(source.size).toBe(0);
    const open = await api('GET', `/tenants/${T}/review-items?status=open`, { token });
    const item = open.body.items.find((i: { notification_id: string }) => i.notification_id === r.body.id);
    expect(item.reason).toBe('dead_lettered');

    expect(source.redriveFromDlq()).toBe(1);
    source.redriveFromDlq();
    await statusOf(r.body.id, 'delivered');
    await until(async () => (source.size === 0 ? true : undefined), 'the queue to drain');
    const calls = bg.sandbox.received('telegram').slice(before);
    expect(calls.filter((c) => c.status === 200)).toHaveLength(1);
    expect(calls).toHaveLength(6);
    const resolved = await api('GET', `/tenants/${T}/review-items?status=resolved`, { token });
    expect(resolved.body.items.some((i: { id: string }) => i.id === item.id)).toBe(true);
  });

  it('replays the first answer for a repeated Idempotency-Key, scoped to the tenant', async () => {
    const body = { channel: 'in_app', recipient: memberId, body: 'Once only' };
    const a = await send(body, { 'idempotency-key': 'k-1' });
    const b = await send(body, { 'idempotency-key': 'k-1' });
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.body.id).toBe(a.body.id);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const c = await send({ ...body, body: 'Another body' }, { 'idempotency-key': 'k-1' });
    expect(c.status).toBe(409);
    expect(c.body.code).toBe('conflict');
    const other = await send(
      { channel: 'in_app', recipient: memberId, body: 'Once only' },
      { 'idempotency-key': 'k-1' },
      OTHER,
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('policy_rejected');
    const list = await api('GET', `/tenants/${T}/notifications?recipient=${memberId}`, { token });
    expect(list.body.items.filter((n: { body: string }) => n.body === 'Once only')).toHaveLength(1);
  });
});
