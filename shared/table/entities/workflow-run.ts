import { type AccessDoc, entity, record } from '../entity';

/**
 * One firing of a workflow rule whose conditions matched (docs/api.md, "Workflow runs"). Its id is
 * derived from the rule and the triggering event (a UUIDv7 of the event's time), so a redelivered
 * event finds the run it started and completes it, and every key below orders newest first. Each
 * filter of the list has a key of its own, so a filtered first page is full however many runs do
 * not match: the rule and status together (gsi1; the rule alone merges its four status
 * partitions), the status (gsi2) and the subject (gsi3, sparse: a scheduled run has no subject).
 * A status change moves the run's gsi1 and gsi2 entries.
 */
export const workflowRun = /* @__PURE__ */ entity('workflow_run', {
  table: { pk: 'TENANT#{tenant_id}#WORKFLOW_RUN', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#WORKFLOW_RUN#RULE#{rule_id}#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#WORKFLOW_RUN#STATUS#{status}', sk: '{id}' },
  gsi3: { pk: 'TENANT#{tenant_id}#WORKFLOW_RUN#SUBJECT#{subject_type}#{subject_id}', sk: '{id}' },
});

/** The run record, in the order the API returns it (WorkflowRunRead derives from it). */
export const workflowRunRecord = /* @__PURE__ */ record(workflowRun, {
  id: 'string',
  tenant_id: 'string',
  rule_id: 'string',
  rule_version: 'int',
  /** `{event_id, event_type}` of a change, `{event_id, scheduled_for}` of a schedule. */
  trigger: 'json',
  subject_type: 'string|null',
  subject_id: 'string|null',
  status: 'enum',
  /** Each action: `{index, type, status, result?, error?, at?}`. */
  actions: 'json',
  /** Each replay: `{at, actor_id, rule_version}`. */
  replays: 'json',
  created_at: 'datetime',
  finished_at: 'datetime|null',
  /** Epoch seconds: DynamoDB deletes the run 30 days after it started. */
  ttl: { type: 'int', hidden: true },
  /** The triggering event's time: the actions' ids derive from it. */
  event_at: { type: 'datetime', hidden: true },
  /** How deep in a chain of runs its event is: a run at depth 5 does not act. */
  depth: { type: 'int', hidden: true },
});

export const access = {
  entity: workflowRun,
  labels: { id: 'run_id' },
  patterns: [
    { name: 'Get workflow run (the worker finds the run a redelivered event started)', sortKey: 'equals' },
    { name: 'List workflow runs, newest first' },
    {
      name: "List a rule's runs by status; a rule's runs (one Query per status, merged)",
      index: 'gsi1',
      notes: 'subject_type and subject_id are answered by gsi3 instead',
    },
    { name: 'List workflow runs by status', index: 'gsi2' },
    {
      name: "List a subject's workflow runs",
      index: 'gsi3',
      notes:
        'sparse: a scheduled run has no subject; rule_id and status, when also given, are filters (one subject has few runs)',
    },
  ],
} satisfies AccessDoc<typeof workflowRun>;
