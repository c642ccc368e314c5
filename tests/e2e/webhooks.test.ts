import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { SAMPLE_BODIES, type Seeded, seedTenant, until } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';
import { receiver } from '#tests/support/webhooks';

/**
 * Event subscriptions through `npm start`'s runtime (docs/api.md, "Event subscriptions"): one
 * runtime for the whole path, from a change through the outbox, the relay, the internal worker's
 * fan-out and the external worker's delivery to a loopback receiver, signed so that the
 * reference library verifies it; the catalog and the delivery log over HTTP.
 */

let rt: TestRuntime;
let s: Seeded;
let rx: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUIET: '1' });
  s = await seedTenant(rt);
  rx = await receiver();
}, 60_000);
afterAll(async () => {
  await rt?.stop();
  await rx?.close();
});

const base = () => `/tenants/${s.tenantId}`;

describe('event subscriptions on the local runtime', () => {
  it('serves the catalog to any member', async () => {
    const r = await s.api.call('GET', '/event-types', { token: s.members.operator.token });
    expect(r.status).toBe(200);
    expect(r.body.items).toContainEqual(
      expect.objectContaining({ type: 'exception.created', schema: expect.any(Object) }),
    );
  });

  it('a created exception arrives signed at the subscribed endpoint, and the log shows the delivery', async () => {
    const created = await s.api.call('POST', `${base()}/webhook-endpoints`, {
      token: s.members.manager.token,
      body: { url: rx.url, event_types: ['exception.created'] },
    });
    expect(created.status).toBe(201);
    const { id, secret } = created.body as { id: string; secret: string };
    const read = await s.api.call('GET', `${base()}/webhook-endpoints/${id}`, {
      token: s.members.operator.token,
    });
    expect(read.body).not.toHaveProperty('secret');
    // An operator may read but not manage endpoints.
    const refused = await s.api.call('POST', `${base()}/webhook-endpoints/${id}/rotate-secret`, {
      token: s.members.operator.token,
    });
    expect(refused.status).toBe(403);

    const exception = await s.api.call('POST', `${base()}/exceptions`, {
      token: s.adminToken,
      body: SAMPLE_BODIES['exceptions.create'],
    });
    expect(exception.status).toBe(201);
    const arrived = await until(async () => rx.received[0], 'the webhook to arrive', 20_000);
    const payload = new Webhook(secret).verify(arrived.body, arrived.headers as Record<string, string>) as {
      type: string;
      data: { id: string };
    };
    expect(payload).toMatchObject({ type: 'exception.created', data: { id: exception.body.id } });

    const log = await until(async () => {
      const r = await s.api.call('GET', `${base()}/webhook-endpoints/${id}/messages?status=delivered`, {
        token: s.adminToken,
      });
      return r.body.items.length ? r.body : undefined;
    }, 'the delivery in the log');
    expect(log.items[0]).toMatchObject({
      id: arrived.headers['webhook-id'],
      event_type: 'exception.created',
      status: 'delivered',
      attempts: [expect.objectContaining({ status_code: 200, error_code: null })],
    });
  }, 40_000);
});
