import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import type { Connection } from '#shared/domain/integrations/ports';
import { newId } from '#shared/kernel/ids';
import { adapterConnection } from '#shared/table/entities/adapter-connection';
import { freshDb } from '#tests/support/db';
import { audit } from '#tests/support/fixtures';

/**
 * The connection store's answers over DynamoDB Local (functions/adapters/connection-store.ts):
 * which outcome each refused write names, who holds an adapter's claim after each write, and
 * which active connection each query finds. The use cases map both refusals to 409, so the store's
 * exact answer and the claim are read here.
 */

let db: Db;
beforeAll(async () => {
  ({ db } = await freshDb());
});

const newTenant = () => `t-${newId().slice(-12)}`;
let tick = Date.parse('2026-11-01T00:00:00.000Z');
const stamp = () => new Date((tick += 1000)).toISOString();

const connection = (
  tenantId: string,
  adapter_key: string,
  category: Connection['category'] = 'accounting',
  status: Connection['status'] = 'active',
): Connection => {
  const now = stamp();
  return {
    id: newId(),
    tenant_id: tenantId,
    adapter_key,
    category,
    name: `${adapter_key} connection`,
    status,
    scopes: [],
    config: {},
    mapping: {},
    secret_configured: false,
    schedule: null,
    created_at: now,
    updated_at: now,
  };
};

/** The connection changed as the hub changes it: a new `updated_at`. */
const changed = (c: Connection, patch: Partial<Connection>): Connection => ({
  ...c,
  ...patch,
  updated_at: stamp(),
});

/** Who holds the tenant's adapter: the claim item as stored, or undefined. */
const claimOf = async (tenantId: string, adapterKey: string) => {
  const item = (
    await db.doc.send(
      new GetCommand({
        TableName: db.tableName,
        Key: adapterConnection.key({ tenant_id: tenantId, adapter_key: adapterKey }),
      }),
    )
  ).Item;
  return item && { connection_id: item.connection_id, status: item.status };
};

const store = () => connectionStore(db);
const create = async (c: Connection) => {
  expect(await store().create(c, audit(c.tenant_id, 'integration_connection', c.id))).toBe('written');
  return c;
};
const update = (next: Connection, previous: Connection) =>
  store().update(next, previous, audit(next.tenant_id, 'integration_connection', next.id));
const remove = (previous: Connection) =>
  store().remove(previous, audit(previous.tenant_id, 'integration_connection', previous.id));

describe('create', () => {
  it('a second active connection of an adapter is adapter_taken; a reused id is an error, not a taken adapter', async () => {
    const tenantId = newTenant();
    const a = await create(connection(tenantId, 'ledgerly'));
    const b = connection(tenantId, 'ledgerly');
    expect(await store().create(b, audit(tenantId))).toBe('adapter_taken');
    expect(await store().get(tenantId, b.id)).toBeUndefined();
    const sameId = { ...connection(tenantId, 'tallybook'), id: a.id };
    await expect(store().create(sameId, audit(tenantId))).rejects.toThrow(
      'integration connection id collision',
    );
    expect(await store().get(tenantId, a.id)).toEqual(a);
    expect(await claimOf(tenantId, 'ledgerly')).toEqual({ connection_id: a.id, status: 'active' });
    expect(await claimOf(tenantId, 'tallybook')).toBeUndefined();
  });
});

describe('update', () => {
  it('names each outcome: written, adapter_taken, changed; the claim follows the active connection', async () => {
    const tenantId = newTenant();
    const a0 = await create(connection(tenantId, 'ledgerly'));
    const a1 = changed(a0, { status: 'disabled' });
    expect(await update(a1, a0)).toBe('written');
    // A disabled connection keeps its claim until another one becomes active.
    expect(await claimOf(tenantId, 'ledgerly')).toEqual({ connection_id: a0.id, status: 'disabled' });
    const b = await create(connection(tenantId, 'ledgerly'));
    expect(await claimOf(tenantId, 'ledgerly')).toEqual({ connection_id: b.id, status: 'active' });

    expect(await update(changed(a1, { status: 'active' }), a1)).toBe('adapter_taken');
    // A change that keeps the status does not touch the claim another connection holds.
    const a2 = changed(a1, { name: 'renamed while disabled' });
    expect(await update(a2, a1)).toBe('written');
    expect(await store().get(tenantId, a0.id)).toEqual(a2);
    expect(await claimOf(tenantId, 'ledgerly')).toEqual({ connection_id: b.id, status: 'active' });

    // Over a stale read: changed, also when the adapter is taken besides.
    expect(await update(changed(a1, { name: 'stale' }), a1)).toBe('changed');
    expect(await update(changed(a1, { status: 'active' }), a1)).toBe('changed');
    expect(await store().get(tenantId, a0.id)).toEqual(a2);

    // Once the holder is disabled, the other one takes the adapter.
    const b1 = changed(b, { status: 'disabled' });
    expect(await update(b1, b)).toBe('written');
    const a3 = changed(a2, { status: 'active' });
    expect(await update(a3, a2)).toBe('written');
    expect(await claimOf(tenantId, 'ledgerly')).toEqual({ connection_id: a0.id, status: 'active' });
  });
});

