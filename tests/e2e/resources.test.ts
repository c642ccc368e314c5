import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProblem, PASSWORD, SAMPLE_BODIES, type Seeded, seedTenant } from '#tests/support/e2e';
import { assertDocumented } from '#tests/support/openapi-check';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

let rt: TestRuntime;
let s: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  s = await seedTenant(rt);
});
afterAll(() => rt?.stop());

const base = () => `/tenants/${s.tenantId}`;
const audit = async (query = '') => {
  const r = await s.api.call('GET', `${base()}/audit-events?limit=100${query}`, { token: s.adminToken });
  expect(r.status).toBe(200);
  return r.body.items as {
    event_type: string;
    entity_type: string;
    entity_id: string;
    metadata_json: string | null;
  }[];
};

describe('transport', () => {
  const url = () => `${base()}/exceptions`;

  it('malformed JSON is 400 malformed_json', async () => {
    const r = await s.api.call('POST', url(), {
      token: s.adminToken,
      raw: '{"title": ',
      headers: { 'content-type': 'application/json' },
    });
    expect([r.status, r.body.code]).toEqual([400, 'malformed_json']);
    expect(isProblem(r)).toBe(true);
  });

  it('a wrong content type is 415; JSON with charset=utf-8 is accepted', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
      const r = await s.api.call('POST', url(), {
        token: s.adminToken,
        raw: JSON.stringify(SAMPLE_BODIES['exceptions.create']),
        headers: { 'content-type': type },
      });
      expect([type, r.status, r.body.code]).toEqual([type, 415, 'unsupported_media_type']);
    }
    const missing = await s.api.call('POST', url(), {
      token: s.adminToken,
      raw: JSON.stringify(SAMPLE_BODIES['exceptions.create']),
    });
    expect(missing.status).toBe(415);
    const ok = await s.api.call('POST', url(), {
      token: s.adminToken,
      body: SAMPLE_BODIES['exceptions.create'],
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(ok.status).toBe(201);
  });

  it('a body over 256 KiB is 413 (exactly the limit is not)', async () => {
    const wrap = (n: number) => {
      const skeleton = JSON.stringify({
        ...(SAMPLE_BODIES['exceptions.create'] as object),
        evidence: { pad: '' },
      });
      return skeleton.replace('"pad":""', `"pad":"${'x'.repeat(n - skeleton.length)}"`);
    };
    const over = await s.api.call('POST', url(), {
      token: s.adminToken,
      raw: wrap(256 * 1024 + 1),
      headers: { 'content-type': 'application/json' },
    });
    expect([over.status, over.body.code]).toEqual([413, 'payload_too_large']);
    const at = await s.api.call('POST', url(), {
      token: s.adminToken,
      raw: wrap(256 * 1024),
      headers: { 'content-type': 'application/json' },
    });
    expect(at.status).toBe(201);
  });

  it('unknown fields are 422 with errors[].path naming each', async () => {
    const r = await s.api.call('POST', url(), {
      token: s.adminToken,
      body: { ...(SAMPLE_BODIES['exceptions.create'] as object), status: 'resolved', tenant_id: 'other' },
    });
    expect([r.status, r.body.code]).toEqual([422, 'validation_failed']);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['status', 'tenant_id']);
  });

  it('bounds are 422 with the field path', async () => {
    const r = await s.api.call('POST', url(), {
      token: s.adminToken,
      body: {
        ...(SAMPLE_BODIES['exceptions.create'] as object),
        title: 'x',
        observation_ids: Array(21).fill('o'),
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['observation_ids', 'title']);
  });

  it('a known path with a wrong method is 405 with Allow; an unknown path is 404', async () => {
    const r = await s.api.call('PUT', url(), { token: s.adminToken, body: {} });
    expect([r.status, r.body.code]).toEqual([405, 'method_not_allowed']);
    expect(r.headers.get('allow')).toBe('GET, POST');
    const h = await s.api.call('DELETE', '/health');
    expect([h.status, h.headers.get('allow')]).toEqual([405, 'GET']);
    for (const path of ['/nope', `${base()}/nothing-here`, '/tenants/a/b/c/d/e']) {
      const n = await s.api.call('GET', path, { token: s.adminToken });
      expect([path, n.status, n.body.code]).toEqual([path, 404, 'not_found']);
      expect(isProblem(n)).toBe(true);
    }
  });

  it('a bad query parameter is 422 and an invalid cursor is 400', async () => {
    expect((await s.api.call('GET', `${url()}?limit=0`, { token: s.adminToken })).status).toBe(422);
    expect((await s.api.call('GET', `${url()}?limit=101`, { token: s.adminToken })).status).toBe(422);
    expect((await s.api.call('GET', `${url()}?status=closed`, { token: s.adminToken })).status).toBe(422);
    expect((await s.api.call('GET', `${url()}?bogus=1`, { token: s.adminToken })).status).toBe(422);
    const c = await s.api.call('GET', `${url()}?cursor=abc.def`, { token: s.adminToken });
    expect([c.status, c.body.code]).toEqual([400, 'invalid_cursor']);
  });
});

describe('tenants and members', () => {
  it('a duplicate tenant id is 409 conflict; a bad id is 422', async () => {
    const r = await s.api.call('POST', '/tenants', {
      token: s.adminToken,
      body: { id: s.tenantId, name: 'Again' },
    });
    expect([r.status, r.body.code]).toEqual([409, 'conflict']);
    const bad = await s.api.call('POST', '/tenants', {
      token: s.adminToken,
      body: { id: 'Bad_Id', name: 'Bad' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('id');
    const got = await s.api.call('GET', base(), { token: s.members.support.token });
    expect(got.body).toEqual({
      id: s.tenantId,
      name: `Tenant ${s.tenantId}`,
      status: 'active',
      timezone: 'UTC',
      created_at: expect.any(String),
    });
  });

  it('members: an owner invites (the new user logs in, accepts), patch, delete, each audited without a password', async () => {
    const owner = s.members.owner.token;
    const email = `newbie-${Date.now()}@example.test`;
    const invited = await s.api.call('POST', `${base()}/members`, {
      token: owner,
      body: { email, display_name: 'Newbie', role: 'operator', password: PASSWORD },
    });
    expect(invited.status).toBe(202);
    expect(invited.body).toMatchObject({ tenant_id: s.tenantId, email, role: 'operator', status: 'pending' });
    expect(invited.body).not.toHaveProperty('password');
    const token = await s.api.login(email, PASSWORD);
    // Not a member until the invitation is accepted.
    expect((await s.api.call('GET', `${base()}/exceptions`, { token })).status).toBe(404);
    const accepted = await s.api.call('POST', `/auth/invitations/${invited.body.id}/accept`, { token });
    expect(accepted.status).toBe(201);
    expect((await s.api.call('GET', `${base()}/exceptions`, { token })).status).toBe(200);
    const me = await s.api.call('GET', '/auth/me', { token });
    const userId: string = me.body.user.id;

    // Inviting a member again is an invitation like any other; accepting it is 409 conflict.
    const dup = await s.api.call('POST', `${base()}/members`, {
      token: owner,
      body: { email, display_name: 'Again', role: 'manager' },
    });
    expect(dup.status).toBe(202);
    const again = await s.api.call('POST', `/auth/invitations/${dup.body.id}/accept`, { token });
    expect([again.status, again.body.code]).toEqual([409, 'conflict']);

    const patched = await s.api.call('PATCH', `${base()}/members/${userId}`, {
      token: owner,
      body: { role: 'manager' },
    });
    expect([patched.status, patched.body.role]).toEqual([200, 'manager']);
    // The new role is in force on the next request.
    expect((await s.api.call('GET', `${base()}/audit-events`, { token })).status).toBe(200);

    const list = await s.api.call('GET', `${base()}/members?limit=100`, { token: owner });
    expect(list.body.items.find((m: { user_id: string }) => m.user_id === userId)?.role).toBe('manager');

    expect((await s.api.call('DELETE', `${base()}/members/${userId}`, { token: owner })).status).toBe(204);
    expect((await s.api.call('GET', `${base()}/exceptions`, { token })).status).toBe(404);
    expect((await s.api.call('DELETE', `${base()}/members/${userId}`, { token: owner })).status).toBe(404);

    const events = await audit(`&entity_type=member&entity_id=${userId}`);
    expect(events.map((e) => e.event_type)).toEqual([
      'member.removed',
      'member.role_changed',
      'member.added',
    ]);
    const all = JSON.stringify(await audit());
    expect(all).not.toContain(PASSWORD);
  });

  it('platform_admin adds at once (201); a new user then needs a password; a short one is 422 for anyone', async () => {
    const email = `direct-${Date.now()}@example.test`;
    const before = (await audit()).length;
    const np = await s.api.call('POST', `${base()}/members`, {
      token: s.adminToken,
      body: { email, display_name: 'N', role: 'support' },
    });
    expect([np.status, np.body.code]).toEqual([422, 'validation_failed']);
    expect(np.body.errors.map((e: { path: string }) => e.path)).toEqual(['password']);
    for (const token of [s.adminToken, s.members.owner.token]) {
      const short = await s.api.call('POST', `${base()}/members`, {
        token,
        body: { email, display_name: 'N', role: 'support', password: 'elevenchars' },
      });
      expect(short.status).toBe(422);
    }
    expect((await audit()).length).toBe(before);

    const added = await s.api.call('POST', `${base()}/members`, {
      token: s.adminToken,
      body: { email, display_name: 'Direct', role: 'support', password: PASSWORD },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      tenant_id: s.tenantId,
      email,
      display_name: 'Direct',
      role: 'support',
    });
    const token = await s.api.login(email, PASSWORD);
    expect((await s.api.call('GET', base(), { token })).status).toBe(200);
  });

  it('the last owner cannot be removed or demoted (409)', async () => {
    const ownerId = s.members.owner.user_id;
    const del = await s.api.call('DELETE', `${base()}/members/${ownerId}`, { token: s.adminToken });
    expect([del.status, del.body.code]).toEqual([409, 'conflict']);
    const demote = await s.api.call('PATCH', `${base()}/members/${ownerId}`, {
      token: s.members.owner.token,
      body: { role: 'manager' },
    });
    expect([demote.status, demote.body.code]).toEqual([409, 'conflict']);
    const me = await s.api.call('GET', '/auth/me', { token: s.members.owner.token });
    expect(me.body.memberships[0].role).toBe('owner');
  });
});

describe('exceptions', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    const specs = [
      ['a', { severity: 'info', subject_type: 'invoice', subject_id: 'INV-1' }],
      ['b', { severity: 'critical', subject_type: 'invoice', subject_id: 'INV-2' }],
      [
        'c',
        { severity: 'critical', subject_type: 'order', subject_id: 'ORD-1', exception_type: 'order.stuck' },
      ],
    ] as const;
    for (const [name, extra] of specs) {
      const r = await s.api.call('POST', `${base()}/exceptions`, {
        token: s.members.operator.token,
        body: {
          ...(SAMPLE_BODIES['exceptions.create'] as object),
          ...extra,
          title: `X-${name}`,
          impact: { amount: 5 },
        },
      });
      expect(r.status).toBe(201);
      ids[name] = r.body.id;
    }
  });

  it('create answers 201 open with the JSON text of impact and evidence', async () => {
    const r = await s.api.call('GET', `${base()}/exceptions/${ids.a}`, { token: s.members.support.token });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      id: ids.a,
      tenant_id: s.tenantId,
      status: 'open',
      severity: 'info',
      impact_json: '{"amount":5}',
      evidence_json: '{}',
      resolved_at: null,
    });
    expect(r.body.detected_at).toBe(r.body.created_at);
    const missing = await s.api.call('GET', `${base()}/exceptions/does-not-exist`, { token: s.adminToken });
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });

  it('lists newest first with each filter, and pages with cursors', async () => {
    const titles = async (q: string) => {
      const r = await s.api.call('GET', `${base()}/exceptions?${q}`, { token: s.members.accountant.token });
      expect([q, r.status]).toEqual([q, 200]);
      return r.body.items
        .filter((e: { title: string }) => e.title.startsWith('X-'))
        .map((e: { title: string }) => e.title);
    };
    expect(await titles('')).toEqual(['X-c', 'X-b', 'X-a']);
    expect(await titles('severity=critical')).toEqual(['X-c', 'X-b']);
    expect(await titles('subject_type=invoice')).toEqual(['X-b', 'X-a']);
    expect(await titles('subject_type=invoice&subject_id=INV-2')).toEqual(['X-b']);
    expect(await titles('status=open&severity=info')).toEqual(['X-a']);
    // The type index alone, and type beside the status index, severity and a subject.
    expect(await titles('type=order.stuck')).toEqual(['X-c']);
    expect(await titles('type=invoice.overdue')).toEqual(['X-b', 'X-a']);
    expect(await titles('type=invoice.overdue&severity=critical')).toEqual(['X-b']);
    expect(await titles('status=open&type=order.stuck')).toEqual(['X-c']);
    expect(await titles('status=resolved&type=order.stuck')).toEqual([]);
    expect(await titles('type=order.stuck&subject_type=invoice&subject_id=INV-2')).toEqual([]);
    // Both answers as the document describes them: a type page, and the 422 naming `type`.
    const byType = `${base()}/exceptions?type=order.stuck&status=open&limit=1`;
    const typed = await s.api.call('GET', byType, { token: s.adminToken });
    assertDocumented('GET', byType, typed);
    expect(typed.body.items.map((e: { exception_type: string }) => e.exception_type)).toEqual([
      'order.stuck',
    ]);
    const badUrl = `${base()}/exceptions?type=Not%20A%20Type`;
    const badType = await s.api.call('GET', badUrl, { token: s.adminToken });
    assertDocumented('GET', badUrl, badType);
    expect([badType.status, badType.body.errors.map((e: { path: string }) => e.path)]).toEqual([
      422,
      ['type'],
    ]);

    const p1 = await s.api.call('GET', `${base()}/exceptions?severity=critical&limit=1`, {
      token: s.adminToken,
    });
    expect(p1.body.items.map((e: { title: string }) => e.title)).toEqual(['X-c']);
    const cursor = encodeURIComponent(p1.body.next_cursor);
    const p2 = await s.api.call('GET', `${base()}/exceptions?severity=critical&limit=1&cursor=${cursor}`, {
      token: s.adminToken,
    });
    expect(p2.body.items.map((e: { title: string }) => e.title)).toEqual(['X-b']);
    // The same cursor with another filter or in another tenant is refused.
    const other = await s.api.call('GET', `${base()}/exceptions?severity=info&limit=1&cursor=${cursor}`, {
      token: s.adminToken,
    });
    expect([other.status, other.body.code]).toEqual([400, 'invalid_cursor']);
    const b = await seedTenant(rt);
    const cross = await s.api.call(
      'GET',
      `/tenants/${b.tenantId}/exceptions?severity=critical&limit=1&cursor=${cursor}`,
      {
        token: s.adminToken,
      },
    );
    expect([cross.status, cross.body.code]).toEqual([400, 'invalid_cursor']);
  });

  it('status changes: open -> acknowledged -> resolved, then 409 invalid_transition', async () => {
    const path = `${base()}/exceptions/${ids.b}/status`;
    const ack = await s.api.call('POST', path, {
      token: s.members.manager.token,
      body: { status: 'acknowledged', note: 'looking' },
    });
    expect([ack.status, ack.body.status, ack.body.resolved_at]).toEqual([200, 'acknowledged', null]);
    const res = await s.api.call('POST', path, {
      token: s.members.operator.token,
      body: { status: 'resolved' },
    });
    expect([res.status, res.body.status]).toEqual([200, 'resolved']);
    expect(res.body.resolved_at).toEqual(expect.any(String));
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(ack.body.updated_at));

    for (const status of ['acknowledged', 'resolved']) {
      const again = await s.api.call('POST', path, { token: s.adminToken, body: { status } });
      expect([again.status, again.body.code]).toEqual([409, 'invalid_transition']);
    }
    const bad = await s.api.call('POST', path, { token: s.adminToken, body: { status: 'open' } });
    expect(bad.status).toBe(422);

    const direct = await s.api.call('POST', `${base()}/exceptions/${ids.c}/status`, {
      token: s.adminToken,
      body: { status: 'resolved' },
    });
    expect([direct.status, direct.body.status]).toEqual([200, 'resolved']);

    const resolved = await s.api.call('GET', `${base()}/exceptions?status=resolved`, { token: s.adminToken });
    expect(resolved.body.items.map((e: { id: string }) => e.id)).toEqual([ids.c, ids.b]);

    const events = await audit(`&entity_type=exception&entity_id=${ids.b}`);
    expect(events.map((e) => e.event_type)).toEqual([
      'exception.status_changed',
      'exception.status_changed',
      'exception.created',
    ]);
    expect(JSON.parse(events[1]!.metadata_json!)).toMatchObject({
      from: 'open',
      to: 'acknowledged',
      note: 'looking',
    });
  });

  it('two racing acknowledged -> resolved requests: exactly one 200, the other 409', async () => {
    const path = `${base()}/exceptions/${ids.a}/status`;
    expect(
      (await s.api.call('POST', path, { token: s.adminToken, body: { status: 'acknowledged' } })).status,
    ).toBe(200);
    const results = await Promise.all([
      s.api.call('POST', path, { token: s.members.operator.token, body: { status: 'resolved' } }),
      s.api.call('POST', path, { token: s.members.manager.token, body: { status: 'resolved' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const events = await audit(`&entity_type=exception&entity_id=${ids.a}`);
    expect(events.filter((e) => e.metadata_json?.includes('"to":"resolved"'))).toHaveLength(1);
  });
});

describe('audit log', () => {
  it('filters by entity type and entity, requires entity_type with entity_id, and pages', async () => {
    const members = await audit('&entity_type=member');
    expect(members.length).toBeGreaterThanOrEqual(5);
    expect(new Set(members.map((e) => e.entity_type))).toEqual(new Set(['member']));
    const tenantEvents = await audit(`&entity_type=tenant&entity_id=${s.tenantId}`);
    expect(tenantEvents.map((e) => e.event_type)).toEqual(['tenant.created']);
    const bad = await s.api.call('GET', `${base()}/audit-events?entity_id=x`, { token: s.adminToken });
    expect(bad.status).toBe(422);

    const p1 = await s.api.call('GET', `${base()}/audit-events?limit=2&entity_type=member`, {
      token: s.members.support.token,
    });
    expect(p1.body.items).toHaveLength(2);
    const p2 = await s.api.call(
      'GET',
      `${base()}/audit-events?limit=2&entity_type=member&cursor=${encodeURIComponent(p1.body.next_cursor)}`,
      {
        token: s.members.support.token,
      },
    );
    expect(p2.body.items).toHaveLength(2);
    expect(p2.body.items[0].id < p1.body.items[1].id).toBe(true);
    const misuse = await s.api.call(
      'GET',
      `${base()}/audit-events?limit=2&entity_type=exception&cursor=${encodeURIComponent(p1.body.next_cursor)}`,
      {
        token: s.adminToken,
      },
    );
    expect(misuse.status).toBe(400);
  });

  it('metadata never contains a password or a token', async () => {
    const text = JSON.stringify(await audit());
    expect(text).not.toContain(PASSWORD);
    for (const m of Object.values(s.members)) expect(text).not.toContain(m.token);
    expect(text).not.toMatch(/password_hash|scrypt\$/);
  });
});
