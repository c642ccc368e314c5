import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground, type Background } from '#local/background';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { ROLES, type Role } from '#shared/kernel/policy';
import { isProblem, SAMPLE_BODIES, type Seeded, seedTenant, until } from '#tests/support/e2e';
import { idle } from '#tests/support/idle';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * The notification routes through the local runtime: Idempotency-Key with a request whose answer
 * is twice its size, and the role matrix rows of the notification route group.
 */

let rt: TestRuntime;
let bg: Background;
let s: Seeded;

beforeAll(async () => {
  rt = await startRuntime({
    OPS_LOCAL_QUEUE_MS_PER_SECOND: '10',
    OPS_LOCAL_SWEEP_INTERVAL_MS: '3600000',
  });
  bg = activeBackground()!;
  s = await seedTenant(rt);
}, 60_000);
afterAll(() => rt?.stop());

/** A new tenant (the admin is its only member), for counts nothing else touches. */
const newTenant = async () => {
  const id = `t-${randomUUID().slice(0, 8)}`;
  const r = await s.api.call('POST', '/tenants', { token: s.adminToken, body: { id, name: id } });
  expect(r.status).toBe(201);
  return id;
};

/** Evidence of 123,000 backslashes: a 246 KB request, a 492 KB answer. */
const ESCAPES = { path: '\\'.repeat(123_000) };

describe('Idempotency-Key with a 246 KB escape-heavy body', () => {
  it('creates one exception with one audit event, and replays the same 201', async () => {
    const tenant = await newTenant();
    const body = { ...(SAMPLE_BODIES['exceptions.create'] as object), evidence: ESCAPES };
    expect(JSON.stringify(body).length).toBeGreaterThan(246_000);
    const post = () =>
      s.api.call('POST', `/tenants/${tenant}/exceptions`, {
        token: s.adminToken,
        body,
        headers: { 'idempotency-key': 'big-evidence' },
      });
    const first = await post();
    expect(first.status).toBe(201);
    expect(JSON.parse(first.body.evidence_json)).toEqual(ESCAPES);
    const again = await post();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    const list = await s.api.call('GET', `/tenants/${tenant}/exceptions`, { token: s.adminToken });
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([first.body.id]);
    const audit = await s.api.call('GET', `/tenants/${tenant}/audit-events?entity_type=exception`, {
      token: s.adminToken,
    });
    expect(audit.body.items.map((a: { event_type: string; entity_id: string }) => a.entity_id)).toEqual([
      first.body.id,
    ]);
  });

  it('queues one notification and delivers it once, and replays the same 202', async () => {
    const tenant = await newTenant();
    const connected = await s.api.call('POST', `/tenants/${tenant}/integration-connections`, {
      token: s.adminToken,
      body: { adapter_key: 'telegram', name: 'Bot', secret: { bot_token: `123456:${'d'.repeat(35)}` } },
    });
    expect(connected.status).toBe(201);
    const chatId = String(Date.now());
    const body = { channel: 'telegram', recipient: chatId, body: 'Evidence attached', metadata: ESCAPES };
    const post = () =>
      s.api.call('POST', `/tenants/${tenant}/notifications`, {
        token: s.adminToken,
        body,
        headers: { 'idempotency-key': 'big-metadata' },
      });
    const first = await post();
    expect(first.status).toBe(202);
    const again = await post();
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);

    await until(async () => {
      const r = await s.api.call('GET', `/tenants/${tenant}/notifications/${first.body.id}`, {
        token: s.adminToken,
      });
      return r.body.status === 'delivered' ? true : undefined;
    }, 'the notification to be delivered');
    // Nothing left on the way: a second message would have been delivered by now.
    await idle();
    const sent = bg.sandbox
      .received('telegram')
      .filter((x) => (JSON.parse(x.body) as { chat_id: string }).chat_id === chatId);
    expect(sent).toHaveLength(1);
    const list = await s.api.call('GET', `/tenants/${tenant}/notifications`, { token: s.adminToken });
    expect(list.body.items).toHaveLength(1);
    const audit = await s.api.call('GET', `/tenants/${tenant}/audit-events?entity_type=notification`, {
      token: s.adminToken,
    });
    expect(audit.body.items.map((a: { event_type: string }) => a.event_type).sort()).toEqual([
      'notification.delivered',
      'notification.queued',
    ]);
  });
});