describe('remove', () => {
  it("releases its own claim, leaves another connection's, and removes a connection with no claim", async () => {
    const tenantId = newTenant();
    const a0 = await create(connection(tenantId, 'ledgerly'));
    const a1 = changed(a0, { status: 'disabled' });
    expect(await update(a1, a0)).toBe('written');
    const b = await create(connection(tenantId, 'ledgerly'));
    const c = await create(connection(tenantId, 'tallybook'));

    expect(await remove(a0)).toBe(false); // a stale read removes nothing
    expect(await store().get(tenantId, a0.id)).toEqual(a1);

    expect(await remove(b)).toBe(true);
    expect(await store().get(tenantId, b.id)).toBeUndefined();
    expect(await claimOf(tenantId, 'ledgerly')).toBeUndefined();
    // a1 holds no claim now (b took it, and it went with b).
    expect(await remove(a1)).toBe(true);
    expect(await store().get(tenantId, a0.id)).toBeUndefined();

    const d = changed(c, { status: 'disabled' });
    expect(await update(d, c)).toBe('written');
    const e = await create(connection(tenantId, 'tallybook'));
    expect(await remove(d)).toBe(true);
    expect(await claimOf(tenantId, 'tallybook')).toEqual({ connection_id: e.id, status: 'active' });
  });
});

describe('findActive', () => {
  it('by category: the first created active connection of the category, whichever adapter', async () => {
    const tenantId = newTenant();
    await create(connection(tenantId, 'telegram', 'notification'));
    // Created first, but the table's query answers the claims by adapter, tallybook's first.
    const ledger = await create(connection(tenantId, 'ledgerly'));
    await create(connection(tenantId, 'tallybook'));
    expect((await store().findActive(tenantId, { category: 'accounting' }))?.id).toBe(ledger.id);

    const other = newTenant();
    const off = await create(connection(other, 'tallybook'));
    expect(await update(changed(off, { status: 'disabled' }), off)).toBe('written');
    const on = await create(connection(other, 'ledgerly'));
    expect((await store().findActive(other, { category: 'accounting' }))?.id).toBe(on.id);
    expect(await store().findActive(other, { category: 'notification' })).toBeUndefined();
    expect(await store().findActive(other, { adapter_key: 'tallybook' })).toBeUndefined();
    expect((await store().findActive(other, { adapter_key: 'ledgerly' }))?.id).toBe(on.id);
  });
});

describe('list', () => {
  it('filters by status and adapter; a cursor serves only the list and filter it came from', async () => {
    const tenantId = newTenant();
    const a = await create(connection(tenantId, 'ledgerly'));
    const b = await create(connection(tenantId, 'tallybook'));
    const off = changed(b, { status: 'disabled' });
    expect(await update(off, b)).toBe('written');
    const c = await create(connection(tenantId, 'telegram', 'notification'));

    const ids = async (filter: Parameters<ReturnType<typeof store>['list']>[1]) =>
      (await store().list(tenantId, filter, { limit: 10 })).items.map((i) => i.id);
    // Newest first.
    expect(await ids({})).toEqual([c.id, b.id, a.id]);
    expect(await ids({ status: 'active' })).toEqual([c.id, a.id]);
    expect(await ids({ status: 'disabled' })).toEqual([b.id]);
    expect(await ids({ adapter_key: 'ledgerly' })).toEqual([a.id]);

    const first = await store().list(tenantId, { status: 'active' }, { limit: 1 });
    expect(first.items.map((i) => i.id)).toEqual([c.id]);
    const cursor = first.next_cursor!;
    expect((await store().list(tenantId, { status: 'active' }, { limit: 10, cursor })).items).toEqual([a]);
    await expect(store().list(tenantId, {}, { limit: 10, cursor })).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
    await expect(
      store().list(newTenant(), { status: 'active' }, { limit: 10, cursor }),
    ).rejects.toMatchObject({
      code: 'invalid_cursor',
    });
  });
});

describe('the requests it makes', () => {
  it('reads consistently (the claim decides a write), and neither reads nor writes the claim for a change that keeps the status', async () => {
    const sent: { name: string; input: Record<string, unknown> }[] = [];
    const recording: Db = {
      ...db,
      doc: {
        send: (c: { constructor: { name: string }; input: Record<string, unknown> }) => {
          sent.push({ name: c.constructor.name, input: c.input });
          return db.doc.send(c as never);
        },
      } as unknown as Db['doc'],
    };
    const s = connectionStore(recording);
    const tenantId = newTenant();
    const a0 = connection(tenantId, 'ledgerly');
    expect(await s.create(a0, audit(tenantId))).toBe('written');
    await s.get(tenantId, a0.id);
    await s.findActive(tenantId, { adapter_key: 'ledgerly' });
    const gets = sent.filter((c) => c.name === 'GetCommand');
    expect(gets).toHaveLength(3);
    for (const get of gets) expect(get.input.ConsistentRead).toBe(true);
    sent.length = 0;
    const a1 = changed(a0, { name: 'renamed' });
    expect(await s.update(a1, a0, audit(tenantId))).toBe('written');
    // The connection and its audit event only: the claim it holds is neither read nor rewritten.
    expect(sent.map((c) => [c.name, (c.input.TransactItems as unknown[] | undefined)?.length])).toEqual([
      ['TransactWriteCommand', 2],
    ]);
    const a2 = changed(a1, { status: 'disabled' });
    expect(await s.update(a2, a1, audit(tenantId))).toBe('written');
    expect(await s.remove(a2, audit(tenantId))).toBe(true);
    expect(sent.map((c) => c.name)).toEqual([
      'TransactWriteCommand',
      'GetCommand',
      'TransactWriteCommand',
      'GetCommand',
      'TransactWriteCommand',
    ]);
  });
});
