import { type AccessDoc, entity, record } from '../entity';
import { editable } from '../editable';

/**
 * An escalation policy (docs/api.md, "Escalation policies"): who is told, and when, while an
 * exception it is attached to stays open. A tenant has few, so an exception's create reads them
 * all (one Query of the partition) and picks the one that fits; no index is needed.
 */
export const escalationPolicy = /* @__PURE__ */ entity('escalation_policy', {
  table: { pk: 'TENANT#{tenant_id}#ESCALATION_POLICY', sk: '{id}' },
});

/** The escalation policy record, in the order the API returns it (EscalationPolicyRead derives from it). */
export const escalationPolicyRecord = /* @__PURE__ */ record(escalationPolicy, {
  id: 'string',
  tenant_id: 'string',
  name: 'string',
  /** The lowest priority among the enabled policies that fit an exception is attached to it. */
  priority: 'int',
  match: 'json',
  levels: 'json',
  repeat: 'int',
  ack_timeout_minutes: 'int|null',
  enabled: 'boolean',
  /** Starts at 1 and grows with every change; a PATCH names the version it was made against. */
  version: 'int',
  created_at: 'datetime',
  updated_at: 'datetime',
});

/**
 * What a policy's PATCH may change, naming the version it was made against (409 when it is not
 * the current one): EscalationPolicyUpdate and updatePolicy derive from it.
 */
export const escalationPolicyEditable = /* @__PURE__ */ editable(
  escalationPolicyRecord,
  ['name', 'priority', 'match', 'levels', 'repeat', 'ack_timeout_minutes', 'enabled'],
  { version: 'version' },
);

export const access = {
  entity: escalationPolicy,
  labels: { id: 'policy_id' },
  patterns: [
    { name: 'Get escalation policy', sortKey: 'equals' },
    {
      name: "List a tenant's escalation policies (the list; an exception's create picks one)",
      notes: 'a tenant has few; enabled and match are tested in code',
    },
  ],
} satisfies AccessDoc<typeof escalationPolicy>;
