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
import {
  createConnection,
  deleteConnection,
  getConnection,
  updateConnection,
} from '#shared/domain/integrations/use-cases';
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
  allowLoopbackTargets: false,
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

    await updateConnection(deps(), manager, tenantId, created.id, { secret: null });
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
