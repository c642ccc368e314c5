import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { hubStore } from '#functions/adapters/hub-store';
import type { createStores } from '#functions/adapters/stores';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import {
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  updateConnection,
} from '#shared/domain/integrations/connections';
import type { ConnectionRead, ConnectionSecrets } from '#shared/domain/integrations/ports';
import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { newId, systemClock } from '#shared/kernel/ids';
import { freshDb } from '#tests/support/db';
import { drain, principal } from '#tests/support/fixtures';

let db: Db;
let stores: ReturnType<typeof createStores>;
beforeAll(async () => {
  ({ db, stores } = await freshDb());
});

const manager = principal('manager-1', {}, true);
const secrets = localConnectionSecrets(undefined);
const deps = () => ({
  connections: connectionStore(db),
  secrets,
  hub: hubStore(db),
  clock: systemClock,
  allowLoopback: false,
});
const newTenant = () => `t-${newId().slice(-12)}`;
const botToken = () => `987654:${newId().replace(/-/g, '')}x`;
const LEDGERLY_CONFIG = {
  organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
  region: 'eu',
  base_currency: 'EUR',
  sales_account_code: '200',
  payment_account_code: '090',
};

/** Every item of the table, as DynamoDB holds it. */
const wholeTable = async () =>
  JSON.stringify((await db.doc.send(new ScanCommand({ TableName: db.tableName }))).Items);

const auditOf = (tenantId: string, id: string) =>
  drain((cursor) =>
    stores.audit.list(
      tenantId,
      { entity_type: 'integration_connection', entity_id: id },
      { limit: 100, cursor },
    ),
  );

describe('integration connections over DynamoDB Local', () => {
  it('keeps the secret out of the table and the audit log, and in private storage', async () => {
    const tenantId = newTenant();
    const first = botToken();
    const created = await createConnection(deps(), manager, tenantId, {
      adapter_key: 'telegram',
      name: 'Ops bot',
      secret: { bot_token: first },
    });
    expect(created).toMatchObject({ status: 'active', secret_configured: true, scopes: ['messages.send'] });
    expect(JSON.stringify(created)).not.toContain(first);
    expect(await secrets.read(tenantId, created.id)).toEqual({ bot_token: first });

    const second = botToken();
    const patched = await updateConnection(deps(), manager, tenantId, created.id, {
      name: 'Ops bot 2',
      secret: { bot_token: second },
    });
    expect(JSON.stringify(patched)).not.toContain(second);
    expect(await secrets.read(tenantId, created.id)).toEqual({ bot_token: second });

    const table = await wholeTable();
    expect(table).toContain(created.id);
    expect(table).not.toContain(first);
    expect(table).not.toContain(second);
    const events = await auditOf(tenantId, created.id);
    expect(events.map((e) => e.event_type).sort()).toEqual([
      'integration_connection.created',
      'integration_connection.updated',
    ]);
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`${first}|${second}`));

    const cleared = await updateConnection(deps(), manager, tenantId, created.id, { secret: null });
    expect(cleared.secret_configured).toBe(false);
    expect(await secrets.read(tenantId, created.id)).toBeUndefined();
  });

  it('keeps one active connection per tenant and adapter; disabling frees it', async () => {
    const tenantId = newTenant();
    const input = {
      adapter_key: 'email',
      name: 'Billing mail',
      config: { from_address: 'billing@acme.example' },
    };
    const a = await createConnection(deps(), manager, tenantId, input);
    await expect(createConnection(deps(), manager, tenantId, input)).rejects.toBeInstanceOf(ConflictError);

    await updateConnection(deps(), manager, tenantId, a.id, { status: 'disabled' });
    const b = await createConnection(deps(), manager, tenantId, { ...input, name: 'New mail' });
    await expect(
      updateConnection(deps(), manager, tenantId, a.id, { status: 'active' }),
    ).rejects.toBeInstanceOf(ConflictError);
    const reader = activeConnectionReader(connectionStore(db), secrets);
    expect((await reader.findActiveConnection(tenantId, { adapter_key: 'email' }))?.connection.id).toBe(b.id);
    expect(await reader.findActiveConnection(tenantId, { id: a.id })).toBeUndefined();

    await deleteConnection(deps(), manager, tenantId, b.id);
    expect(await reader.findActiveConnection(tenantId, { adapter_key: 'email' })).toBeUndefined();
    await updateConnection(deps(), manager, tenantId, a.id, { status: 'active' });
    expect((await reader.findActiveConnection(tenantId, { adapter_key: 'email' }))?.connection.id).toBe(a.id);
  });

  it('finds the active accounting connection by category and id, with its secret on demand', async () => {
    const tenantId = newTenant();
    const secret = { client_id: `client-${newId()}`, client_secret: `secret-${newId()}` };
    const ledger = await createConnection(deps(), manager, tenantId, {
      adapter_key: 'ledgerly',
      name: 'Books',
      config: LEDGERLY_CONFIG,
      secret,
    });
    const reader = activeConnectionReader(connectionStore(db), secrets);
    const found = await reader.findActiveConnection(tenantId, { category: 'accounting' });
    expect(found?.connection).toMatchObject({
      id: ledger.id,
      category: 'accounting',
      config: LEDGERLY_CONFIG,
    });
    expect(await found?.secret()).toEqual(secret);
    expect((await reader.findActiveConnection(tenantId, { id: ledger.id }))?.connection.id).toBe(ledger.id);
    expect(await reader.findActiveConnection(newTenant(), { category: 'accounting' })).toBeUndefined();
  });

  it('writes nothing for a refused connection', async () => {
    const tenantId = newTenant();
    const before = await wholeTable();
    await expect(
      createConnection(deps(), manager, tenantId, {
        adapter_key: 'ledgerly',
        name: 'Books',
        scopes: ['invoices.write', 'payroll.write'],
        config: { ...LEDGERLY_CONFIG, region: 'mars' },
      }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(await wholeTable()).toBe(before);
  });

  it('deletes the connection and its secret; then it is not found', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, {
      adapter_key: 'crm',
      name: 'CRM',
      config: { workspace: 'acme' },
      secret: { api_key: `key-${newId()}` },
    });
    await deleteConnection(deps(), manager, tenantId, c.id);
    expect(await secrets.read(tenantId, c.id)).toBeUndefined();
    await expect(getConnection(deps(), tenantId, c.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await auditOf(tenantId, c.id)).map((e) => e.event_type)).toContain(
      'integration_connection.deleted',
    );
  });
});

