import type * as z from 'zod/mini';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import { sha256 } from '#shared/kernel/secrets';
import type { AccountingExportCreate } from '#shared/api/schemas/accounting';
import { auditEvent } from '#shared/domain/audit';
import type { ConnectionStore } from '#shared/domain/integrations/ports';
import { exportRequested } from './events';
import type {
  AccountingExport,
  ExportDocument,
  ExportDocumentReader,
  ExportFilter,
  ExportStore,
  StoredExport,
} from './ports';

/**
 * The API's use cases of the accounting export (docs/api.md section 9.2): create (with the
 * `export_batch_id` claim), get and list. The worker's side is `./export-run.ts`; the decision on
 * an `accounting_export` review item is `./review.ts`.
 */

export interface AccountingDeps {
  exports: ExportStore;
  documents: ExportDocumentReader;
  connections: Pick<ConnectionStore, 'get'>;
  clock: Clock;
}

/** The fields of a tenant's document that an export sends (the target's mapping picks from them). */
const SENT_FIELDS = [
  'document_type',
  'number',
  'counterparty',
  'currency',
  'amount',
  'issued_on',
  'due_on',
  'lines',
] as const;

type CreateInput = z.output<typeof AccountingExportCreate>;

const fieldError = (path: string, code: string, message: string): FieldError => ({ path, code, message });

/** The documents to send: a document named by id as the tenant has it now; others as given. */
async function resolveDocuments(deps: AccountingDeps, tenantId: string, input: CreateInput) {
  const errors: FieldError[] = [];
  const documents = await Promise.all(
    input.documents.map(async (d, i): Promise<ExportDocument | undefined> => {
      if (!('document_id' in d) || Object.keys(d).length !== 1) return d as ExportDocument;
      const id = String(d.document_id);
      const found = await deps.documents.get(tenantId, id);
      if (!found) {
        errors.push(
          fieldError(`documents.${i}.document_id`, 'not_found', 'no document with this id in this tenant'),
        );
        return undefined;
      }
      if (found.status === 'void') {
        errors.push(
          fieldError(`documents.${i}.document_id`, 'document_void', 'a void document is not exported'),
        );
        return undefined;
      }
      const sent = Object.fromEntries(SENT_FIELDS.filter((f) => found[f] != null).map((f) => [f, found[f]]));
      // A payment or credit note is booked against its invoice, which the target knows by number.
      const invoice =
        typeof found.applies_to === 'string'
          ? await deps.documents.get(tenantId, found.applies_to)
          : undefined;
      return {
        ...sent,
        ...(invoice ? { invoice_number: invoice.number } : {}),
        document_id: id,
      } as unknown as ExportDocument;
    }),
  );
  return { documents, errors };
}

/** What names a document in the export's items: its id, or the number it was given with. */
const documentRef = (d: ExportDocument) => String(d.document_id ?? d.number);

/**
 * Create an export.
 * 1. Check the documents named by id (422 per document, with its path) and the connection named
 *    (422 when the tenant has no such connection).
 * 2. Store it as `queued` with the claim on its `export_batch_id`, its `accounting_export.queued`
 *    audit event and the outbox event for the external worker, in one transaction.
 * 3. A taken batch id: the export that holds it when the request body is the same (200), 409
 *    conflict otherwise. The claim lives as long as the export, not 24 hours.
 */
export async function createExport(
  deps: AccountingDeps,
  actor: Principal,
  tenantId: string,
  input: CreateInput,
): Promise<{ export: AccountingExport; created: boolean }> {
  const fingerprint = sha256(JSON.stringify(input));
  const { documents, errors } = await resolveDocuments(deps, tenantId, input);
  if (input.integration_connection_id) {
    const connection = await deps.connections.get(tenantId, input.integration_connection_id);
    if (!connection || connection.category !== 'accounting')
      errors.push(
        fieldError(
          'integration_connection_id',
          'not_found',
          'no accounting connection with this id in this tenant',
        ),
      );
  }
  if (errors.length) {
    const repeat = await existingFor(deps, tenantId, input.export_batch_id, fingerprint);
    if (repeat) return { export: repeat, created: false };
    throw new ValidationError(errors);
  }
  const now = deps.clock.now().toISOString();
  const sent = documents as ExportDocument[];
  const e: StoredExport = {
    id: newId(),
    tenant_id: tenantId,
    export_batch_id: input.export_batch_id,
    integration_connection_id: input.integration_connection_id ?? null,
    status: 'queued',
    document_count: sent.length,
    items: sent.map((d, index) => ({
      index,
      document_ref: documentRef(d),
      status: 'pending',
      error_code: null,
      retryable: null,
      external_id: null,
    })),
    attempts: [],
    review_item_id: null,
    simulate_failure: input.simulate_failure ?? null,
    created_by: actor.user_id,
    created_at: now,
    updated_at: now,
    completed_at: null,
    documents: sent,
    fingerprint,
  };
  const audit = auditEvent(deps.clock, {
    tenant_id: tenantId,
    event_type: 'accounting_export.queued',
    actor_id: actor.user_id,
    entity_type: 'accounting_export',
    entity_id: e.id,
    summary: `accounting export ${e.export_batch_id} of ${e.document_count} documents queued`,
    metadata: { export_batch_id: e.export_batch_id, document_count: e.document_count },
  });
  const result = await deps.exports.create(e, audit, exportRequested(deps.clock, e));
  if (result.created) return { export: publicExport(e), created: true };
  const repeat = await existingFor(deps, tenantId, input.export_batch_id, fingerprint, result.existingId);
  if (repeat) return { export: repeat, created: false };
  throw new ConflictError('This export_batch_id was used with another request body.');
}

/** The export that holds a batch id, when the body is the same; 409 when it is not. */
async function existingFor(
  deps: AccountingDeps,
  tenantId: string,
  batchId: string,
  fingerprint: string,
  existingId?: string,
): Promise<AccountingExport | undefined> {
  const id = existingId ?? (await deps.exports.batchOwner(tenantId, batchId));
  if (!id) return undefined;
  const existing = await deps.exports.get(tenantId, id);
  if (!existing) return undefined;
  if (existing.fingerprint !== fingerprint)
    throw new ConflictError('This export_batch_id was used with another request body.');
  return publicExport(existing);
}

/** The read record: what the store keeps for the worker stays out. */
export const publicExport = ({
  documents: _d,
  fingerprint: _f,
  lease_until: _l,
  ...read
}: StoredExport): AccountingExport => read;

export async function getExport(deps: AccountingDeps, tenantId: string, id: string) {
  const found = await deps.exports.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return publicExport(found);
}

export const listExports = (
  deps: AccountingDeps,
  tenantId: string,
  filter: ExportFilter,
  page: PageRequest,
) => deps.exports.list(tenantId, filter, page);
