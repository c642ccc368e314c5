import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { DocumentListQuery } from '#shared/api/schemas/documents';
import type { DocumentRead } from '#shared/api/schemas/responses';
import type { AuditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/ports';

/** The port of business documents (docs/api.md section 9) and the records it carries. */

export type BusinessDocument = z.output<typeof DocumentRead>;
export type DocumentStatus = BusinessDocument['status'];
export type DocumentFilter = Omit<z.output<typeof DocumentListQuery>, 'limit' | 'cursor'>;

/**
 * `created`; `number_taken`: another document of the tenant has this type and number;
 * `invoice_changed`: the invoice `applies_to` names was voided (or vanished) meanwhile.
 */
export type DocumentCreateResult = 'created' | 'number_taken' | 'invoice_changed';

export interface DocumentStore {
  /**
   * The document, the claim on its `(document_type, number)`, its audit event and the outbox
   * event workflow rules act on, in one transaction; with `applies_to`, on the condition that
   * the invoice is still not void.
   */
  create(document: BusinessDocument, audit: AuditEvent, outbox: OutboxEvent): Promise<DocumentCreateResult>;
  get(tenantId: string, id: string): Promise<BusinessDocument | undefined>;
  list(tenantId: string, filter: DocumentFilter, page: PageRequest): Promise<Page<BusinessDocument>>;
  /**
   * Writes `next` with its audit and outbox events, only if the stored status is still
   * `expectedStatus`: of two racing changes exactly one wins. False when the condition failed.
   * The due timer rides in the same transaction.
   */
  transition(
    next: BusinessDocument,
    expectedStatus: DocumentStatus,
    audit: AuditEvent,
    outbox: OutboxEvent,
    /** The document's `document_due` timer as the change leaves it: armed, or cancelled when null. */
    due: Timer | null,
  ): Promise<boolean>;
}
