import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import { providerReader } from '#functions/adapters/provider-reader';
import { hubStore } from '#functions/adapters/hub-store';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import type { createStores } from '#functions/adapters/stores';
import type { Db } from '#functions/adapters/dynamo';
import { auditEvent } from '#shared/domain/audit';
import { ledgerly } from '#shared/domain/integrations/adapters/ledgerly';
import type { Connection, ConnectionSecret, ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { Channel } from '#shared/domain/notifications/ports';
import { newId, systemClock } from '#shared/kernel/ids';
import type { AccountingTargetName } from '#local/accounting-sandbox';

/**
 * A tenant's connection of a notification channel's adapter, written through the real store, for
 * tests about delivery rather than about the hub's API (those go through HTTP): `active` opens
 * the channel's gate, `disabled` is a connection that was switched off. `secret` is stored in the
 * given private store, as the hub stores it.
 */
export async function connectChannel(
  db: Db,
  tenantId: string,
  channel: Exclude<Channel, 'in_app'>,
  options: {
    status?: Connection['status'];
    config?: Record<string, unknown>;
    secret?: { store: ConnectionSecrets; value: ConnectionSecret };
  } = {},
): Promise<Connection> {
  const store = connectionStore(db);
  const now = new Date().toISOString();
  const connection: Connection = {
    id: newId(),
    tenant_id: tenantId,
    adapter_key: channel,
    category: 'notification',
    name: `${channel} (test)`,
    status: 'active',
    scopes: [],
    config: options.config ?? {},
    mapping: {},
    secret_configured: options.secret !== undefined,
    created_at: now,
    updated_at: now,
  };
  if (options.secret) await options.secret.store.put(tenantId, connection.id, options.secret.value);
  const audit = (verb: string) =>
    auditEvent(systemClock, {
      tenant_id: tenantId,
      event_type: `integration_connection.${verb}`,
      actor_id: null,
      entity_type: 'integration_connection',
      entity_id: connection.id,
      summary: 'test setup',
    });
  if ((await store.create(connection, audit('created'))) !== 'written')
    throw new Error(`${tenantId} already has an active ${channel} connection`);
  if ((options.status ?? 'active') === 'active') return connection;
  const disabled = {
    ...connection,
    status: 'disabled' as const,
    updated_at: new Date(Date.parse(now) + 1).toISOString(),
  };
  if ((await store.update(disabled, connection, audit('status_changed'))) !== 'written')
    throw new Error('disabling the test connection failed');
  return disabled;
}

/**
 * A Ledgerly connection request for the hub's tests: the adapter's own config example and the
 * mapping keys it requires (without the optional `due_on` of its mapping example).
 */
export const LEDGERLY_REQUEST = {
  adapter_key: 'ledgerly',
  name: 'Books',
  config: ledgerly.config_example,
  mapping: {
    number: 'InvoiceNumber',
    counterparty: 'Contact.Name',
    amount: 'Total',
    currency: 'CurrencyCode',
    issued_on: 'Date',
    account_code: 'LineItems[].AccountCode',
  },
};
export const LEDGERLY_SECRET = {
  client_id: 'ledgerly-client-0001',
  client_secret: 'ledgerly-secret-00000001',
};

/**
 * What the hub's use cases and runs need, over the real stores: the provider is the loopback
 * sandbox's `/providers` at `providerUrl`, or undefined for a deployment that names none.
 */
export const hubDeps = (
  db: Db,
  stores: ReturnType<typeof createStores>,
  providerUrl: string | undefined,
  timeoutMs = 2000,
) => ({
  connections: connectionStore(db),
  secrets: localConnectionSecrets(undefined),
  hub: hubStore(db),
  provider: providerReader({
    providerUrl,
    timeoutMs,
    region: undefined,
    endpoints: {},
    allowLoopback: false,
  }),
  runs: reconciliationStore(db),
  documents: stores.documents,
  exceptions: stores.exceptions,
  clock: systemClock,
  maxAttempts: 3,
  allowLoopback: false,
});

/** A config and secret of each accounting target that the loopback sandbox accepts. */
export const ACCOUNTING_TARGETS: Record<
  AccountingTargetName,
  { config: Record<string, unknown>; secret: Record<string, string> }
> = {
  ledgerly: {
    config: {
      organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
      region: 'eu',
      base_currency: 'EUR',
      sales_account_code: '200',
      payment_account_code: '090',
    },
    secret: { client_id: 'client-id-0123456789', client_secret: 'client-secret-0123456789' },
  },
  tallybook: {
    config: { company_id: '104522', ledger: 'sales', currency: 'EUR' },
    secret: { api_key: 'tb-key-0123456789' },
  },
};

/**
 * A tenant's connection of an accounting target, written through the real store with the given
 * status and `secret_configured`; its secret goes into `secrets` unless `secret` is false (a
 * secret the private store lost).
 */
export async function connectAccounting(
  db: Db,
  secrets: ConnectionSecrets,
  tenantId: string,
  target: AccountingTargetName,
  { status = 'active', secret = true }: { status?: Connection['status']; secret?: boolean } = {},
): Promise<Connection> {
  const now = new Date().toISOString();
  const connection: Connection = {
    id: newId(),
    tenant_id: tenantId,
    adapter_key: target,
    category: 'accounting',
    name: `${target} (test)`,
    status,
    scopes: [],
    config: ACCOUNTING_TARGETS[target].config,
    mapping: {},
    secret_configured: true,
    created_at: now,
    updated_at: now,
  };
  const audit = auditEvent(systemClock, {
    tenant_id: tenantId,
    event_type: 'integration_connection.created',
    actor_id: null,
    entity_type: 'integration_connection',
    entity_id: connection.id,
    summary: 'test setup',
  });
  if ((await connectionStore(db).create(connection, audit)) !== 'written')
    throw new Error(`${tenantId} already has an active ${target} connection`);
  if (secret) await secrets.put(tenantId, connection.id, ACCOUNTING_TARGETS[target].secret);
  return connection;
}
