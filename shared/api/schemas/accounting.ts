import * as z from 'zod/mini';
import { MONEY_PATTERN } from '#shared/kernel/money';
import { describe, named, pageQuery, text } from './common';

/** The accounting export (docs/api.md section 9.2), with the seed's bounds. */

export const ACCOUNTING_EXPORT_STATUSES = [
  'queued',
  'exporting',
  'retrying',
  'exported',
  'partially_exported',
  'failed',
  'gated',
  'discarded',
] as const;
export const AccountingExportStatus = z.enum(ACCOUNTING_EXPORT_STATUSES);

const Money = describe(
  z
    .string()
    .check(z.regex(MONEY_PATTERN, 'must be a decimal string with at most 2 decimals, like "1000.00"')),
  'Decimal string with at most 2 decimals',
);

/** A document of the tenant, by id: the export sends it as it is when the export is created. */
export const ExportDocumentById = named(z.strictObject({ document_id: text(1, 64) }), 'ExportDocumentById');

/**
 * A document given in the request: at least a number, an amount and a currency; other fields
 * (counterparty, issued_on, document_type, ...) are passed to the target as given.
 */
export const ExportDocumentInline = named(
  z.looseObject({
    number: text(1, 64),
    amount: Money,
    currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be 3 upper-case letters (ISO 4217)')),
  }),
  'ExportDocumentInline',
);

/** `{document_id}` alone names a document; anything else is a free-form document. */
const ExportDocument = z.union([ExportDocumentById, ExportDocumentInline]);

export const MAX_EXPORT_DOCUMENTS = 50;

export const AccountingExportCreate = named(
  z.strictObject({
    export_batch_id: text(2, 120),
    documents: z.array(ExportDocument).check(z.minLength(1), z.maxLength(MAX_EXPORT_DOCUMENTS)),
    integration_connection_id: z.optional(z.nullable(text(1, 36))),
    simulate_failure: z.optional(z.nullable(z.enum(['retryable', 'permanent']))),
  }),
  'AccountingExportCreate',
);

export const AccountingExportListQuery = z.strictObject({
  status: z.optional(AccountingExportStatus),
  ...pageQuery,
});

export const AccountingExportPath = z.object({ tenant_id: text(1, 64), export_id: text(1, 64) });
