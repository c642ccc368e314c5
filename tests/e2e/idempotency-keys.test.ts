import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { PASSWORD, SAMPLE_BODIES } from '#tests/support/e2e';
import { client } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * Every operation that honours `Idempotency-Key` (the manifest's `idempotent`), and no other, is
 * the list docs/api.md section 7 gives; each, sent twice with one key, answers the first answer
 * again marked `idempotent-replayed`, writes once, and the same key with another body is 409.
 */

let rt: TestRuntime;
let api: ReturnType<typeof client>;
let token: string;
beforeAll(async () => {
  rt = await startRuntime();
  api = client(rt.baseUrl);
  token = await api.login(rt.admin.email, rt.admin.password);
}, 60_000);
afterAll(() => rt?.stop());

const idempotent = (Object.entries(OPERATIONS) as [string, Operation][]).filter(([, op]) => op.idempotent);

/** The i-th body of an operation: different ones where a natural key must differ. */
const bodyOf = (id: string, i: number, extra: { connectionId?: string }): unknown => {
  const n = `${i}-${randomUUID().slice(0, 8)}`;
  const sample = SAMPLE_BODIES[id] as Record<string, unknown> | undefined;
  switch (id) {
    case 'tenants.create':
      return { id: `idem-${n}`, name: `Idem ${n}` };
    case 'members.add':
      return { email: `m-${n}@example.test`, display_name: `M ${n}`, role: 'operator', password: PASSWORD };
    case 'notifications.create':
      return { channel: 'email', recipient: `r-${n}@example.test`, subject: 'Hello', body: `Hi ${n}` };
    case 'reconciliationRuns.create':
      // An email connection holds no payments: the first answer is a 422, kept and replayed as any.
      return {
        connection_id: i === 2 ? 'another-connection' : extra.connectionId,
        rule_set: 'payment_reconciliation',
      };
    case 'integrationConnections.create':
      return { ...sample, name: `Mail ${n}` };
    case 'documents.create':
      return { ...sample, number: `INV-${n}` };
    default:
      if (!sample) throw new Error(`no sample body for ${id}: add one to SAMPLE_BODIES`);
      // A field of its own text makes each body another request.
      if ('name' in sample) return { ...sample, name: `${String(sample.name)} ${n}` };
      if ('title' in sample) return { ...sample, title: `${String(sample.title)} ${n}` };
      return { ...sample, description: `Endpoint ${n}` };
  }
};

describe('Idempotency-Key', () => {
  it('docs/api.md names exactly the operations that honour it', () => {
    const doc = readFileSync('docs/api.md', 'utf8');
    const list = /\*\*Idempotency-Key\.\*\* The write operations \(([^)]*)\)/.exec(doc)?.[1] ?? '';
    const named = [...list.matchAll(/`([a-zA-Z]+\.[a-zA-Z]+)`/g)].map((m) => m[1]).sort();
    expect(named).toEqual(idempotent.map(([id]) => id).sort());
  });

  it.each(idempotent)(
    '%s: the same key answers the first answer again; another body is 409',
    async (id, op) => {
      const tenantId = `idem-${randomUUID().slice(0, 8)}`;
      expect(
        (await api.call('POST', '/tenants', { token, body: { id: tenantId, name: 'Idem' } })).status,
      ).toBe(201);
      let connectionId: string | undefined;
      if (id === 'reconciliationRuns.create') {
        const c = await api.call('POST', `/tenants/${tenantId}/integration-connections`, {
          token,
          body: SAMPLE_BODIES['integrationConnections.create'],
        });
        connectionId = c.body.id;
      }
      const path = op.path.replace('{tenant_id}', tenantId);
      const key = randomUUID();
      const headers = { 'idempotency-key': key };
      const body = bodyOf(id, 1, { connectionId });
      const first = await api.call('POST', path, { token, body, headers });
      expect(first.status, JSON.stringify(first.body)).toBeLessThan(500);
      if (id !== 'reconciliationRuns.create')
        expect([op.status, op.alternative?.status]).toContain(first.status);
      const again = await api.call('POST', path, { token, body, headers });
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([first.status, 'true']);
      expect(again.body).toEqual(first.body);
      const other = await api.call('POST', path, { token, body: bodyOf(id, 2, { connectionId }), headers });
      expect([other.status, other.body.code]).toEqual([409, 'conflict']);
      // Without the header, the same body is a second request: no replay.
      const plain = await api.call('POST', path, { token, body: bodyOf(id, 3, { connectionId }) });
      expect(plain.headers.get('idempotent-replayed')).toBeNull();
    },
  );
});
