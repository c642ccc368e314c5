import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Db } from '#functions/adapters/dynamo';
import { WebhookEndpointRead } from '#shared/api/schemas/webhook-responses';
import { WebhookEndpointCreate } from '#shared/api/schemas/webhooks';
import {
  createEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '#shared/domain/webhooks/endpoints';
import type { Clock } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { audit, principal, tenant } from '#tests/support/fixtures';
import { memorySecrets, webhookDeps } from '#tests/support/webhooks';

/**
 * A webhook endpoint as the list answers it (docs/api.md, "Event subscriptions"): exactly the
 * fields of `WebhookEndpointRead`, written out here, the same as the endpoint's own read, and
 * nothing of its secret or of the fields the item keeps for the service (the secret's version,
 * the rotation's overlap, the start of a run of failures). Held on DynamoDB Local, not only by
 * the OpenAPI document's check of the e2e answers.
 */

const FIELDS = [
  'created_at',
  'description',
  'disabled_reason',
  'enabled',
  'event_types',
  'id',
  'secret_rotated_at',
  'status',
  'tenant_id',
  'updated_at',
  'url',
];

let db: Db;
const secrets = memorySecrets();
const clock: Clock = { now: () => new Date('2031-06-01T09:00:00.000Z') };
const t = tenant();
const owner = principal('owner-1', { [t.id]: 'owner' });

beforeAll(async () => {
  let stores;
  ({ db, stores } = await freshDb());
  await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
});

describe('a webhook list item', () => {
  it('is exactly the read fields, equal to the endpoint read, with nothing of the secret', async () => {
    const deps = { ...webhookDeps(db, clock, secrets).api, allowLoopback: false };
    const create = (over: Record<string, unknown>) =>
      createEndpoint(
        deps,
        owner,
        t.id,
        z.parse(WebhookEndpointCreate, {
          url: 'https://hooks.example.com/ops',
          event_types: ['exception.created'],
          ...over,
        }),
      );
    const plain = await create({});
    const rotated = await create({ description: 'Orders' });
    const rotation = await rotateSecret(deps, owner, t.id, rotated.id);
    const disabled = await create({});
    await updateEndpoint(deps, owner, t.id, disabled.id, { enabled: false });

    const { items } = await listEndpoints(deps, t.id, { limit: 50 });
    expect(items.map((i) => i.id).sort()).toEqual([plain.id, rotated.id, disabled.id].sort());
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(FIELDS);
      expect(z.safeParse(z.strictObject(WebhookEndpointRead.shape), item).success).toBe(true);
      expect(item).toEqual(await getEndpoint(deps, t.id, item.id));
      const text = JSON.stringify(item);
      for (const secret of [plain.secret, rotated.secret, rotation.secret, disabled.secret])
        expect(text).not.toContain(secret);
    }
    const byId = Object.fromEntries(items.map((i) => [i.id, i]));
    expect(byId[rotated.id]).toMatchObject({
      description: 'Orders',
      secret_rotated_at: clock.now().toISOString(),
    });
    expect(byId[disabled.id]).toMatchObject({
      enabled: false,
      status: 'disabled',
      disabled_reason: 'manual',
    });
  });
});
