import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Db } from '#functions/adapters/dynamo';
import { auditStore } from '#functions/adapters/audit-store';
import { WebhookEndpointCreate, WebhookEndpointUpdate } from '#shared/api/schemas/webhooks';
import { listEventTypes } from '#shared/domain/webhooks/catalog';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '#shared/domain/webhooks/endpoints';
import { EVENT_TYPE_NAMES } from '#shared/kernel/event-types';
import { ConflictError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { audit, principal, tenant } from '#tests/support/fixtures';
import { freshDb } from '#tests/support/db';
import { memorySecrets, webhookDeps } from '#tests/support/webhooks';
import { eventTypeCatalog } from '../../scripts/lib/event-types';

/**
 * Webhook endpoints on DynamoDB Local (docs/api.md, "Event subscriptions"): the catalog comes
 * from the declarations, bad input is refused before anything is stored, a tenant holds at most
 * 20 endpoints, the secret is shown once and kept only in the secret store, and a rotation keeps
 * the secret before for 24 hours.
 */

let db: Db;
const secrets = memorySecrets();
const START = '2031-05-01T09:00:00.000Z';
const clock: Clock & { set(iso: string): void } = (() => {
  let at = Date.parse(START);
  return { now: () => new Date(at), set: (iso: string) => void (at = Date.parse(iso)) };
})();
let deps: ReturnType<typeof webhookDeps>['api'];

const body = (over: Record<string, unknown> = {}) =>
  z.parse(WebhookEndpointCreate, {
    url: 'https://hooks.example.com/ops',
    event_types: ['exception.created'],
    ...over,
  });
const issues = (schema: z.ZodMiniType, input: unknown) => {
  const r = z.safeParse(schema, input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.code}`);
};

beforeAll(async () => {
  let stores;
  ({ db, stores } = await freshDb());
  deps = { ...webhookDeps(db, clock, secrets).api, allowLoopback: false };
  for (const t of [tA, tB]) await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
});
const tA = tenant();
const tB = tenant();
const owner = principal('owner-1', { [tA.id]: 'owner', [tB.id]: 'owner' });

describe('the event catalog', () => {
  it('lists every declared type with the JSON Schema of its data, as generated from the declarations', () => {
    const { items } = listEventTypes();
    expect(items.map((i) => i.type)).toEqual(EVENT_TYPE_NAMES);
    expect(items.map((i) => i.type)).toContain('webhook.test');
    // The generated file is current: npm run build:event-types writes what the declarations say.
    expect(items).toEqual(eventTypeCatalog());
    const exception = items.find((i) => i.type === 'exception.created')!.schema as {
      $defs: Record<string, { properties: Record<string, unknown> }>;
    };
    expect(Object.keys(exception.$defs.BusinessExceptionRead!.properties)).toContain('severity');
  });
});

describe('create', () => {
  it('answers the secret once; the read has none and the secret store has it', async () => {
    const created = await createEndpoint(deps, owner, tA.id, body());
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    const read = await getEndpoint(deps, tA.id, created.id);
    expect(read).toMatchObject({
      status: 'active',
      enabled: true,
      disabled_reason: null,
      secret_rotated_at: null,
    });
    expect(JSON.stringify(read)).not.toContain(created.secret);
    expect(read).not.toHaveProperty('secret_version');
    expect(secrets.entries.get(`${tA.id}/webhook_endpoint/${created.id}/v1`)).toEqual({
      secret: created.secret,
    });
  });

  it.each([
    ['http://hooks.example.com/x', 'not_https'],
    ['https://10.0.0.5/x', 'forbidden_target'],
    ['https://127.0.0.1/x', 'forbidden_target'],
    ['https://169.254.169.254/latest', 'forbidden_target'],
    ['https://[::ffff:10.0.0.1]/x', 'forbidden_target'],
    ['https://localhost/x', 'forbidden_target'],
  ])('refuses %s with 422 on url (%s), storing nothing', async (url, code) => {
    const t = tenant();
    const err = await createEndpoint(deps, owner, t.id, body({ url })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([expect.objectContaining({ path: 'url', code })]);
    expect((await listEndpoints(deps, t.id, { limit: 50 })).items).toEqual([]);
  });

  it('refuses unknown event types, none, and more than 50', () => {
    expect(
      issues(WebhookEndpointCreate, { url: 'https://a.example', event_types: ['exception.exploded'] }),
    ).toEqual(['event_types.0:invalid_value']);
    expect(issues(WebhookEndpointCreate, { url: 'https://a.example', event_types: [] })).toEqual([
      'event_types:too_small',
    ]);
    const many = Array.from({ length: 51 }, () => 'exception.created');
    expect(issues(WebhookEndpointCreate, { url: 'https://a.example', event_types: many })).toEqual([
      'event_types:too_big',
    ]);
    expect(
      issues(WebhookEndpointCreate, { url: 'https://a.example', event_types: ['*'], secret: 'x' }),
    ).toEqual([':unrecognized_keys']);
  });

  it('holds at most 20 endpoints a tenant: the 21st is 409 and stored nowhere; a delete frees a place', async () => {
    const t = tenant();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await createEndpoint(deps, owner, t.id, body())).id);
    const before = secrets.entries.size;
    const refused = await createEndpoint(deps, owner, t.id, body()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toBe('A tenant has at most 20 webhook endpoints.');
    expect((await listEndpoints(deps, t.id, { limit: 50 })).items).toHaveLength(20);
    expect(secrets.entries.size).toBe(before);
    await deleteEndpoint(deps, owner, t.id, ids[0]!);
    await expect(createEndpoint(deps, owner, t.id, body())).resolves.toMatchObject({ status: 'active' });
  });
});

describe('change and rotate', () => {
  it('checks a new URL, disables by enabled: false and re-enables by enabled: true', async () => {
    const e = await createEndpoint(deps, owner, tB.id, body());
    await expect(
      updateEndpoint(
        deps,
        owner,
        tB.id,
        e.id,
        z.parse(WebhookEndpointUpdate, { url: 'https://192.168.1.1/' }),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    const off = await updateEndpoint(deps, owner, tB.id, e.id, { enabled: false });
    expect(off).toMatchObject({ status: 'disabled', disabled_reason: 'manual' });
    const on = await updateEndpoint(deps, owner, tB.id, e.id, { enabled: true });
    expect(on).toMatchObject({ status: 'active', disabled_reason: null });
  });

  it('rotation: a new secret as the next version, the one before kept 24 hours, audited without the secret', async () => {
    const e = await createEndpoint(deps, owner, tB.id, body());
    const { secret } = await rotateSecret(deps, owner, tB.id, e.id);
    expect(secret).not.toBe(e.secret);
    const stored = await deps.endpoints.get(tB.id, e.id);
    expect(stored).toMatchObject({
      secret_version: 2,
      secret_rotated_at: START,
      previous_secret_until: '2031-05-02T09:00:00.000Z',
    });
    expect(secrets.entries.get(`${tB.id}/webhook_endpoint/${e.id}/v1`)).toEqual({ secret: e.secret });
    expect(secrets.entries.get(`${tB.id}/webhook_endpoint/${e.id}/v2`)).toEqual({ secret });
    await rotateSecret(deps, owner, tB.id, e.id);
    expect(secrets.entries.has(`${tB.id}/webhook_endpoint/${e.id}/v1`)).toBe(false);
    const events = (
      await auditStore(db).list(tB.id, { entity_type: 'webhook_endpoint', entity_id: e.id }, { limit: 50 })
    ).items;
    expect(events.map((a) => a.event_type).sort()).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.secret_rotated',
    ]);
    expect(JSON.stringify(events)).not.toContain(secret);
  });
});
