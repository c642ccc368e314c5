import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { IssueCode as IssueCodeSchema } from '#shared/api/schemas/integrations';
import type { IntegrationConnectionRead, ReconciliationRunRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/timer';
import type { AdapterCategory } from './catalog';

/**
 * The ports of the integration hub (docs/api.md section 9.3) and the records they carry: the
 * connection store, the private store of connection secrets, and the reader the delivering
 * workers (notification gate, accounting export) find a tenant's active connection with.
 */

export type ConnectionRead = z.output<typeof IntegrationConnectionRead>;
export type ConnectionHealth = ConnectionRead['health'];
export type ConnectionStatus = ConnectionRead['status'];

/**
 * A connection as stored: the read shape without `health` (computed), with its adapter's category;
 * `schedule` is missing on items written before hub schedules (no schedule).
 */
export type Connection = Omit<ConnectionRead, 'health' | 'schedule'> & {
  category: AdapterCategory;
  schedule?: ConnectionRead['schedule'] | undefined;
};

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
   * The connection, its audit event and its `hub_schedule` timer (if any) in one transaction;
   * an active one also claims its adapter for the tenant (one active connection per tenant and adapter).
   */
  create(c: Connection, audit: AuditEvent, timer?: Timer | null): Promise<'written' | 'adapter_taken'>;
  get(tenantId: string, id: string): Promise<Connection | undefined>;
  list(tenantId: string, filter: ConnectionFilter, page: PageRequest): Promise<Page<Connection>>;
  /**
   * Writes `next` with its audit event only if the stored `updated_at` is still `previous.updated_at`
   * (`changed` otherwise); moving to or from `active` takes or releases the adapter's claim
   * (`adapter_taken` when another active connection holds it).
   */
  update(
    next: Connection,
    previous: Connection,
    audit: AuditEvent,
    /** The `hub_schedule` timer as it should be (null: cancelled); undefined leaves it as it is. */
    timer?: Timer | null,
  ): Promise<ConnectionWriteResult>;
  /** Deletes the connection (its claim, its `hub_schedule` timer) with its audit event; false when it changed meanwhile. */
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

/** What a connection's health is computed from (shared/domain/integrations/health.ts). */
export interface HealthRecord {
  last_success_at: string | null;
  last_failure_at: string | null;
  last_failure_reason: string | null;
  /** Codes of the connection's open integration issues. */
  open_issue_codes: string[];
  /**
   * Since when the provider's token endpoint refuses the service's app (invalid_client) for this
   * connection; cleared by its next successful token call. Absent or null: not refused.
   */
  app_credentials_invalid_since?: string | null;
}

export type IssueCode = z.output<typeof IssueCodeSchema>;

/** One per connection and issue code: opened by a failing check, resolved by a passing one, closed by a review decision. */
export interface IntegrationIssue {
  tenant_id: string;
  connection_id: string;
  issue_code: IssueCode;
  status: 'open' | 'resolved' | 'closed';
  message: string;
  next_action: string | null;
  review_item_id: string;
  times_opened: number;
  opened_at: string;
  closed_at: string | null;
  updated_at: string;
}

/** A check or provider call's outcome, as health counts it. */
export type ResultRecord = { ok: true; at: string } | { ok: false; at: string; reason: string };

/**
 * Where a delivering worker (notification delivery, accounting export) records how its provider
 * call through a connection went, so health counts deliveries as well as checks. `reason` is a
 * short code (`connectionFailure`), never provider text. Best effort: it never throws, since a
 * lost record costs a stale health state while a thrown one would redeliver a sent message. The
 * adapter writes a change only (docs/decisions.md, "Delivery results on connection health").
 */
export interface ConnectionResults {
  record(tenantId: string, connectionId: string, result: ResultRecord): Promise<void>;
}

/** A failure reason as a health record keeps it: a short code, or `provider_error` for anything else. */
export const connectionFailure = (at: string, reason: string): ResultRecord => ({
  ok: false,
  at,
  reason: /^[A-Za-z0-9_]{1,64}$/.test(reason) ? reason : 'provider_error',
});

export interface IssueOpening {
  issue: IntegrationIssue;
  review: ReviewItem;
  audit: AuditEvent;
  /** The `integration.issue_opened` event workflow rules act on. */
  outbox: OutboxEvent;
}

/** What a review decision on an issue needs (kept apart so the review function bundles only this). */
export interface IssueDecisionStore {
  getIssue(tenantId: string, connectionId: string, code: string): Promise<IntegrationIssue | undefined>;
  /**
   * Moves the open issue to `resolved` (a passing check) or `closed` (a review decision), drops
   * its code from the health record and writes `review` (its review item, decided or resolved)
   * with the audit event (and `outbox`, when given), in one transaction conditional on the issue
   * and the review item both being open. False when either changed meanwhile.
   */
  endIssue(
    issue: IntegrationIssue,
    review: ReviewItem,
    audit: AuditEvent,
    outbox: OutboxEvent | null,
  ): Promise<boolean>;
}

export interface HubStore extends IssueDecisionStore {
  health(tenantId: string, connectionId: string): Promise<HealthRecord | undefined>;
  /** The health records of several connections of a tenant (one batch read). */
  healthOf(tenantId: string, connectionIds: readonly string[]): Promise<Map<string, HealthRecord>>;
  recordResult(tenantId: string, connectionId: string, result: ResultRecord): Promise<void>;
  /**
   * Opens (or reopens) the issue with its review item, audit and outbox events, and adds its code
   * to the connection's health record, in one transaction conditional on the issue not being
   * open. False (nothing written) when it is open already.
   */
  openIssue(opening: IssueOpening): Promise<boolean>;
  getReviewItem(tenantId: string, id: string): Promise<ReviewItem | undefined>;
}

/** A provider's answer to the reachability probe. */
export type ProbeResult = { ok: true } | { ok: false; reason: string };

/** A record the provider holds (a payment or invoice as the provider booked it). */
export interface ProviderRecord {
  external_id: string;
  document_type: 'invoice' | 'payment' | 'credit_note';
  number: string;
  amount: string;
  currency: string;
  /**
   * A payment's invoice at the provider (Xero `Payment.Invoice.InvoiceID`, QuickBooks
   * `Payment.Line[].LinkedTxn[]` of `TxnType` Invoice): what a payment is matched by, since its
   * own reference is optional. Absent where the provider names no invoice.
   */
  invoice_external_id?: string;
}

/**
 * One page of a provider's records. `next`: the cursor of the page after it (opaque to the
 * domain), absent on the last page. A refusal may carry the provider's `Retry-After`.
 */
export type ProviderRecords =
  | { ok: true; records: ProviderRecord[]; next?: string }
  | { ok: false; reason: string; retry_after_seconds?: number };

/**
 * The provider behind a connection, over HTTP: in the cloud the configured provider endpoint,
 * locally the loopback sandbox. Failures are answers, never thrown: a check reports them.
 */
export interface ProviderReader {
  /** Undefined when no provider endpoint is configured in this deployment. */
  probe(connection: Connection): Promise<ProbeResult | undefined>;
  /** The page of records at `cursor` (the first page without one). */
  records(connection: Connection, cursor?: string): Promise<ProviderRecords | undefined>;
}

/** One page of a run's provider records as read and kept (the run resumes after the last one). */
export interface ReconciliationPage {
  /** 0, 1, 2, ... in reading order. */
  seq: number;
  records: ProviderRecord[];
  /** The cursor of the page after it; null when it was the last. */
  next: string | null;
}

export type ReconciliationRun = z.output<typeof ReconciliationRunRead>;

export interface ReconciliationRunFilter {
  status?: ReconciliationRun['status'] | undefined;
  connection_id?: string | undefined;
}

export interface ReconciliationStore {
  /** The run, its audit event and the outbox event the internal worker runs it from, in one transaction. */
  create(run: ReconciliationRun, audit: AuditEvent, outbox: OutboxEvent): Promise<void>;
  get(tenantId: string, id: string): Promise<ReconciliationRun | undefined>;
  list(
    tenantId: string,
    filter: ReconciliationRunFilter,
    page: PageRequest,
  ): Promise<Page<ReconciliationRun>>;
  /** The pages of a run read so far, in order. */
  pages(tenantId: string, runId: string): Promise<ReconciliationPage[]>;
  /** Keeps one page read (a repeat of the same page overwrites it). */
  savePage(tenantId: string, runId: string, page: ReconciliationPage): Promise<void>;
  /**
   * Queues the run's next firing (the outbox event of a continuation, under an id derived from
   * the run and where it resumes, so a second writer of the same continuation writes nothing).
   */
  continueLater(outbox: OutboxEvent): Promise<void>;
  /** Writes the finished run with its audit event, only while it is still `queued`; false otherwise. */
  finish(run: ReconciliationRun, audit: AuditEvent): Promise<boolean>;
}
