import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { IntegrationConnectionRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { AdapterCategory } from './catalog';

/**
 * The ports of the integration hub (docs/api.md section 9.3) and the records they carry: the
 * connection store, the private store of connection secrets, and the reader the delivering
 * workers (notification gate, accounting export) find a tenant's active connection with.
 */

export type ConnectionRead = z.output<typeof IntegrationConnectionRead>;
export type ConnectionHealth = ConnectionRead['health'];
export type ConnectionStatus = ConnectionRead['status'];

/** A connection as stored: the read shape without `health` (computed), with its adapter's category. */
export type Connection = Omit<ConnectionRead, 'health'> & { category: AdapterCategory };

export interface ConnectionFilter {
  status?: ConnectionStatus | undefined;
  adapter_key?: string | undefined;
}

/** A connection's secret: the adapter's secret fields, validated against its declaration. */
export type ConnectionSecret = Record<string, string>;

/** `adapter_taken`: another active connection of the tenant holds the adapter; `changed`: the connection changed meanwhile. */
export type ConnectionWriteResult = 'written' | 'adapter_taken' | 'changed';

export interface ConnectionStore {
  /**
   * The connection and its audit event in one transaction; an active one also claims its
   * adapter for the tenant (one active connection per tenant and adapter).
   */
  create(c: Connection, audit: AuditEvent): Promise<'written' | 'adapter_taken'>;
  get(tenantId: string, id: string): Promise<Connection | undefined>;
  list(tenantId: string, filter: ConnectionFilter, page: PageRequest): Promise<Page<Connection>>;
  /**
   * Writes `next` with its audit event only if the stored `updated_at` is still `previous.updated_at`
   * (`changed` otherwise); moving to or from `active` takes or releases the adapter's claim
   * (`adapter_taken` when another active connection holds it).
   */
  update(next: Connection, previous: Connection, audit: AuditEvent): Promise<ConnectionWriteResult>;
  /** Deletes the connection (and its claim) with its audit event; false when it changed meanwhile. */
  remove(previous: Connection, audit: AuditEvent): Promise<boolean>;
  /** The active connection a query names (see `ConnectionQuery`), or undefined. */
  findActive(tenantId: string, query: ConnectionQuery): Promise<Connection | undefined>;
}

/**
 * Private server-side storage of connection secrets, one entry per connection: in the cloud an
 * SSM SecureString encrypted with the service's KMS key, locally a 0600 file under OPS_DATA_DIR or
 * memory. Secrets never enter the table. The hub writes and deletes; only delivering functions read.
 */
export interface ConnectionSecrets {
  put(tenantId: string, connectionId: string, secret: ConnectionSecret): Promise<void>;
  /** `undefined` when none is stored. */
  read(tenantId: string, connectionId: string): Promise<ConnectionSecret | undefined>;
  /** Deleting a secret that does not exist is not an error. */
  delete(tenantId: string, connectionId: string): Promise<void>;
}

/** An active connection as a delivering worker gets it: config to use, and its secret on demand. */
export interface ActiveConnection {
  connection: Connection;
  /** Reads the secret from private storage (undefined when none was set). Call it only to send. */
  secret(): Promise<ConnectionSecret | undefined>;
}

/**
 * How a delivering worker finds the connection to use (`activeConnectionReader` of
 * shared/domain/integrations/active.ts over the connection store and the secrets):
 * - `{ id }`: that connection, if it is active (the accounting export's `integration_connection_id`);
 * - `{ adapter_key }`: the tenant's one active connection of that adapter (the provider gate);
 * - `{ category }`: the tenant's active connection of that category (the accounting export
 *   without an id); with several, the one created first (ids are time-ordered), so the
 *   choice is stable; pass `id` to choose.
 * `undefined` when there is none: the job is `gated` and goes to review.
 */
export type ConnectionQuery = { id: string } | { adapter_key: string } | { category: AdapterCategory };

export interface ActiveConnectionReader {
  findActiveConnection(tenantId: string, query: ConnectionQuery): Promise<ActiveConnection | undefined>;
}
