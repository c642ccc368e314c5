import { type AccessDoc, entity, record } from '../entity';

/**
 * An accounting export (docs/api.md section 9.2): its documents as they were sent for (kept, not
 * read back by the API), their per-document status, the attempts, and the worker's lease.
 */
export const accountingExport = /* @__PURE__ */ entity('accounting_export', {
  table: { pk: 'TENANT#{tenant_id}#ACCOUNTING_EXPORT', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#ACCOUNTING_EXPORT#STATUS#{status}', sk: '{id}' },
});

/** The export record (AccountingExportRead derives from it), with what the worker keeps beside
 * it: the documents to send, the request's fingerprint and the run's lease. */
export const accountingExportRecord = /* @__PURE__ */ record(accountingExport, {
  id: 'string',
  tenant_id: 'string',
  export_batch_id: 'string',
  /** As requested, else the connection the worker resolved; null until then. */
  integration_connection_id: 'string|null',
  status: 'enum',
  document_count: 'int',
  items: 'json',
  attempts: 'json',
  review_item_id: 'string|null',
  simulate_failure: 'enum|null',
  created_by: 'string',
  created_at: 'datetime',
  updated_at: 'datetime',
  completed_at: 'datetime|null',
  documents: { type: 'json', hidden: true },
  fingerprint: { type: 'string', hidden: true },
  lease_until: { type: 'datetime|null?', hidden: true },
});

export const access = {
  entity: accountingExport,
  labels: { id: 'export_id' },
  patterns: [
    { name: 'Get accounting export', sortKey: 'equals' },
    { name: 'List accounting exports, newest first' },
    { name: 'List accounting exports by status', index: 'gsi1' },
  ],
} satisfies AccessDoc<typeof accountingExport>;
