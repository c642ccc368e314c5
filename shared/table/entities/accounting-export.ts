import { type AccessDoc, entity } from '../entity';

/**
 * An accounting export (docs/api.md section 9.2): its documents as they were sent for (kept, not
 * read back by the API), their per-document status, the attempts, and the worker's lease.
 */
export const accountingExport = /* @__PURE__ */ entity('accounting_export', {
  table: { pk: 'TENANT#{tenant_id}#ACCOUNTING_EXPORT', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#ACCOUNTING_EXPORT#STATUS#{status}', sk: '{id}' },
});

/** The export record the stores read back (AccountingExportRead's fields, in order). */
export const ACCOUNTING_EXPORT_FIELDS = [
  'id',
  'tenant_id',
  'export_batch_id',
  'integration_connection_id',
  'status',
  'document_count',
  'items',
  'attempts',
  'review_item_id',
  'simulate_failure',
  'created_by',
  'created_at',
  'updated_at',
  'completed_at',
] as const;

export const access = {
  entity: accountingExport,
  labels: { id: 'export_id' },
  patterns: [
    { name: 'Get accounting export', sortKey: 'equals' },
    { name: 'List accounting exports, newest first' },
    { name: 'List accounting exports by status', index: 'gsi1' },
  ],
} satisfies AccessDoc<typeof accountingExport>;
