import { type AccessDoc, entity, record } from '../entity';

/**
 * A replay of a rule's failed runs over a period (docs/api.md, "Replay"): what was asked, how many
 * runs it queued, and its progress as the internal worker replays them. Kept 30 days (`ttl`).
 */
export const workflowReplay = /* @__PURE__ */ entity('workflow_replay', {
  table: { pk: 'TENANT#{tenant_id}#WORKFLOW_REPLAY', sk: '{id}' },
});

/** The replay record, in the order the API returns it (WorkflowReplayRead derives from it). */
export const workflowReplayRecord = /* @__PURE__ */ record(workflowReplay, {
  id: 'string',
  tenant_id: 'string',
  rule_id: 'string',
  since: 'datetime',
  until: 'datetime|null',
  status: 'enum',
  /** The failed runs found when it was asked (at most 1,000). */
  queued: 'int',
  replayed: 'int',
  /** Runs that were no longer failed when their turn came (replayed by hand, or running). */
  skipped: 'int',
  actor_id: 'string',
  created_at: 'datetime',
  updated_at: 'datetime',
  ttl: { type: 'int', hidden: true },
});

export const access = {
  entity: workflowReplay,
  labels: { id: 'replay_id' },
  patterns: [{ name: 'Get workflow replay (its progress)', sortKey: 'equals' }],
} satisfies AccessDoc<typeof workflowReplay>;
