import type * as z from 'zod/mini';
import {
  ConflictError,
  type FieldError,
  InvalidTransitionError,
  NotFoundError,
  ValidationError,
} from '#shared/kernel/errors';
import { canBecomeOverdue, documentDueTimer } from '#shared/domain/timers/arming';
import type { TenantZoneReader } from '#shared/domain/identity/ports';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { fromMinor, lineTotalMinor, normalizeMoney } from '#shared/kernel/money';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { DocumentCreate, DocumentStatusChange } from '#shared/api/schemas/documents';
import { auditEvent } from '#shared/domain/audit';
import { type RunCause, workflowEventRecorded } from '#shared/domain/workflows/events';
import type { BusinessDocument, DocumentFilter, DocumentStatus, DocumentStore } from './ports';

export interface DocumentDeps {
  documents: DocumentStore;
  clock: Clock;
}

/** docs/api.md section 9: the only allowed moves. */
const TRANSITIONS: Record<DocumentStatus, readonly DocumentStatus[]> = {
  draft: ['open', 'void'],
  open: ['paid', 'void'],
  paid: [],
  void: [],
};

export const canTransitionDocument = (from: DocumentStatus, to: DocumentStatus): boolean =>
  TRANSITIONS[from].includes(to);

const appliesToError = (code: string, message: string): ValidationError =>
  new ValidationError([{ path: 'applies_to', code, message } satisfies FieldError]);

/**
 * What `applies_to` must name: an invoice of this tenant, in the document's currency, not void.
 * Another tenant's invoice is "not found", exactly like a missing one.
 */
async function checkAppliesTo(deps: DocumentDeps, tenantId: string, id: string, currency: string) {
  const invoice = await deps.documents.get(tenantId, id);
  if (!invoice) throw appliesToError('not_found', 'no invoice with this id in this tenant');
  if (invoice.document_type !== 'invoice')
    throw appliesToError('not_an_invoice', `names a ${invoice.document_type}, not an invoice`);
  if (invoice.currency !== currency)
    throw appliesToError('currency_mismatch', `the invoice is in ${invoice.currency}, not ${currency}`);
  if (invoice.status === 'void') throw appliesToError('invoice_void', 'the invoice is void');
}

/**
 * Record a document.
 * 1. With `applies_to`, check the invoice it names (422 on `applies_to` otherwise).
 * 2. Store it as `draft`, amounts in their two-decimal form and each line with its total, with
 *    the claim on its number, its `document.created` audit event and the outbox event workflow
 *    rules act on, in one transaction.
 * 3. A taken number is 409 conflict; an invoice voided meanwhile is 422, as in step 1.
 */
export async function createDocument(
  deps: DocumentDeps,
  actor: Principal,
  tenantId: string,
  input: z.output<typeof DocumentCreate>,
): Promise<BusinessDocument> {
  if (input.applies_to) await checkAppliesTo(deps, tenantId, input.applies_to, input.currency);
  const now = deps.clock.now().toISOString();
  const document: BusinessDocument = {
    id: newId(),
    tenant_id: tenantId,
    document_type: input.document_type,
    number: input.number,
    counterparty: input.counterparty,
    currency: input.currency,
    amount: normalizeMoney(input.amount),
    issued_on: input.issued_on,
    due_on: input.due_on ?? null,
    external_refs: input.external_refs ?? {},
    lines: (input.lines ?? []).map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unit_amount: normalizeMoney(line.unit_amount),
      total: fromMinor(lineTotalMinor(line.quantity, line.unit_amount)),
    })),
    applies_to: input.applies_to ?? null,
    status: 'draft',
    created_at: now,
    updated_at: now,
  };
  const result = await deps.documents.create(
    document,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'document.created',
      actor_id: actor.user_id,
      entity_type: 'document',
      entity_id: document.id,
      summary: `${document.document_type} ${document.number}`,
      metadata: {
        document_type: document.document_type,
        number: document.number,
        amount: document.amount,
        currency: document.currency,
        applies_to: document.applies_to,
      },
    }),
    workflowEventRecorded(deps.clock, 'document.created', document),
  );
  if (result === 'number_taken')
    throw new ConflictError(
      `This tenant already has ${document.document_type === 'invoice' ? 'an' : 'a'} ${document.document_type} numbered ${document.number}.`,
    );
  if (result === 'invoice_changed') throw appliesToError('invoice_void', 'the invoice became void meanwhile');
  return document;
}

export async function getDocument(deps: DocumentDeps, tenantId: string, id: string) {
  const found = await deps.documents.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listDocuments = (
  deps: DocumentDeps,
  tenantId: string,
  filter: DocumentFilter,
  page: PageRequest,
) => deps.documents.list(tenantId, filter, page);

/**
 * Move a document through its states.
 * 1. Read it (404) and check the move against TRANSITIONS (409 invalid_transition).
 * 2. Write the new status on the condition that the stored status is the one just read, with its
 *    `document.status_changed` audit event and the outbox event workflow rules act on: of two
 *    racing changes one wins, the other is 409.
 */
export async function changeDocumentStatus(
  deps: DocumentDeps & { zones: TenantZoneReader },
  /** Null: the system, for a workflow rule's `set_status` (audited with `actor_id` null). */
  actor: Principal | null,
  tenantId: string,
  id: string,
  change: z.output<typeof DocumentStatusChange>,
  cause?: RunCause,
): Promise<BusinessDocument> {
  const current = await getDocument(deps, tenantId, id);
  if (!canTransitionDocument(current.status, change.status)) {
    throw new InvalidTransitionError(`A document that is ${current.status} cannot become ${change.status}.`);
  }
  const next: BusinessDocument = {
    ...current,
    status: change.status,
    updated_at: deps.clock.now().toISOString(),
  };
  const won = await deps.documents.transition(
    next,
    current.status,
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'document.status_changed',
      actor_id: actor?.user_id ?? null,
      entity_type: 'document',
      entity_id: id,
      summary: `${current.status} -> ${change.status}`,
      metadata: { from: current.status, to: change.status, note: change.note ?? null },
    }),
    workflowEventRecorded(deps.clock, 'document.status_changed', next, cause),
    // An invoice that opens arms its due timer; one that is paid or voided cancels it.
    canBecomeOverdue(next) ? documentDueTimer(next, await deps.zones.timeZoneOf(tenantId)) : null,
  );
  if (!won) throw new InvalidTransitionError('The document changed meanwhile; read it again.');
  return next;
}
