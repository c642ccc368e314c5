import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { auditStore } from '#functions/adapters/audit-store';
import type { WebhookEndpointCreate } from '#shared/api/schemas/webhooks';
import {
  createEndpoint,
  deleteEndpoint,
  endpointAudit,
  getEndpoint,
  rotateSecret,
  updateEndpoint,
} from '#shared/domain/webhooks/endpoints';
import type { StoredEndpoint } from '#shared/domain/webhooks/ports';
import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { principal, tenant } from '#tests/support/fixtures';
import { freshDb } from '#tests/support/db';
import { memorySecrets, webhookDeps } from '#tests/support/webhooks';
import type * as z from 'zod/mini';

/**
 * What an endpoint's change, delete and rotation store and audit, on DynamoDB Local
 * (docs/api.md, "Event subscriptions"): a PATCH writes only what it changes and nothing for a
 * change of nothing, a disabled endpoint keeps the reason the service gave until `enabled: true`
 * ends its run of failures, a URL is checked when it changes, a lost race is 409 or 404, and a
 * delete leaves no secret behind. webhook-endpoints.test.ts covers the create, the limit and the
 * rotation's overlap.
 */

let db: Db;
const secrets = memorySecrets();
const START = '2031-06-01T09:00:00.000Z';
let at = Date.parse(START);
const clock: Clock = { now: () => new Date(at) };
const later = (s: number) => void (at += s * 1000);
let deps: ReturnType<typeof webhookDeps>['api'];

beforeAll(async () => {
  ({ db } = await freshDb());
  deps = { ...webhookDeps(db, clock, secrets).api, allowLoopback: false };
});

const create = (tenantId: string, over: Partial<z.output<typeof WebhookEndpointCreate>> = {}) =>
  createEndpoint(deps, principal('owner-1', { [tenantId]: 'owner' }), tenantId, {
    url: 'https://hooks.example.com/ops?token=receiver-token',
    description: null,
    event_types: ['exception.created'],
    enabled: true,
    ...over,
  });
const owner = (tenantId: string) => principal('owner-1', { [tenantId]: 'owner' });

/** The endpoint's audit events, oldest first, with their metadata read back. */
async function audited(tenantId: string, id: string) {
  const { items } = await auditStore(db).list(
    tenantId,
    { entity_type: 'webhook_endpoint', entity_id: id },
    { limit: 50 },
  );
  return items
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id))
    .map((a) => ({
      event_type: a.event_type,
      summary: a.summary,
      metadata: a.metadata_json === null ? null : (JSON.parse(a.metadata_json) as unknown),
    }));
}

const secretVersions = (tenantId: string, id: string) =>
  [...secrets.entries.keys()].filter((k) => k.startsWith(`${tenantId}/webhook_endpoint/${id}/`)).sort();

/** Writes the endpoint as the service's delivery leaves it (disabled, its run of failures kept). */
async function disabledByService(tenantId: string, id: string, over: Partial<StoredEndpoint>) {
  const stored = (await deps.endpoints.get(tenantId, id))!;
  later(60);
  const next = { ...stored, updated_at: clock.now().toISOString(), ...over };
  expect(await deps.endpoints.update(next, stored.updated_at, null)).toBe(true);
  return next;
}

