import { type AccessDoc, entity, record } from '../entity';

/** A reconciliation run (docs/api.md section 9.3): queued by the API, completed by the internal worker. */
export const reconciliationRun = /* @__PURE__ */ entity('reconciliation_run', {
  table: { pk: 'TENANT#{tenant_id}#RECONCILIATION_RUN', sk: '{id}' },
});

/** The reconciliation run record, in the order the API returns it (ReconciliationRunRead derives from it). */
export const reconciliationRunRecord = /* @__PURE__ */ record(reconciliationRun, {
  id: 'string',
  tenant_id: 'string',
  connection_id: 'string',
  adapter_key: 'string',
  rule_set: 'string',
  status: 'enum',
  matched: 'int',
  mismatched: 'int',
  missing_in_provider: 'int',
  missing_locally: 'int',
  /** The business exception of each mismatch (the same exception on every run that finds it). */
  exception_ids: 'string[]',
  error: 'string|null',
  requested_by: 'string|null',
  created_at: 'datetime',
  updated_at: 'datetime',
  completed_at: 'datetime|null',
});

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
