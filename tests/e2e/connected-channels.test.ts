import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground, type Background } from '#local/background';
import { type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * The provider gate reads the integration hub (docs/api.md sections 7 and 9.3), end to end
 * through the local runtime and its provider sandbox: no connection, `gated`; connected, the
 * send uses the connection's config and secret and is `delivered`.
 */

let rt: TestRuntime;
let bg: Background;
let s: Seeded;

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUEUE_MS_PER_SECOND: '10', OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000' });
  bg = activeBackground()!;
  s = await seedTenant(rt);
}, 60_000);
afterAll(() => rt?.stop());

const call = (method: string, path: string, body?: unknown) =>
  s.api.call(method, `/tenants/${s.tenantId}${path}`, { token: s.adminToken, ...(body ? { body } : {}) });

const settled = async (id: string, statuses: string[]) => {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await call('GET', `/notifications/${id}`);
    if (statuses.includes(r.body.status)) return r.body;
    if (Date.now() > deadline) throw new Error(`notification ${id} stayed ${r.body.status}`);
    await new Promise((done) => setTimeout(done, 25));
  }
};

describe('the provider gate reads connections', () => {
  it('gates an email without a connection, delivers one with it, from the connection sender', async () => {
    const email = {
      channel: 'email',
      recipient: 'ada@example.test',
      subject: 'Invoice 42',
      body: 'Paid, thanks.',
    };
    const before = await call('POST', '/notifications', email);
    expect(before.status).toBe(202);
    const gated = await settled(before.body.id, ['gated', 'delivered']);
    expect(gated.status).toBe('gated');
    expect(gated.attempts.at(-1)).toMatchObject({ outcome: 'gated', reason: 'not_connected' });
    expect(bg.sandbox.received('email')).toHaveLength(0);

    const connected = await call('POST', '/integration-connections', {
      adapter_key: 'email',
      name: 'Billing mail',
      config: { from_address: 'billing@acme.example', reply_to: 'help@acme.example' },
    });
    expect(connected.status).toBe(201);
    const after = await call('POST', '/notifications', email);
    expect((await settled(after.body.id, ['delivered', 'gated', 'dead_lettered'])).status).toBe('delivered');
    const [sent] = bg.sandbox.received('email');
    expect(JSON.parse(sent!.body)).toMatchObject({
      FromEmailAddress: 'billing@acme.example',
      ReplyToAddresses: ['help@acme.example'],
      Destination: { ToAddresses: ['ada@example.test'] },
    });

    // Disabled, the channel is refused at once.
    await call('PATCH', `/integration-connections/${connected.body.id}`, { status: 'disabled' });
    const refused = await call('POST', '/notifications', email);
    expect(refused.body.errors).toContainEqual(expect.objectContaining({ code: 'channel_disabled' }));
  });

  it('gates a telegram message until the connection has its bot token, then sends with it', async () => {
    const c = await call('POST', '/integration-connections', { adapter_key: 'telegram', name: 'Bot' });
    expect(c.body.secret_configured).toBe(false);
    const first = await call('POST', '/notifications', {
      channel: 'telegram',
      recipient: '4242',
      body: 'Stock low',
    });
    const gated = await settled(first.body.id, ['gated', 'delivered']);
    expect(gated.attempts.at(-1)).toMatchObject({ outcome: 'gated', reason: 'not_configured' });

    const token = `765432:${randomBytes(24).toString('hex').slice(0, 35)}`;
    await call('PATCH', `/integration-connections/${c.body.id}`, { secret: { bot_token: token } });
    const second = await call('POST', '/notifications', {
      channel: 'telegram',
      recipient: '4242',
      body: 'Stock low',
    });
    expect((await settled(second.body.id, ['delivered', 'gated', 'dead_lettered'])).status).toBe('delivered');
    expect(bg.sandbox.received('telegram').at(-1)!.path).toBe(`/telegram/bot${token}/sendMessage`);
  });

  it('signs a webhook with the connection secret and sends only under the connection url', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const base = `${bg.sandbox.url}/webhook/acme`;
    const c = await call('POST', '/integration-connections', {
      adapter_key: 'webhook',
      name: 'Hooks',
      config: { url: base },
      secret: { signing_secret: secret },
    });
    expect(c.status).toBe(201);
    const ok = await call('POST', '/notifications', {
      channel: 'webhook',
      recipient: `${base}/invoices`,
      body: 'Paid',
    });
    expect((await settled(ok.body.id, ['delivered', 'gated', 'dead_lettered'])).status).toBe('delivered');
    const sent = bg.sandbox.received('webhook').at(-1)!;
    expect(sent.path).toBe('/webhook/acme/invoices');
    expect(sent.headers['webhook-signature']).toMatch(/^v1,/);

    const outside = await call('POST', '/notifications', {
      channel: 'webhook',
      recipient: `${bg.sandbox.url}/webhook/other`,
      body: 'Paid',
    });
    const refused = await settled(outside.body.id, ['dead_lettered', 'delivered']);
    expect(refused.attempts.at(-1)).toMatchObject({
      outcome: 'permanent_failure',
      reason: 'recipient_outside_connection',
    });
  });
});