describe('create and the audit summary', () => {
  it('an endpoint created disabled is disabled by hand, its types once each, audited with them', async () => {
    const t = tenant();
    const e = await create(t.id, {
      enabled: false,
      event_types: ['task.overdue', 'task.overdue', 'exception.created'],
    });
    expect(e).toMatchObject({
      enabled: false,
      status: 'disabled',
      disabled_reason: 'manual',
      event_types: ['task.overdue', 'exception.created'],
    });
    expect(await audited(t.id, e.id)).toEqual([
      {
        event_type: 'webhook_endpoint.created',
        // The origin only: the receiver's token in the query stays out of the audit log.
        summary: 'https://hooks.example.com',
        metadata: { event_types: ['task.overdue', 'exception.created'], enabled: false },
      },
    ]);
  });

  it('summarises a URL that does not parse without its text', () => {
    const event = endpointAudit(
      clock,
      null,
      { tenant_id: 't', id: 'e', url: 'not a url token=x' },
      'disabled',
      {},
    );
    expect(event.summary).toBe('webhook endpoint');
  });

  it('refuses a URL with the reason and a sentence a person can read', async () => {
    const err = await create(tenant().id, { url: 'https://10.1.2.3/x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toBe('The endpoint URL is not allowed.');
  });
});

describe('change', () => {
  it('writes the fields it changes, its types once each, audited with the names of what changed', async () => {
    const t = tenant();
    const e = await create(t.id);
    later(60);
    const out = await updateEndpoint(deps, owner(t.id), t.id, e.id, {
      description: 'ops alerts',
      event_types: ['task.overdue', 'task.overdue'],
    });
    expect(out).toMatchObject({ description: 'ops alerts', event_types: ['task.overdue'], status: 'active' });
    expect(await getEndpoint(deps, t.id, e.id)).toEqual(out);
    expect(out.updated_at).toBe(clock.now().toISOString());
    expect((await audited(t.id, e.id)).at(-1)).toEqual({
      event_type: 'webhook_endpoint.updated',
      summary: 'https://hooks.example.com',
      metadata: { changed: ['description', 'event_types'], enabled: true },
    });
  });

  it('a change of nothing (the same values, or none given) writes nothing', async () => {
    const t = tenant();
    const e = await create(t.id, { description: 'same' });
    later(60);
    const same = await updateEndpoint(deps, owner(t.id), t.id, e.id, {
      description: 'same',
      event_types: ['exception.created', 'exception.created'],
      enabled: true,
      url: undefined,
    });
    const { secret: _s, ...read } = e;
    expect(same).toEqual(read);
    expect(await getEndpoint(deps, t.id, e.id)).toEqual(read);
    expect((await audited(t.id, e.id)).map((a) => a.event_type)).toEqual(['webhook_endpoint.created']);
  });

  it('checks a URL only when it changes: an unchanged one stays, whatever the check says now', async () => {
    const t = tenant();
    // Made where loopback targets are allowed (the local runtime); changed where they are not.
    const e = await createEndpoint({ ...deps, allowLoopback: true }, owner(t.id), t.id, {
      url: 'http://127.0.0.1:9/hooks',
      description: null,
      event_types: ['exception.created'],
      enabled: true,
    });
    await expect(
      updateEndpoint(deps, owner(t.id), t.id, e.id, { url: 'http://127.0.0.1:9/hooks', description: 'kept' }),
    ).resolves.toMatchObject({ url: 'http://127.0.0.1:9/hooks', description: 'kept' });
    await expect(
      updateEndpoint(deps, owner(t.id), t.id, e.id, { url: 'http://127.0.0.1:10/hooks' }),
    ).rejects.toBeInstanceOf(ValidationError);
  });

  it('a disabled endpoint keeps the reason the service gave; enabled: true ends its run of failures', async () => {
    const t = tenant();
    const e = await create(t.id);
    const failingSince = '2031-05-27T09:00:00.000Z';
    await disabledByService(t.id, e.id, {
      enabled: false,
      status: 'disabled',
      disabled_reason: 'failing',
      failing_since: failingSince,
    });
    later(60);
    expect(await updateEndpoint(deps, owner(t.id), t.id, e.id, { description: 'renamed' })).toMatchObject({
      enabled: false,
      status: 'disabled',
      disabled_reason: 'failing',
    });
    expect(await deps.endpoints.get(t.id, e.id)).toMatchObject({ failing_since: failingSince });
    // Disabling it by hand again changes nothing, not even its reason.
    expect(await updateEndpoint(deps, owner(t.id), t.id, e.id, { enabled: false })).toMatchObject({
      disabled_reason: 'failing',
    });

    later(60);
    expect(await updateEndpoint(deps, owner(t.id), t.id, e.id, { enabled: true })).toMatchObject({
      enabled: true,
      status: 'active',
      disabled_reason: null,
    });
    expect(await deps.endpoints.get(t.id, e.id)).toMatchObject({ failing_since: null });
    expect((await audited(t.id, e.id)).at(-1)).toEqual({
      event_type: 'webhook_endpoint.updated',
      summary: 'https://hooks.example.com',
      metadata: { changed: ['enabled'], enabled: true },
    });
  });

  it('re-enables a disabled endpoint whose enabled flag was left true, and audits enabled as changed', async () => {
    const t = tenant();
    const e = await create(t.id);
    await disabledByService(t.id, e.id, {
      status: 'disabled',
      disabled_reason: 'gone',
      failing_since: '2031-05-31T09:00:00.000Z',
    });
    later(60);
    expect(await updateEndpoint(deps, owner(t.id), t.id, e.id, { enabled: true })).toMatchObject({
      enabled: true,
      status: 'active',
      disabled_reason: null,
      updated_at: clock.now().toISOString(),
    });
    expect(await deps.endpoints.get(t.id, e.id)).toMatchObject({ failing_since: null });
    expect((await audited(t.id, e.id)).at(-1)?.metadata).toEqual({ changed: ['enabled'], enabled: true });
  });

  it('a change that lost a race to another is 409 and writes nothing of its own', async () => {
    const t = tenant();
    const e = await create(t.id);
    const racing = {
      ...deps,
      endpoints: {
        ...deps.endpoints,
        // Another PATCH lands between this one's read and its write.
        async get(tenantId: string, id: string) {
          const read = await deps.endpoints.get(tenantId, id);
          later(1);
          await updateEndpoint(deps, owner(tenantId), tenantId, id, { description: 'theirs' });
          return read;
        },
      },
    };
    const err = await updateEndpoint(racing, owner(t.id), t.id, e.id, { description: 'mine' }).catch(
      (x: unknown) => x,
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toBe('The endpoint changed meanwhile; read it again.');
    expect(await getEndpoint(deps, t.id, e.id)).toMatchObject({ description: 'theirs' });
  });
});

describe('delete and rotate', () => {
  it('an endpoint that is not there is 404, for a read and for a delete', async () => {
    const t = tenant();
    await expect(getEndpoint(deps, t.id, newId())).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteEndpoint(deps, owner(t.id), t.id, newId())).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a delete that another delete beat is 404', async () => {
    const t = tenant();
    const e = await create(t.id);
    const racing = {
      ...deps,
      endpoints: {
        ...deps.endpoints,
        async get(tenantId: string, id: string) {
          const read = await deps.endpoints.get(tenantId, id);
          await deleteEndpoint(deps, owner(tenantId), tenantId, id);
          return read;
        },
      },
    };
    await expect(deleteEndpoint(racing, owner(t.id), t.id, e.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await audited(t.id, e.id)).map((a) => a.event_type)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.deleted',
    ]);
  });

  it('a delete is audited with the types the endpoint had and leaves none of its secrets', async () => {
    const t = tenant();
    const fresh = await create(t.id, { event_types: ['task.overdue'] });
    expect(secretVersions(t.id, fresh.id)).toHaveLength(1);
    await deleteEndpoint(deps, owner(t.id), t.id, fresh.id);
    expect(secretVersions(t.id, fresh.id)).toEqual([]);
    expect((await audited(t.id, fresh.id)).at(-1)).toEqual({
      event_type: 'webhook_endpoint.deleted',
      summary: 'https://hooks.example.com',
      metadata: { event_types: ['task.overdue'] },
    });

    // Rotated twice, within the overlap: the two versions that still sign are both deleted.
    const rotated = await create(t.id);
    await rotateSecret(deps, owner(t.id), t.id, rotated.id);
    later(1);
    await rotateSecret(deps, owner(t.id), t.id, rotated.id);
    expect(secretVersions(t.id, rotated.id)).toEqual([
      `${t.id}/webhook_endpoint/${rotated.id}/v2`,
      `${t.id}/webhook_endpoint/${rotated.id}/v3`,
    ]);
    await deleteEndpoint(deps, owner(t.id), t.id, rotated.id);
    expect(secretVersions(t.id, rotated.id)).toEqual([]);
  });

  it('a rotation is audited with when the secret before stops signing', async () => {
    const t = tenant();
    const e = await create(t.id);
    later(60);
    await rotateSecret(deps, owner(t.id), t.id, e.id);
    expect((await audited(t.id, e.id)).at(-1)).toEqual({
      event_type: 'webhook_endpoint.secret_rotated',
      summary: 'https://hooks.example.com',
      metadata: { previous_signs_until: new Date(at + 24 * 3600 * 1000).toISOString() },
    });
  });
});