/** The real secret store, with the ids it was asked to store a secret under. */
const recordingSecrets = () => {
  const putIds: string[] = [];
  const wrapped: ConnectionSecrets = {
    put: (tenantId, id, secret) => {
      putIds.push(id);
      return secrets.put(tenantId, id, secret);
    },
    read: (tenantId, id) => secrets.read(tenantId, id),
    delete: (tenantId, id) => secrets.delete(tenantId, id),
  };
  return { putIds, wrapped };
};
const fieldErrors = async (p: Promise<unknown>) => {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  return (err as ValidationError).errors;
};
const CRM = { adapter_key: 'crm', name: 'CRM', config: { workspace: 'acme' } };

describe('connection use cases, field by field', () => {
  it('creates with the default scopes, an empty mapping and unknown health, and audits what it stored without the secret', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, CRM);
    expect(c).toEqual({
      id: c.id,
      tenant_id: tenantId,
      adapter_key: 'crm',
      name: 'CRM',
      status: 'active',
      scopes: [...adapterByKey('crm')!.scopes.default],
      config: { workspace: 'acme' },
      mapping: {},
      secret_configured: false,
      schedule: null,
      created_at: c.created_at,
      updated_at: c.created_at,
      health: expect.objectContaining({ state: 'unknown', open_issues: 0 }),
    });
    const [created] = await auditOf(tenantId, c.id);
    expect(created).toMatchObject({
      event_type: 'integration_connection.created',
      actor_id: manager.user_id,
      summary: 'crm connection CRM',
      metadata_json: JSON.stringify({
        adapter_key: 'crm',
        name: 'CRM',
        status: 'active',
        scopes: c.scopes,
        config: { workspace: 'acme' },
        mapping: {},
        private_settings: 'none',
        schedule: null,
      }),
    });
    expect(await getConnection(deps(), tenantId, c.id)).toMatchObject({ id: c.id, category: 'crm' });
  });

  it('names every failing field and scope in one 422, on create and on update; an unknown adapter or an empty patch is a 422 too', async () => {
    const tenantId = newTenant();
    const bad = {
      scopes: ['contacts.read', 'ledger.delete'],
      config: { workspace: 'acme', surprise: true },
      secret: { api_key: 'short' },
    };
    const paths = (errors: { path: string }[] | undefined) => (errors ?? []).map((e) => e.path).sort();
    expect(paths(await fieldErrors(createConnection(deps(), manager, tenantId, { ...CRM, ...bad })))).toEqual(
      ['config.surprise', 'scopes', 'secret.api_key'],
    );
    expect(
      await fieldErrors(createConnection(deps(), manager, tenantId, { ...CRM, adapter_key: 'nope' })),
    ).toEqual([
      { path: 'adapter_key', code: 'unknown_adapter', message: 'no adapter nope; GET /adapters lists them' },
    ]);
    const c = await createConnection(deps(), manager, tenantId, CRM);
    expect(paths(await fieldErrors(updateConnection(deps(), manager, tenantId, c.id, bad)))).toEqual([
      'config.surprise',
      'scopes',
      'secret.api_key',
    ]);
    expect(await fieldErrors(updateConnection(deps(), manager, tenantId, c.id, {}))).toEqual([
      { path: '', code: 'empty_patch', message: 'name at least one field to change' },
    ]);
    await expect(updateConnection(deps(), manager, tenantId, newId(), { name: 'x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await getConnection(deps(), tenantId, c.id)).updated_at).toBe(c.updated_at);
  });

  it('removes the secret of a connection refused as a second active one of its adapter', async () => {
    const tenantId = newTenant();
    const { putIds, wrapped } = recordingSecrets();
    const withSecret = { ...CRM, secret: { api_key: `key-${newId()}` } };
    await createConnection({ ...deps(), secrets: wrapped }, manager, tenantId, withSecret);
    const err = await createConnection({ ...deps(), secrets: wrapped }, manager, tenantId, withSecret).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).message).toBe(
      'This tenant already has an active crm connection; disable it first (PATCH status disabled).',
    );
    expect(putIds).toHaveLength(2);
    expect(await secrets.read(tenantId, putIds[0]!)).toEqual(withSecret.secret);
    expect(await secrets.read(tenantId, putIds[1]!)).toBeUndefined();
  });

  it('audits a status move as status_changed and any other change as updated, naming what changed', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, {
      ...CRM,
      secret: { api_key: `key-${newId()}` },
    });
    const renamed = await updateConnection(deps(), manager, tenantId, c.id, {
      name: 'CRM 2',
      mapping: { number: 'Ref' },
    });
    expect(renamed).toMatchObject({
      name: 'CRM 2',
      mapping: { number: 'Ref' },
      status: 'active',
      scopes: c.scopes,
      config: c.config,
      secret_configured: true,
      health: expect.objectContaining({ state: 'unknown' }),
    });
    const disabled = await updateConnection(deps(), manager, tenantId, c.id, { status: 'disabled' });
    expect(disabled).toMatchObject({ status: 'disabled', name: 'CRM 2', mapping: { number: 'Ref' } });
    const events = await auditOf(tenantId, c.id);
    const updated = events.find((e) => e.event_type === 'integration_connection.updated')!;
    expect(updated).toMatchObject({ actor_id: manager.user_id, summary: 'changed mapping, name' });
    expect(JSON.parse(updated.metadata_json!)).toMatchObject({
      changed: ['mapping', 'name'],
      from: 'active',
      name: 'CRM 2',
      private_settings: 'set',
    });
    const moved = events.find((e) => e.event_type === 'integration_connection.status_changed')!;
    expect(moved).toMatchObject({ summary: 'active -> disabled' });
    expect(JSON.parse(moved.metadata_json!)).toMatchObject({
      changed: ['status'],
      from: 'active',
      status: 'disabled',
    });
  });

  it('answers the health from the health record, on update and in the list', async () => {
    const tenantId = newTenant();
    const a = await createConnection(deps(), manager, tenantId, CRM);
    const b = await createConnection(deps(), manager, tenantId, {
      adapter_key: 'email',
      name: 'Mail',
      config: { from_address: 'ops@acme.example' },
    });
    await hubStore(db).recordResult(tenantId, a.id, { ok: true, at: new Date().toISOString() });
    expect((await updateConnection(deps(), manager, tenantId, a.id, { name: 'CRM 3' })).health.state).toBe(
      'healthy',
    );
    const listed = await listConnections(deps(), tenantId, {}, { limit: 10 });
    expect(listed.next_cursor).toBeNull();
    expect(listed.items.map((c) => [c.id, c.name, c.health.state, 'category' in c]).sort()).toEqual(
      [
        [a.id, 'CRM 3', 'healthy', false],
        [b.id, 'Mail', 'unknown', false],
      ].sort(),
    );
    const page = await listConnections(deps(), tenantId, {}, { limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(page.next_cursor).not.toBeNull();
  });

  it('lets a webhook target loopback only where the deployment allows it (the local runtime), on create and on update', async () => {
    const tenantId = newTenant();
    const loopback = { adapter_key: 'webhook', name: 'Hook', config: { url: 'http://127.0.0.1:4000/hooks' } };
    expect(await fieldErrors(createConnection(deps(), manager, tenantId, loopback))).toEqual([
      expect.objectContaining({ path: 'config.url', code: 'not_https' }),
    ]);
    const local = { ...deps(), allowLoopback: true };
    const c = await createConnection(local, manager, tenantId, loopback);
    expect(c.config).toEqual({ url: 'http://127.0.0.1:4000/hooks' });
    const moved = { config: { url: 'http://127.0.0.1:4001/hooks' } };
    expect(await fieldErrors(updateConnection(deps(), manager, tenantId, c.id, moved))).toEqual([
      expect.objectContaining({ path: 'config.url', code: 'not_https' }),
    ]);
    expect((await updateConnection(local, manager, tenantId, c.id, moved)).config).toEqual(moved.config);
  });

  it('a change or a delete written over a stale read is a 409 and writes nothing', async () => {
    const tenantId = newTenant();
    const c = await createConnection(deps(), manager, tenantId, CRM);
    // What a concurrent request read before this one changed the connection: the interleaving of a race, fixed.
    const stale = (await connectionStore(db).get(tenantId, c.id))!;
    await updateConnection(deps(), manager, tenantId, c.id, { name: 'one' });
    const staleDeps = { ...deps(), connections: { ...connectionStore(db), get: async () => stale } };
    for (const write of [
      () => updateConnection(staleDeps, manager, tenantId, c.id, { name: 'two' }),
      () => deleteConnection(staleDeps, manager, tenantId, c.id),
    ]) {
      const err = await write().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      expect((err as Error).message).toBe('The connection changed meanwhile; read it again.');
    }
    expect(await getConnection(deps(), tenantId, c.id)).toMatchObject({ name: 'one' });
    await deleteConnection(deps(), manager, tenantId, c.id);
    const [deleted] = (await auditOf(tenantId, c.id)).filter(
      (e) => e.event_type === 'integration_connection.deleted',
    );
    expect(deleted).toMatchObject({ actor_id: manager.user_id, summary: 'crm connection one' });
  });
});

