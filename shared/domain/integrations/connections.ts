import type * as z from 'zod/mini';
import type {
  IntegrationConnectionCreate,
  IntegrationConnectionUpdate,
} from '#shared/api/schemas/integrations';
import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import { auditEvent } from '#shared/domain/audit';
import { adapterOf, checkAll, checkConfig, checkScopes, checkSecret } from './connection-checks';
import { computeHealth } from './health';
import { checkSchedule, expectedMinutes, hubScheduleTimer } from './schedule';
import type {
  Connection,
  ConnectionFilter,
  ConnectionHealth,
  ConnectionRead,
  ConnectionSecret,
  ConnectionSecrets,
  ConnectionStore,
  HealthRecord,
  HubStore,
} from './ports';
import { sameValue } from '#shared/kernel/same-value';
import { integrationConnectionEditable } from '#shared/table/entities/integration-connection';

/** Tenant connections (docs/api.md section 9.3): create, get, list, change, delete. */

export interface IntegrationDeps {
  connections: ConnectionStore;
  secrets: ConnectionSecrets;
  hub: HubStore;
  clock: Clock;
  /** Local runtime only: target URLs on loopback (its provider sandbox) are acceptable. */
  allowLoopback: boolean;
}

/** The read shape: the stored record without its category, with its health. */
export const toConnectionRead = (c: Connection, health: ConnectionHealth): ConnectionRead => {
  const { category: _category, ...read } = c;
  return { ...read, schedule: c.schedule ?? null, health };
};

const healthFrom = (deps: IntegrationDeps, c: Connection, record: HealthRecord | undefined) =>
  computeHealth(record, expectedMinutes(c), deps.clock.now());

/** The connection as the API reads it: its health computed from its one health record. */
export const withHealth = async (deps: IntegrationDeps, c: Connection): Promise<ConnectionRead> =>
  toConnectionRead(c, healthFrom(deps, c, await deps.hub.health(c.tenant_id, c.id)));

const takenError = (adapterKey: string) =>
  new ConflictError(
    `This tenant already has an active ${adapterKey} connection; disable it first (PATCH status disabled).`,
  );

/** What the audit log keeps of a connection: never the secret, only whether one is set. */
const auditView = (c: Connection) => ({
  adapter_key: c.adapter_key,
  name: c.name,
  status: c.status,
  scopes: c.scopes,
  config: c.config,
  mapping: c.mapping,
  private_settings: c.secret_configured ? 'set' : 'none',
  schedule: c.schedule,
});

/**
 * Connect a tenant to an adapter.
 * 1. The adapter must exist; scopes (default: the adapter's default scopes), config and secret are
 *    checked against its declaration: one 422 names every failing field or scope.
 * 2. The secret goes to private storage first, so a stored connection never claims a secret
 *    that is not there.
 * 3. The connection (active) claims its adapter for the tenant, with its
 *    `integration_connection.created` audit event, in one transaction; a second active connection
 *    of the same adapter is 409 conflict (and its secret is removed again).
 */
export async function createConnection(
  deps: IntegrationDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof IntegrationConnectionCreate>,
): Promise<ConnectionRead> {
  const adapter = adapterOf(input.adapter_key);
  let scopes: string[] = [...adapter.scopes.default];
  let config: Record<string, unknown> = {};
  let secret: ConnectionSecret | undefined;
  let schedule: Connection['schedule'] = null;
  checkAll(
    () => void (input.scopes && (scopes = checkScopes(adapter, input.scopes))),
    () => void (config = checkConfig(adapter, input.config ?? {}, deps.allowLoopback)),
    () => void (input.secret !== undefined && (secret = checkSecret(adapter, input.secret))),
    () => void (schedule = checkSchedule(adapter, input.schedule ?? null)),
  );
  const now = deps.clock.now().toISOString();
  const connection: Connection = {
    id: newId(),
    tenant_id: tenantId,
    adapter_key: adapter.key,
    category: adapter.category,
    name: input.name,
    status: 'active',
    scopes,
    config,
    mapping: input.mapping ?? {},
    secret_configured: secret !== undefined,
    schedule,
    created_at: now,
    updated_at: now,
  };
  if (secret) await deps.secrets.put(tenantId, connection.id, secret);
  const result = await deps.connections.create(
    connection,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'integration_connection.created',
      actor_id: actor.user_id,
      entity_type: 'integration_connection',
      entity_id: connection.id,
      summary: `${adapter.key} connection ${connection.name}`,
      metadata: auditView(connection),
    }),
    hubScheduleTimer(connection, deps.clock.now()),
  );
  if (result === 'adapter_taken') {
    if (secret) await deps.secrets.delete(tenantId, connection.id);
    throw takenError(adapter.key);
  }
  return toConnectionRead(connection, healthFrom(deps, connection, undefined));
}

