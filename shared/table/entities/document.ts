import { type AccessDoc, entity } from '../entity';

/** A business document: an invoice, a payment or a credit note (docs/api.md section 9). */
export const document = /* @__PURE__ */ entity('document', {
  table: { pk: 'TENANT#{tenant_id}#DOCUMENT', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#DOCUMENT#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#DOCUMENT#TYPE#{document_type}', sk: '{id}' },
});

/** The document record the stores read back (DocumentRead's fields, in order). */
export const DOCUMENT_FIELDS = [
  'id',
  'tenant_id',
  'document_type',
  'number',
  'counterparty',
  'currency',
  'amount',
  'issued_on',
  'due_on',
  'external_refs',
  'lines',
  'applies_to',
  'status',
  'created_at',
  'updated_at',
] as const;

export const access = {
  entity: document,
  labels: { id: 'document_id' },
  patterns: [
    { name: 'Get document', sortKey: 'equals' },
    {
      name: 'List documents, newest first',
      notes: 'counterparty is a filter expression on whichever index answers',
    },
    {
      name: 'List documents by status',
      index: 'gsi1',
      notes: 'document_type, when also given, is a filter',
    },
    { name: 'List documents by type', index: 'gsi2' },
  ],
} satisfies AccessDoc<typeof document>;
