import { InvalidTransitionError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { type Clock, newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';
import { type AuditEvent, auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { WorkflowRuleStore } from './ports';
import { replayRun, type ReplayDeps, WORKFLOW_RUN_TTL_DAYS, type WorkflowRunStore } from './runs';

/**
 * A replay of a rule's failed runs over a period (docs/api.md, "Replay"): asked on the API, done
 * by the internal worker one run at a time (each as `POST .../workflow-runs/{id}/replay` does
 * it), its progress kept on its own record, readable by `GET .../workflow-replays/{id}`.
 */

/** At most this many runs per replay. */
export const RULE_REPLAY_MAX = 1000;
/** Progress is saved after every this many runs. */
const PROGRESS_EVERY = 50;

export interface WorkflowReplay {
  id: string;
  tenant_id: string;
  rule_id: string;
  since: string;
  until: string | null;
  status: 'queued' | 'running' | 'done';
  queued: number;
  replayed: number;
  skipped: number;
  actor_id: string;
  created_at: string;
  updated_at: string;
  ttl: number;
}

export type WorkflowReplayRead = Omit<WorkflowReplay, 'ttl'>;

export interface WorkflowReplayStore {
  /** The replay, the event that asks the worker to do it, and its audit event, in one transaction. */
  create(replay: WorkflowReplay, event: OutboxEvent, audit: AuditEvent): Promise<void>;
  get(tenantId: string, id: string): Promise<WorkflowReplay | undefined>;
  save(replay: WorkflowReplay): Promise<void>;
}

export interface RuleReplayDeps extends ReplayDeps {
  runs: ReplayDeps['runs'] & Pick<WorkflowRunStore, 'failedIds'>;
  rules: Pick<WorkflowRuleStore, 'get'>;
  replays: WorkflowReplayStore;
  clock: Clock;
}

const read = ({ ttl: _, ...r }: WorkflowReplay): WorkflowReplayRead => r;
const DAY_MS = 86_400_000;

/**
 * Ask for a replay of a rule's failed runs that started in [since, until].
 * 1. The rule exists (404); `since` is at most 30 days back (runs are kept 30 days) and `until`,
 *    when given, after it (422).
 * 2. The failed runs are counted now (at most 1,000, the newest), one Query of the rule's failed
 *    partition: `queued`.
 * 3. The replay record, the `workflow.rule_replay_requested` event and the
 *    `workflow_rule.replay_requested` audit event, in one transaction -> 202.
 */
export async function requestRuleReplay(
  deps: RuleReplayDeps,
  actor: Principal,
  tenantId: string,
  ruleId: string,
  body: { since: string; until?: string | undefined },
): Promise<WorkflowReplayRead> {
  const rule = await deps.rules.get(tenantId, ruleId);
  if (!rule) throw new NotFoundError('Workflow rule not found.');
  const now = deps.clock.now();
  const since = new Date(body.since).toISOString();
  const until = body.until ? new Date(body.until).toISOString() : null;
  if (Date.parse(since) < now.getTime() - WORKFLOW_RUN_TTL_DAYS * DAY_MS)
    throw new ValidationError([
      { path: 'since', code: 'too_old', message: `must be at most ${WORKFLOW_RUN_TTL_DAYS} days back` },
    ]);
  if (until && until <= since)
    throw new ValidationError([{ path: 'until', code: 'before_since', message: 'must be after since' }]);
  const ids = await deps.runs.failedIds(tenantId, ruleId, since, until, RULE_REPLAY_MAX);
  const at = now.toISOString();
  const replay: WorkflowReplay = {
    id: newId(),
    tenant_id: tenantId,
    rule_id: ruleId,
    since,
    until,
    status: 'queued',
    queued: ids.length,
    replayed: 0,
    skipped: 0,
    actor_id: actor.user_id,
    created_at: at,
    updated_at: at,
    ttl: Math.floor(now.getTime() / 1000) + WORKFLOW_RUN_TTL_DAYS * 86_400,
  };
  await deps.replays.create(
    replay,
    {
      event_id: newId(),
      kind: EVENT_KINDS.workflowRuleReplayRequested,
      tenant_id: tenantId,
      idempotency_key: `workflow-rule-replay:${tenantId}:${replay.id}`,
      occurred_at: at,
      payload: { replay_id: replay.id },
    },
    auditEvent(deps.clock, {
      tenant_id: tenantId,
      event_type: 'workflow_rule.replay_requested',
      actor_id: actor.user_id,
      entity_type: 'workflow_rule',
      entity_id: ruleId,
      summary: `replay of ${ids.length} failed run(s) since ${since}`,
      metadata: { replay_id: replay.id, since, until, queued: ids.length },
    }),
  );
  return read(replay);
}

export async function getReplay(
  deps: { replays: Pick<WorkflowReplayStore, 'get'> },
  tenantId: string,
  id: string,
): Promise<WorkflowReplayRead> {
  const replay = await deps.replays.get(tenantId, id);
  if (!replay) throw new NotFoundError('Workflow replay not found.');
  return read(replay);
}

/**
 * The worker's side: each failed run of the period is replayed as one replay of one run (one
 * conditional transaction each; a run that is no longer failed is skipped), progress saved every
 * 50 runs and at the end. A redelivery goes on from the runs still failed.
 */
export async function runRuleReplay(
  deps: RuleReplayDeps,
  event: OutboxEvent,
): Promise<WorkflowReplay | undefined> {
  const found = await deps.replays.get(event.tenant_id, String(event.payload.replay_id ?? ''));
  if (!found || found.status === 'done') return undefined;
  let replay: WorkflowReplay = { ...found, status: 'running', updated_at: deps.clock.now().toISOString() };
  await deps.replays.save(replay);
  const ids = await deps.runs.failedIds(
    replay.tenant_id,
    replay.rule_id,
    replay.since,
    replay.until,
    RULE_REPLAY_MAX,
  );
  // The runs counted when it was asked that are no longer failed (replayed by hand meanwhile).
  if (found.status === 'queued') replay = { ...replay, skipped: Math.max(0, replay.queued - ids.length) };
  const actor: Principal = {
    user_id: replay.actor_id,
    token_id: '',
    email: '',
    display_name: '',
    platform_roles: [],
    memberships: {},
  };
  for (const [i, id] of ids.entries()) {
    try {
      await replayRun(deps, actor, replay.tenant_id, id);
      replay = { ...replay, replayed: replay.replayed + 1 };
    } catch (err) {
      if (!(err instanceof InvalidTransitionError || err instanceof NotFoundError)) throw err;
      replay = { ...replay, skipped: replay.skipped + 1 };
    }
    if ((i + 1) % PROGRESS_EVERY === 0) {
      replay = { ...replay, updated_at: deps.clock.now().toISOString() };
      await deps.replays.save(replay);
    }
  }
  replay = { ...replay, status: 'done', updated_at: deps.clock.now().toISOString() };
  await deps.replays.save(replay);
  return replay;
}