describe('a PATCH that changes nothing', () => {
  /** A ledgerly connection with every field set, disabled when asked. */
  const fullConnection = async (tenantId: string) =>
    createConnection(deps(), manager, tenantId, {
      adapter_key: 'ledgerly',
      name: 'Books',
      config: LEDGERLY_CONFIG,
      mapping: { number: 'InvoiceNumber', amount: 'Total' },
    });

  it.each([
    ['status', (c: ConnectionRead) => ({ status: c.status })],
    ['name', (c: ConnectionRead) => ({ name: c.name })],
    ['scopes', (c: ConnectionRead) => ({ scopes: [...c.scopes] })],
    // Keys in another order are the same config and the same mapping.
    ['config', (c: ConnectionRead) => ({ config: Object.fromEntries(Object.entries(c.config).reverse()) })],
    [
      'mapping',
      (c: ConnectionRead) => ({ mapping: Object.fromEntries(Object.entries(c.mapping).reverse()) }),
    ],
    ['secret: null without a secret', () => ({ secret: null })],
    [
      'every field at once',
      (c: ConnectionRead) => ({
        status: c.status,
        name: c.name,
        scopes: c.scopes,
        config: c.config,
        mapping: c.mapping,
        secret: null,
      }),
    ],
  ])('%s set to what it is: the connection as it is, no write, no audit event', async (_, patchOf) => {
    const tenantId = newTenant();
    const c = await fullConnection(tenantId);
    const table = await wholeTable();
    const answered = await updateConnection(deps(), manager, tenantId, c.id, patchOf(c) as never);
    expect(answered).toEqual(c);
    expect(await wholeTable()).toBe(table);
    expect((await auditOf(tenantId, c.id)).map((e) => e.event_type)).toEqual([
      'integration_connection.created',
    ]);
  });

  it('a field that does change is the only one audited as changed', async () => {
    const tenantId = newTenant();
    const c = await fullConnection(tenantId);
    await updateConnection(deps(), manager, tenantId, c.id, {
      name: c.name,
      status: 'disabled',
      mapping: c.mapping,
    });
    const moved = (await auditOf(tenantId, c.id)).find(
      (e) => e.event_type === 'integration_connection.status_changed',
    );
    expect(JSON.parse(moved!.metadata_json!)).toMatchObject({ changed: ['status'] });
  });

  it('ten concurrent identical activations write one change and one audit event; every one answers the active connection', async () => {
    const tenantId = newTenant();
    const c = await fullConnection(tenantId);
    await updateConnection(deps(), manager, tenantId, c.id, { status: 'disabled' });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        updateConnection(deps(), manager, tenantId, c.id, { status: 'active' }),
      ),
    );
    expect(new Set(answers.map((a) => `${a.status} ${a.updated_at}`)).size).toBe(1);
    expect(answers[0]!.status).toBe('active');
    const events = (await auditOf(tenantId, c.id)).map((e) => e.event_type);
    expect(events.filter((e) => e === 'integration_connection.status_changed')).toHaveLength(2);
  });
});

