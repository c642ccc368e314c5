import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { AccountingExportListQuery } from '#shared/api/schemas/accounting';
import type { AccountingExportRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { ConnectionSecret, Connection } from '#shared/domain/integrations/ports';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { ErrorCode } from './error-classes';

/**
 * The ports of the accounting export (docs/api.md section 9.2) and the records they carry: the
 * export store (the API's and the worker's), and the targets the worker books documents at.
 */

export type AccountingExport = z.output<typeof AccountingExportRead>;
export type ExportStatus = AccountingExport['status'];
export type ExportItem = AccountingExport['items'][number];
export type ExportAttempt = AccountingExport['attempts'][number];
export type ExportFilter = Omit<z.output<typeof AccountingExportListQuery>, 'limit' | 'cursor'>;

/**
 * A document as the export sends it: the fields a target maps (`number`, `amount`, `currency`, ...).
 * A payment or credit note carries `invoice_number`, the number of the invoice it applies to: from
 * the tenant's document its `applies_to` names, or as given in the request.
 */
export type ExportDocument = Record<string, unknown> & { number: string; amount: string; currency: string };

/** The export as stored: the read record, the documents to send, and the request's fingerprint. */
export interface StoredExport extends AccountingExport {
  documents: ExportDocument[];
  /** A hash of the request body: a repeated `export_batch_id` with another body is 409. */
  fingerprint: string;
  /**
   * The worker's hold on the export: while `exporting`, the end of the run's lease; while
   * `retrying`, the retry time, before which no run starts (a duplicate message must not send
   * before the target's Retry-After). Null when never leased (and on retries written before
   * retry times were kept).
   */
  lease_until?: string | null;
}

/** Not created: the tenant already has an export with this batch id (`existingId`). */
export type ExportCreateResult = { created: true } | { created: false; existingId: string };

/** A document's record at the target (see shared/table/entities/export-booking.ts). */
export type Booking =
  | { index: number; state: 'sending'; idempotency_key: string; claimed_at: string; lease_until: string }
  | { index: number; state: 'booked'; idempotency_key: string; external_id: string; booked_at: string };

export interface ExportStore {
  /** Batch-id claim, export, audit event and outbox event in one transaction. */
  create(e: StoredExport, audit: AuditEvent, outbox: OutboxEvent): Promise<ExportCreateResult>;
  get(tenantId: string, id: string): Promise<StoredExport | undefined>;
  /** The id of the export that holds a batch id, if any. */
  batchOwner(tenantId: string, exportBatchId: string): Promise<string | undefined>;
  list(tenantId: string, filter: ExportFilter, page: PageRequest): Promise<Page<AccountingExport>>;
  /**
   * The worker's lease: `exporting` until `leaseUntil`, only if the export is `queued`, or
   * `retrying` or `exporting` with its `lease_until` passed. False when another worker holds it,
   * its retry time has not come, or the export moved on.
   */
  lease(e: StoredExport, leaseUntil: string, now: string): Promise<boolean>;
  bookings(tenantId: string, exportId: string): Promise<Booking[]>;
  /**
   * Claims a document before its call: `claimed` when it had no record, or a `sending` record
   * whose lease expired (then `previous` is that record); `booked`/`busy` otherwise.
   */
  claimBooking(
    tenantId: string,
    exportId: string,
    claim: Extract<Booking, { state: 'sending' }>,
    now: string,
  ): Promise<'claimed' | 'booked' | 'busy'>;
  /**
   * Records a document's state after its call, unconditionally over its own `sending` claim:
   * `booked` with what the target answered, or `sending` with the lease ended (the call is over,
   * its outcome unknown: the next run resolves it).
   */
  record(tenantId: string, exportId: string, booking: Booking): Promise<void>;
  /** Drops a `sending` record of a call the target certainly refused (the document was not booked). */
  release(tenantId: string, exportId: string, index: number): Promise<void>;
  /**
   * The run's result: the export (with its `lease_until`), its audit event, and a review item and
   * outbox event when given, in one transaction, on the condition that the export is still
   * `exporting` under `leaseUntil`.
   */
  finish(
    e: StoredExport,
    leaseUntil: string,
    audit: AuditEvent,
    review: ReviewItem | null,
    outbox: OutboxEvent | null,
  ): Promise<boolean>;
  /** A review decision: the export (if still `expected`), the review item (if still open), audit, outbox. */
  decide(
    e: StoredExport,
    expected: ExportStatus,
    review: ReviewItem,
    audit: AuditEvent,
    outbox: OutboxEvent | null,
  ): Promise<boolean>;
}

/** Reads the tenant's documents an export names by id. */
export interface ExportDocumentReader {
  get(tenantId: string, id: string): Promise<Record<string, unknown> | undefined>;
}

/** One document of a call: its index in the export and the idempotency key sent with it. */
export interface TargetDocument {
  index: number;
  idempotency_key: string;
  document: ExportDocument;
}

export type BookingResult =
  | { index: number; ok: true; external_id: string }
  | {
      index: number;
      ok: false;
      error: ErrorCode;
      retry_after_seconds?: number;
      /** The provider's own words for a refusal (never a token or a secret), for the person who reviews it. */
      message?: string;
    };

/** An accounting system, as the adapter's client speaks to it. */
export interface AccountingTarget {
  /** One call with up to the adapter's `batch_size` documents; one result per document. */
  book(documents: TargetDocument[]): Promise<BookingResult[]>;
  /**
   * `natural_key` targets: the external id of the document already booked under its reference,
   * `null` when there is none. Absent when the adapter declares no lookup.
   */
  lookup?(document: TargetDocument): Promise<string | null | { error: ErrorCode }>;
}

export interface AccountingTargets {
  /** The client of a connection's adapter; undefined when the service has none for it. */
  open(connection: Connection, secret: ConnectionSecret | undefined): AccountingTarget | undefined;
}

/**
 * How the worker pauses between paced calls to a target: a timer on the adapter side
 * (functions/adapters/timer.ts); tests move their clock instead, so the domain never sleeps.
 */
export type Wait = (ms: number) => Promise<void>;
