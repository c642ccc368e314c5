import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { PASSWORD, SAMPLE_BODIES, type Seeded, seedTenant } from '#tests/support/e2e';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/**
 * A change that changes nothing is not a change: every PATCH route of the manifest, sent a field
 * (or all of them) set to what it is, answers 200 with the record as it is, and the record, its
 * `updated_at` and the tenant's audit log read the same afterwards. Generated from the manifest:
 * a PATCH route added later fails the first test, by name, until it has a case here.
 */

let rt: TestRuntime;
let s: Seeded;
beforeAll(async () => {
  rt = await startRuntime({ OPS_LOCAL_QUIET: '1' });
  s = await seedTenant(rt);
}, 60_000);
afterAll(() => rt?.stop());

type Rec = Record<string, unknown>;
interface PatchCase {
  /** A fresh record: the PATCH path and how to read the record back. */
  make(): Promise<{ path: string; read(): Promise<Rec> }>;
  /** Bodies naming current values, by what they name. */
  bodies(current: Rec): [string, Rec][];
}

const base = () => `/tenants/${s.tenantId}`;
const call = (method: string, path: string, body?: unknown) =>
  s.api.call(method, path, { token: s.adminToken, body });
const created = async (path: string, body: unknown) => {
  const r = await call('POST', `${base()}${path}`, body);
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Rec;
};
const getter = (path: string) => async () => (await call('GET', path)).body as Rec;
/** Each field alone, then all of them at once. */
const eachAndAll = (current: Rec, fields: string[], extra: Rec = {}): [string, Rec][] => [
  ...fields.map((f): [string, Rec] => [f, { ...extra, [f]: current[f] }]),
  ['every field', { ...extra, ...Object.fromEntries(fields.map((f) => [f, current[f]])) }],
];

const CASES: Record<string, PatchCase> = {
  'tenants.update': {
    async make() {
      // The seeded tenant itself: its audit log is the one counted.
      const path = base();
      await call('PATCH', path, { timezone: 'Europe/Berlin' });
      return { path, read: getter(path) };
    },
    bodies: (current) => eachAndAll(current, ['name', 'timezone']),
  },
  'members.update': {
    async make() {
      const m = await created('/members', {
        email: `m-${Date.now()}@example.test`,
        display_name: 'M',
        role: 'accountant',
        password: PASSWORD,
      });
      const path = `${base()}/members/${m.user_id}`;
      const read = async () =>
        ((await call('GET', `${base()}/members?limit=100`)).body.items as Rec[]).find(
          (x) => x.user_id === m.user_id,
        )!;
      return { path, read };
    },
    bodies: (current) => eachAndAll(current, ['role']),
  },
  'tasks.update': {
    async make() {
      const t = await created('/tasks', {
        ...(SAMPLE_BODIES['tasks.create'] as object),
        description: 'Ask for the statement',
        assignee_id: s.members.operator.user_id,
        due_at: '2031-01-01T10:00:00Z',
      });
      const path = `${base()}/tasks/${t.id}`;
      return { path, read: getter(path) };
    },
    bodies: (current) =>
      eachAndAll(current, ['title', 'description', 'assignee_role', 'assignee_id', 'due_at']),
  },
  'workflowRules.update': {
    async make() {
      const r = await created('/workflow-rules', SAMPLE_BODIES['workflowRules.create']);
      const path = `${base()}/workflow-rules/${r.id}`;
      return { path, read: getter(path) };
    },
    bodies: (current) =>
      eachAndAll(current, ['name', 'trigger', 'conditions', 'actions', 'enabled'], {
        version: current.version,
      }),
  },
  'escalationPolicies.update': {
    async make() {
      const p = await created('/escalation-policies', {
        ...(SAMPLE_BODIES['escalationPolicies.create'] as object),
        ack_timeout_minutes: 30,
      });
      const path = `${base()}/escalation-policies/${p.id}`;
      return { path, read: getter(path) };
    },
    bodies: (current) =>
      eachAndAll(
        current,
        ['name', 'priority', 'match', 'levels', 'repeat', 'ack_timeout_minutes', 'enabled'],
        { version: current.version },
      ),
  },
  'webhookEndpoints.update': {
    async make() {
      const e = await created('/webhook-endpoints', SAMPLE_BODIES['webhookEndpoints.create']);
      const path = `${base()}/webhook-endpoints/${e.id}`;
      return { path, read: getter(path) };
    },
    bodies: (current) => eachAndAll(current, ['url', 'description', 'event_types', 'enabled']),
  },
  'integrationConnections.update': {
    async make() {
      const c = await created('/integration-connections', {
        adapter_key: 'crm',
        name: `CRM ${Date.now()}`,
        config: { workspace: 'acme' },
        mapping: { number: 'Ref', amount: 'Total' },
      });
      const path = `${base()}/integration-connections/${c.id}`;
      return { path, read: getter(path) };
    },
    bodies: (current) => [
      ...eachAndAll(current, ['status', 'name', 'scopes', 'config', 'mapping']),
      ['secret: null without a secret', { secret: null }],
    ],
  },
};

const patchRoutes = (Object.entries(OPERATIONS) as [string, Operation][]).filter(
  ([, op]) => op.method === 'PATCH',
);

const auditCount = async () =>
  ((await call('GET', `${base()}/audit-events?limit=100`)).body.items as unknown[]).length;

describe('a PATCH that changes nothing, on every PATCH route', () => {
  it('every PATCH route of the manifest has a case here', () => {
    expect(patchRoutes.map(([id]) => id).filter((id) => !CASES[id])).toEqual([]);
    expect(patchRoutes.length).toBeGreaterThanOrEqual(4);
  });

  for (const [id] of patchRoutes) {
    it(`${id}: each field set to what it is answers 200 and writes nothing`, async () => {
      const c = CASES[id];
      if (!c) throw new Error(`no case for ${id}`);
      // Fresh per route, so that the audit log counts this route's writes only.
      const { path, read } = await c.make();
      const before = await read();
      expect(before).toBeDefined();
      for (const [what, body] of c.bodies(before)) {
        const audits = await auditCount();
        const r = await call('PATCH', path, body);
        expect([what, r.status]).toEqual([what, 200]);
        expect(r.body, what).toEqual(before);
        expect(await read(), what).toEqual(before);
        expect(await auditCount(), what).toBe(audits);
      }
    }, 60_000);
  }
});
