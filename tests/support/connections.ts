import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import { hubGateway } from '#functions/adapters/hub-gateway';
import { hubStore, reconciliationStore } from '#functions/adapters/hub-store';
import type { createStores } from '#functions/adapters/stores';
import type { Db } from '#functions/adapters/dynamo';
import { auditEvent } from '#shared/domain/audit';
import { ledgerly } from '#shared/domain/integrations/adapters/ledgerly';
import type { Connection, ConnectionSecret, ConnectionSecrets } from '#shared/domain/integrations/ports';
import type { Channel } from '#shared/domain/notifications/ports';
import { newId, systemClock } from '#shared/kernel/ids';

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
  provider: hubGateway({ providerUrl, timeoutMs, region: undefined, endpoints: {}, allowLoopback: false }),
  runs: reconciliationStore(db),
  documents: stores.documents,
  exceptions: stores.exceptions,
  clock: systemClock,
  maxAttempts: 3,
  allowLoopbackTargets: false,
});
