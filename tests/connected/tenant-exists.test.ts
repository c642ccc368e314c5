import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { Stores } from '#functions/adapters/stores';
import { tenantExistsIn } from '#functions/adapters/tenant-exists';
import { freshDb } from '#tests/support/db';
import { audit, tenant } from '#tests/support/fixtures';

/**
 * The platform admin's tenant check (functions/adapters/tenant-exists.ts) over DynamoDB Local:
 * a tenant that exists is found, any other id (also one named like an Object property) is not,
 * so an admin gets 404 for a tenant that does not exist rather than writing into it.
 */

let db: Db;
let stores: Stores;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

describe('tenantExistsIn', () => {
  it('finds a tenant that exists and no other', async () => {
    const t = tenant();
    await stores.tenants.createTenant(t, audit(t.id, 'tenant', t.id));
    const exists = tenantExistsIn(db);
    expect(await exists(t.id)).toBe(true);
    for (const id of [`${t.id}-x`, '__proto__', 'constructor', 'toString'])
      expect(await exists(id), id).toBe(false);
  });
});
