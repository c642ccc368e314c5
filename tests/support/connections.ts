import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { auditEvent } from '#shared/domain/audit';
import type { Connection } from '#shared/domain/integrations/ports';
import type { Channel } from '#shared/domain/notifications/ports';
import { newId, systemClock } from '#shared/kernel/ids';

/**
 * A tenant's connection of a notification channel's adapter, written through the real store (for
 * tests about delivery, not about the hub's API): `active` opens the channel's gate, `disabled`
 * is a connection that was switched off.
 */
export async function setChannelState(
  db: Db,
  tenantId: string,
  channel: Exclude<Channel, 'in_app'>,
  status: Connection['status'],
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
    config: {},
    mapping: {},
    secret_configured: false,
    created_at: now,
    updated_at: now,
  };
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
  if (status === 'active') return connection;
  const disabled = { ...connection, status, updated_at: new Date(Date.parse(now) + 1).toISOString() };
  if ((await store.update(disabled, connection, audit('status_changed'))) !== 'written')
    throw new Error('disabling the test connection failed');
  return disabled;
}