describe('private storage is touched only for a secret', () => {
  /** The real secret store, with every call made to it in order. */
  const countingSecrets = () => {
    const calls: string[] = [];
    const wrapped: ConnectionSecrets = {
      put: (tenantId, id, secret) => {
        calls.push(`put ${id}`);
        return secrets.put(tenantId, id, secret);
      },
      read: (tenantId, id) => secrets.read(tenantId, id),
      delete: (tenantId, id) => {
        calls.push(`delete ${id}`);
        return secrets.delete(tenantId, id);
      },
    };
    return { calls, wrapped };
  };

  it('a connection without a secret puts and deletes nothing: on create, on a refused create, on update and on delete', async () => {
    const tenantId = newTenant();
    const { calls, wrapped } = countingSecrets();
    const quiet = { ...deps(), secrets: wrapped };
    const c = await createConnection(quiet, manager, tenantId, CRM);
    await expect(createConnection(quiet, manager, tenantId, CRM)).rejects.toBeInstanceOf(ConflictError);
    await updateConnection(quiet, manager, tenantId, c.id, { name: 'CRM 2' });
    await deleteConnection(quiet, manager, tenantId, c.id);
    expect(calls).toEqual([]);
  });

  it('a change that names no secret keeps the stored one; a first secret set by update is configured', async () => {
    const tenantId = newTenant();
    const secret = { api_key: `key-${newId()}` };
    const withSecret = await createConnection(deps(), manager, tenantId, { ...CRM, secret });
    await updateConnection(deps(), manager, tenantId, withSecret.id, { name: 'CRM 2' });
    expect(await secrets.read(tenantId, withSecret.id)).toEqual(secret);

    const other = newTenant();
    const without = await createConnection(deps(), manager, other, CRM);
    const added = await updateConnection(deps(), manager, other, without.id, { secret });
    expect(added.secret_configured).toBe(true);
    expect((await getConnection(deps(), other, without.id)).secret_configured).toBe(true);
    expect(await secrets.read(other, without.id)).toEqual(secret);
  });
});

describe('the local secret file', () => {
  it('is readable by its owner only', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'ops-secrets-')), 'connection-secrets.json');
    const file = localConnectionSecrets(path);
    await file.put('acme', 'c1', { api_key: 'k'.repeat(20) });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ 'acme/c1': { api_key: 'k'.repeat(20) } });
    expect(await localConnectionSecrets(path).read('acme', 'c1')).toEqual({ api_key: 'k'.repeat(20) });
    await file.delete('acme', 'c1');
    expect(await file.read('acme', 'c1')).toBeUndefined();
  });
});
