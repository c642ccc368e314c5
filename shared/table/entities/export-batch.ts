import { type AccessDoc, entity } from '../entity';

/**
 * The claim on an `export_batch_id` within its tenant, for the life of the export: written with
 * a not-exists condition in the export's transaction; holds the export's id and the fingerprint
 * of the request body, so a repeat is answered with the export (same body) or 409 (another).
 */
export const exportBatch = /* @__PURE__ */ entity('export_batch', {
  table: { pk: 'TENANT#{tenant_id}#EXPORT_BATCH', sk: '{export_batch_id}' },
});

export const access = {
  entity: exportBatch,
  patterns: [
    {
      name: 'Claim an export batch id',
      sortKey: 'equals',
      notes: "conditional Put in the export's transaction: export_batch_id is unique per tenant",
    },
  ],
} satisfies AccessDoc<typeof exportBatch>;