// docs/api.md section 3, written out independently of shared/kernel/policy.ts.
const ALLOWED: Record<string, Role[]> = {
  'notifications.create': ['operator', 'manager', 'owner'],
  'reviewItems.decide': ['operator', 'manager', 'owner'],
  'notifications.list': [...ROLES],
  'notifications.get': [...ROLES],
  'reviewItems.list': [...ROLES],
  // Every member has an inbox of their own (docs/api.md section 7.1).
  'inbox.list': [...ROLES],
  'inbox.summary': [...ROLES],
  'inbox.read': [...ROLES],
  'inbox.unread': [...ROLES],
  'inbox.readAll': [...ROLES],
  'preferences.get': [...ROLES],
  'preferences.put': [...ROLES],
};

/** An in_app notification to the member of `role`, once it is in their inbox: its id. */
const delivered = async (role: Role, body = `for the ${role}`): Promise<string> => {
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/notifications`, {
    token: s.adminToken,
    body: { channel: 'in_app', recipient: s.members[role].user_id, subject: 'Hello', body },
  });
  expect(r.status).toBe(202);
  return until(async () => {
    const n = await s.api.call('GET', `/tenants/${s.tenantId}/notifications/${r.body.id}`, {
      token: s.adminToken,
    });
    return n.body.status === 'delivered' ? (r.body.id as string) : undefined;
  }, 'the in_app notification to be delivered');
};

/** A telegram notification in the seeded tenant, whose channel nobody connected: gated, with an open review item. */
const gatedReviewItem = async (): Promise<{ notificationId: string; reviewItemId: string }> => {
  const r = await s.api.call('POST', `/tenants/${s.tenantId}/notifications`, {
    token: s.adminToken,
    body: { channel: 'telegram', recipient: '777', body: 'Stock is low' },
  });
  expect(r.status).toBe(202);
  return until(async () => {
    const n = await s.api.call('GET', `/tenants/${s.tenantId}/notifications/${r.body.id}`, {
      token: s.adminToken,
    });
    return n.body.status === 'gated'
      ? { notificationId: r.body.id as string, reviewItemId: n.body.review_item_id as string }
      : undefined;
  }, 'the notification to be gated');
};

async function attempt(id: string, role: Role) {
  const token = s.members[role].token;
  const base = `/tenants/${s.tenantId}`;
  switch (id) {
    case 'notifications.create':
      return s.api.call('POST', `${base}/notifications`, {
        token,
        body: { channel: 'in_app', recipient: s.members.operator.user_id, body: `from ${role}` },
      });
    case 'notifications.list':
      return s.api.call('GET', `${base}/notifications`, { token });
    case 'notifications.get':
      return s.api.call('GET', `${base}/notifications/${(await gatedReviewItem()).notificationId}`, {
        token,
      });
    case 'reviewItems.list':
      return s.api.call('GET', `${base}/review-items`, { token });
    case 'reviewItems.decide': {
      const { reviewItemId } = await gatedReviewItem();
      const r = await s.api.call('POST', `${base}/review-items/${reviewItemId}/decision`, {
        token,
        body: { action: 'discard', note: `by ${role}` },
      });
      const after = await s.api.call('GET', `${base}/review-items?status=open`, { token: s.adminToken });
      const stillOpen = after.body.items.some((i: { id: string }) => i.id === reviewItemId);
      // A refused decision changes nothing; an allowed one closes the item.
      expect([role, stillOpen]).toEqual([role, r.status !== 200]);
      return r;
    }
    case 'inbox.list':
      return s.api.call('GET', `${base}/inbox?unread=true`, { token });
    case 'inbox.summary':
      return s.api.call('GET', `${base}/inbox/summary`, { token });
    case 'inbox.read':
      return s.api.call('POST', `${base}/inbox/${await delivered(role)}/read`, { token });
    case 'inbox.unread':
      return s.api.call('POST', `${base}/inbox/${await delivered(role)}/unread`, { token });
    case 'inbox.readAll':
      return s.api.call('POST', `${base}/inbox/read-all`, { token, body: {} });
    case 'preferences.get':
      return s.api.call('GET', `${base}/me/preferences`, { token });
    case 'preferences.put':
      return s.api.call('PUT', `${base}/me/preferences`, {
        token,
        body: { contacts: {}, muted: [{ channel: 'sms' }], quiet_hours: null },
      });
    default:
      throw new Error(id);
  }
}

describe('role matrix of the notification routes', () => {
  it('covers every operation of the notifications, inbox and review groups', () => {
    const group = (Object.entries(OPERATIONS) as [string, Operation][])
      .filter(([, op]) => op.group === 'notifications' || op.group === 'inbox' || op.group === 'review')
      .map(([id]) => id)
      .sort();
    expect(group).toEqual(Object.keys(ALLOWED).sort());
  });

  for (const [id, allowed] of Object.entries(ALLOWED)) {
    it(`${id}: ${allowed.join(', ')} may; the others get 403`, async () => {
      const success = (OPERATIONS as Record<string, Operation>)[id]!.status;
      for (const role of ROLES) {
        const r = await attempt(id, role);
        if (allowed.includes(role)) {
          expect([role, r.status]).toEqual([role, success]);
        } else {
          expect([role, r.status, r.body.code]).toEqual([role, 403, 'forbidden']);
          expect(isProblem(r)).toBe(true);
        }
      }
    });
  }

  it('the inbox: only the recipient reads an item (404 for another member), and the unread count follows', async () => {
    const base = `/tenants/${s.tenantId}/inbox`;
    const as = (role: Role) => ({ token: s.members[role].token });
    await s.api.call('POST', `${base}/read-all`, { ...as('accountant'), body: {} });
    const id = await delivered('accountant', 'the books are closed');
    const summary = await s.api.call('GET', `${base}/summary`, as('accountant'));
    expect(summary.body).toMatchObject({ unread: 1, unread_by_category: { general: 1, security: 0 } });
    const unread = await s.api.call('GET', `${base}?unread=true&limit=5`, as('accountant'));
    expect(unread.body.items.map((i: { notification_id: string }) => i.notification_id)).toEqual([id]);
    expect(unread.body.items[0]).toMatchObject({ body: 'the books are closed', read_at: null });
    // Another member, whatever their role, does not see it: 404 on it, nothing in their list.
    for (const role of ['owner', 'support'] as const) {
      const r = await s.api.call('POST', `${base}/${id}/read`, as(role));
      expect([role, r.status, r.body.code]).toEqual([role, 404, 'not_found']);
      expect(isProblem(r)).toBe(true);
      const theirs = await s.api.call('GET', `${base}?limit=100`, as(role));
      expect(theirs.body.items.map((i: { notification_id: string }) => i.notification_id)).not.toContain(id);
    }
    expect((await s.api.call('GET', `${base}/summary`, as('accountant'))).body.unread).toBe(1);
    const auditLog = async () =>
      (await s.api.call('GET', `/tenants/${s.tenantId}/audit-events?limit=100`, { token: s.adminToken })).body
        .items;
    const auditBefore = await auditLog();
    const read = await s.api.call('POST', `${base}/${id}/read`, as('accountant'));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ notification_id: id, read_at: expect.any(String) });
    expect((await s.api.call('GET', `${base}/summary`, as('accountant'))).body.unread).toBe(0);
    expect((await s.api.call('GET', `${base}?unread=yes`, as('accountant'))).status).toBe(422);
    // Reading is not audited.
    expect(await auditLog()).toEqual(auditBefore);
  });

  it('a refused send queues nothing', async () => {
    const count = async () =>
      (await s.api.call('GET', `/tenants/${s.tenantId}/notifications?limit=100`, { token: s.adminToken }))
        .body.items.length as number;
    const before = await count();
    for (const role of ['accountant', 'support'] as const) {
      const r = await attempt('notifications.create', role);
      expect(r.status).toBe(403);
    }
    expect(await count()).toBe(before);
  });

  it('a window out of bounds or both recipients is 422 naming the field, and nothing is stored', async () => {
    const path = `/tenants/${s.tenantId}/notifications?limit=100`;
    const count = async () =>
      (await s.api.call('GET', path, { token: s.adminToken })).body.items.length as number;
    const before = await count();
    const base = { channel: 'sms', recipient: '+4915112345678', body: 'Stock is low' };
    for (const [body, field] of [
      [{ ...base, dedupe_key: 'k', dedupe_window_minutes: 0 }, 'dedupe_window_minutes'],
      [{ ...base, digest: { key: 'd', window_minutes: 1441 } }, 'digest.window_minutes'],
      [{ ...base, recipient_user_id: 'someone' }, 'recipient_user_id'],
    ] as const) {
      const r = await s.api.call('POST', `/tenants/${s.tenantId}/notifications`, {
        token: s.adminToken,
        body,
      });
      expect([r.status, r.body.errors?.map((e: { path: string }) => e.path)]).toEqual([422, [field]]);
    }
    expect(await count()).toBe(before);
  });
});
