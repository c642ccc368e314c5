import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { auditEvent } from '#shared/domain/audit';
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
