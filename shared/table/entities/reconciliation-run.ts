import { type AccessDoc, entity } from '../entity';

/** A reconciliation run (docs/api.md section 9.3): queued by the API, completed by the internal worker. */
export const reconciliationRun = /* @__PURE__ */ entity('reconciliation_run', {
  table: { pk: 'TENANT#{tenant_id}#RECONCILIATION_RUN', sk: '{id}' },
});

/** ReconciliationRunRead's fields, in order. */
export const RECONCILIATION_RUN_FIELDS = [
  'id',
  'tenant_id',
  'connection_id',
  'adapter_key',
  'rule_set',
  'status',
  'matched',
  'mismatched',
  'missing_in_provider',
  'missing_locally',
  'exception_ids',
  'error',
  'requested_by',
  'created_at',
  'updated_at',
  'completed_at',
] as const;

export const access = {
  entity: reconciliationRun,
  labels: { id: 'run_id' },
  patterns: [
    { name: 'Get reconciliation run', sortKey: 'equals' },
    {
      name: 'List reconciliation runs, newest first',
      notes: 'status and connection_id are filter expressions',
    },
  ],
} satisfies AccessDoc<typeof reconciliationRun>;