export async function getConnection(
  deps: IntegrationDeps,
  tenantId: string,
  id: string,
): Promise<Connection> {
  const found = await deps.connections.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export async function listConnections(
  deps: IntegrationDeps,
  tenantId: string,
  filter: ConnectionFilter,
  page: PageRequest,
): Promise<Page<ConnectionRead>> {
  const found = await deps.connections.list(tenantId, filter, page);
  const records = await deps.hub.healthOf(
    tenantId,
    found.items.map((c) => c.id),
  );
  return {
    items: found.items.map((c) => toConnectionRead(c, healthFrom(deps, c, records.get(c.id)))),
    next_cursor: found.next_cursor,
  };
}

/**
 * The record's fields a PATCH may set, as the entity declares them (its write-only secret aside),
 * compared with what is stored to find what it changes.
 */
const EDITABLE = integrationConnectionEditable.fields;

/**
 * Change a connection: name, status (`disabled` closes its gate, `active` claims its adapter
 * again), scopes, config (replaced, checked as on create), mapping (replaced), secret (replaced;
 * `null` removes it).
 * 1. Read it (404); check what changes against the adapter (one 422 for all of it).
 * 2. A field set to what it is changes nothing (`secret: null` without a secret included; a new
 *    secret value always changes, as it cannot be read back to compare); a PATCH that changes
 *    nothing answers the connection as it is, with no write and no audit event.
 * 3. A new secret goes to private storage before the write; a removed one after it.
 * 4. Write on the condition that nobody changed it since step 1, with one audit event:
 *    `integration_connection.status_changed` when the status moves, else `.updated`. A lost race
 *    reads it again: if the winner made it what this PATCH asks, the answer is that (so identical
 *    concurrent PATCHes write once), else 409.
 */
export async function updateConnection(
  deps: IntegrationDeps,
  actor: Principal,
  tenantId: string,
  id: string,
  patch: z.output<typeof IntegrationConnectionUpdate>,
): Promise<ConnectionRead> {
  const current = await getConnection(deps, tenantId, id);
  const adapter = adapterOf(current.adapter_key);
  if (Object.keys(patch).length === 0) {
    throw new ValidationError([
      { path: '', code: 'empty_patch', message: 'name at least one field to change' },
    ]);
  }
  let scopes = current.scopes;
  let config = current.config;
  let secret: ConnectionSecret | undefined;
  let schedule = current.schedule ?? null;
  checkAll(
    () => void (patch.scopes && (scopes = checkScopes(adapter, patch.scopes))),
    () => void (patch.config && (config = checkConfig(adapter, patch.config, deps.allowLoopback))),
    () => void (patch.secret && (secret = checkSecret(adapter, patch.secret))),
    () => void (patch.schedule !== undefined && (schedule = checkSchedule(adapter, patch.schedule))),
  );
  const wanted = {
    name: patch.name,
    status: patch.status,
    scopes,
    config,
    mapping: patch.mapping,
    schedule: patch.schedule === undefined ? undefined : schedule,
  };
  const changesTo = (base: Connection) => [
    ...EDITABLE.filter((f) => wanted[f] !== undefined && !sameValue(wanted[f], base[f] ?? null)),
    ...(patch.secret === undefined || (patch.secret === null && !base.secret_configured) ? [] : ['secret']),
  ];
  const changed = changesTo(current).sort();
  if (changed.length === 0) return withHealth(deps, current);
  const next: Connection = {
    ...current,
    name: patch.name ?? current.name,
    status: patch.status ?? current.status,
    scopes,
    config,
    mapping: patch.mapping ?? current.mapping,
    schedule,
    secret_configured: patch.secret === undefined ? current.secret_configured : patch.secret !== null,
    updated_at: deps.clock.now().toISOString(),
  };
  if (secret) await deps.secrets.put(tenantId, id, secret);
  const statusMoved = next.status !== current.status;
  // The timer moves only with the schedule or the status: re-arming it otherwise could skip an
  // occurrence that is due but not yet swept.
  const rearm = statusMoved || changed.includes('schedule');
  const result = await deps.connections.update(
    next,
    current,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: statusMoved ? 'integration_connection.status_changed' : 'integration_connection.updated',
      actor_id: actor.user_id,
      entity_type: 'integration_connection',
      entity_id: id,
      summary: statusMoved ? `${current.status} -> ${next.status}` : `changed ${changed.join(', ')}`,
      metadata: { changed, from: current.status, ...auditView(next) },
    }),
    rearm ? hubScheduleTimer(next, deps.clock.now()) : undefined,
  );
  if (result === 'adapter_taken') throw takenError(adapter.key);
  if (result === 'changed') {
    const latest = await getConnection(deps, tenantId, id);
    if (changesTo(latest).length === 0) return withHealth(deps, latest);
    throw new ConflictError('The connection changed meanwhile; read it again.');
  }
  if (patch.secret === null) await deps.secrets.delete(tenantId, id);
  return withHealth(deps, next);
}

/**
 * Delete a connection: its secret first (so nothing private outlives it; a failure leaves the
 * connection in place to retry), then the connection and its adapter claim with the
 * `integration_connection.deleted` audit event.
 */
export async function deleteConnection(
  deps: IntegrationDeps,
  actor: Principal,
  tenantId: string,
  id: string,
): Promise<void> {
  const current = await getConnection(deps, tenantId, id);
  if (current.secret_configured) await deps.secrets.delete(tenantId, id);
  const removed = await deps.connections.remove(
    current,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'integration_connection.deleted',
      actor_id: actor.user_id,
      entity_type: 'integration_connection',
      entity_id: id,
      summary: `${current.adapter_key} connection ${current.name}`,
      metadata: auditView(current),
    }),
  );
  if (!removed) throw new ConflictError('The connection changed meanwhile; read it again.');
}
