import { type AccessDoc, entity, record } from '../entity';
import { editable } from '../editable';

/**
 * A workflow rule (docs/api.md section 9.1). Only an enabled rule carries gsi1 keys, under its
 * trigger's event type (`enabled_event_type`, a key value, not an attribute of the record), so
 * the internal worker reads a tenant's rules for one event type in one Query.
 */
export const workflowRule = /* @__PURE__ */ entity('workflow_rule', {
  table: { pk: 'TENANT#{tenant_id}#WORKFLOW_RULE', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#WORKFLOW_RULE#ON#{enabled_event_type}', sk: '{id}' },
});

/** The workflow rule record, in the order the API returns it (WorkflowRuleRead derives from it). */
export const workflowRuleRecord = /* @__PURE__ */ record(workflowRule, {
  id: 'string',
  tenant_id: 'string',
  name: 'string',
  trigger: 'json',
  conditions: 'json',
  actions: 'json',
  enabled: 'boolean',
  /** A scheduled rule's next firing (its `rule_schedule` timer's due time); null when disabled or not scheduled. */
  next_run_at: 'datetime|null',
  /** Starts at 1 and grows with every change; a PATCH names the version it was made against. */
  version: 'int',
  created_at: 'datetime',
  updated_at: 'datetime',
});

/**
 * What a rule's PATCH may change, naming the version it was made against (409 when it is not the
 * current one): WorkflowRuleUpdate and updateRule derive from it.
 */
export const workflowRuleEditable = /* @__PURE__ */ editable(
  workflowRuleRecord,
  ['name', 'trigger', 'conditions', 'actions', 'enabled'],
  { version: 'version' },
);

export const access = {
  entity: workflowRule,
  labels: { id: 'rule_id', enabled_event_type: 'event_type' },
  patterns: [
    { name: 'Get workflow rule', sortKey: 'equals' },
    { name: 'List workflow rules, newest first' },
    {
      name: "A tenant's enabled rules for one event type (internal worker)",
      index: 'gsi1',
      notes: 'sparse: a disabled rule carries no gsi1 keys',
    },
  ],
} satisfies AccessDoc<typeof workflowRule>;
