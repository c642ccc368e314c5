import { type AccessDoc, entity } from '../entity';

/**
 * The claim on a document's `(document_type, number)` within its tenant: written with a
 * not-exists condition in the same transaction as the document, so a number is taken once.
 */
export const documentNumber = /* @__PURE__ */ entity('document_number', {
  table: { pk: 'TENANT#{tenant_id}#DOCUMENT_NUMBER', sk: '{document_type}#{number}' },
});

export const access = {
  entity: documentNumber,
  patterns: [
    {
      name: 'Claim a document number',
      sortKey: 'equals',
      notes: "conditional Put in the document's transaction: (document_type, number) is unique per tenant",
    },
  ],
} satisfies AccessDoc<typeof documentNumber>;
