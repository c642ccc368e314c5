import { type AccessDoc, entity, record } from '../entity';

/** A business document: an invoice, a payment or a credit note (docs/api.md section 9). */
export const document = /* @__PURE__ */ entity('document', {
  table: { pk: 'TENANT#{tenant_id}#DOCUMENT', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#DOCUMENT#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#DOCUMENT#TYPE#{document_type}', sk: '{id}' },
});

/** The document record, in the order the API returns it (DocumentRead derives from it). */
export const documentRecord = /* @__PURE__ */ record(document, {
  id: 'string',
  tenant_id: 'string',
  document_type: 'enum',
  number: 'string',
  counterparty: 'string',
  currency: 'string',
  amount: 'string',
  issued_on: 'date',
  due_on: 'date|null',
  external_refs: 'json',
  lines: 'json',
  applies_to: 'string|null',
  status: 'enum',
  created_at: 'datetime',
  updated_at: 'datetime',
});

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
