import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * PUT /me/preferences changes the caller's preferences only (docs/api.md section 7, "Members'
 * preferences"): another member's id anywhere in the body, or in the query, changes nothing of
 * that member, which the other member's own read shows.
 */

let rt: TestRuntime;
let s: Seeded;
beforeAll(async () => {
  rt = await startRuntime();
  s = await seedTenant(rt);
}, 60_000);
afterAll(() => rt?.stop());

const url = () => `/tenants/${s.tenantId}/me/preferences`;
const read = async (token: string) => (await s.api.call('GET', url(), { token })).body;

describe("another member's preferences", () => {
  it('are not changed by a PUT naming that member anywhere', async () => {
    const other = s.members.manager;
    const caller = s.members.operator;
    const theirs = {
      contacts: { email: 'manager-own@example.test' },
      muted: [{ channel: 'sms' }],
      quiet_hours: { start: '22:00', end: '07:00', timezone: 'Europe/Berlin' },
    };
    expect((await s.api.call('PUT', url(), { token: other.token, body: theirs })).status).toBe(200);
    const before = await read(other.token);

    const id = other.user_id;
    const evil = { contacts: { email: 'evil@example.test' }, muted: [], quiet_hours: null };
    const refused: unknown[] = [
      { ...evil, user_id: id },
      { ...evil, member_id: id },
      { ...evil, contacts: { ...evil.contacts, user_id: id } },
      { ...evil, muted: [{ channel: 'email', user_id: id }] },
      { ...evil, quiet_hours: { start: '00:00', end: '23:00', user_id: id } },
      { [id]: evil },
    ];
    for (const body of refused) {
      const r = await s.api.call('PUT', url(), { token: caller.token, body });
      expect([r.status, r.body.code], JSON.stringify(body)).toEqual([422, 'validation_failed']);
    }
    // The id in the query, and as a value the body may hold: the caller's own preferences change.
    for (const query of [`?user_id=${id}`, `?member_id=${id}`]) {
      const r = await s.api.call('PUT', `${url()}${query}`, { token: caller.token, body: evil });
      expect([200, 422]).toContain(r.status);
    }
    const asValue = { ...evil, contacts: { email: `${id}@example.test` } };
    expect((await s.api.call('PUT', url(), { token: caller.token, body: asValue })).status).toBe(200);
    expect((await read(caller.token)).contacts).toEqual({ email: `${id}@example.test` });

    expect(await read(other.token)).toEqual(before);
    expect(before).toMatchObject(theirs);
  });
});
