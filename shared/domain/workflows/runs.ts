import { InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import { type Clock, derivedId, newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';
import { type AuditEvent, auditEvent } from '#shared/domain/audit';
import { decidedReviewItem, reviewDecidedEvent } from '#shared/domain/review';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { WorkflowRuleStore } from './ports';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Timer } from '#shared/domain/timers/ports';
import type { ReviewItem } from '#shared/domain/notifications/ports';

/** A retry decision on a failed run's review item: the item decided and its audit event. */
export interface ReplayDecision {
  decided: ReviewItem;
  audit: AuditEvent;
}

/**
 * Workflow runs (docs/api.md, "Workflow runs"): one record per firing of a rule whose conditions
 * matched, with each action's outcome. Events that match no rule leave none.
 */

/** A run's statuses; a rule's list reads one partition of each and merges them. */
export const WORKFLOW_RUN_STATUSES = ['running', 'waiting', 'succeeded', 'failed'] as const;
export type RunStatus = (typeof WORKFLOW_RUN_STATUSES)[number];

/** How long a run is kept: DynamoDB deletes it through its `ttl`. */
export const WORKFLOW_RUN_TTL_DAYS = 30;
export type RunActionStatus = 'pending' | 'waiting' | 'done' | 'failed' | 'skipped';

export interface RunAction {
  index: number;
  type: string;
  status: RunActionStatus;
  result?: { task_id?: string; notification_id?: string; status?: string };
  error?: { code: string; message: string };
  at?: string;
}

export interface WorkflowRun {
  id: string;
  tenant_id: string;
  rule_id: string;
  rule_version: number;
  trigger: { event_id: string; event_type?: string; scheduled_for?: string };
  subject_type: string | null;
  subject_id: string | null;
  status: RunStatus;
  actions: RunAction[];
  replays: { at: string; actor_id: string; rule_version: number }[];
  created_at: string;
  finished_at: string | null;
  /** Epoch seconds; hidden from the API, as are the two below. */
  ttl: number;
  /** The triggering event's time: the actions' ids derive from it. */
  event_at: string;
  /** How deep in a chain of runs its event is (docs/api.md, "Loops"). */
  depth: number;
}

export type WorkflowRunRead = Omit<WorkflowRun, 'ttl' | 'event_at' | 'depth'>;

export interface RunFilter {
  rule_id?: string | undefined;
  status?: RunStatus | undefined;
  subject_type?: string | undefined;
  subject_id?: string | undefined;
  /** Runs started at or after this time. */
  since?: string | undefined;
}

export interface WorkflowRunStore {
  get(tenantId: string, id: string): Promise<WorkflowRun | undefined>;
  /**
   * The run as started, written only if no run has its id: false when one has (a redelivered
   * event, whose run the caller reads and completes).
   */
  start(run: WorkflowRun): Promise<boolean>;
  /**
   * The run as it stands now (its actions' outcomes, its status), over what was stored; with the
   * `rule_delay` timer it now waits on armed, or the `workflow_run.failed` event of a run that
   * ended failed written, in the same transaction.
   */
  save(run: WorkflowRun, timer?: Timer | null, event?: OutboxEvent | null): Promise<void>;
  list(tenantId: string, filter: RunFilter, page: PageRequest): Promise<Page<WorkflowRun>>;
  /**
   * A replay's start: `next` (running, its replay appended), the event that asks the worker to
   * run it, and its audit event, in one transaction on the condition that the stored run has
   * ended and still has `replays` replays: of racing replays one wins, false for the others. With
   * a review decision, the item's decision and its audit event join the transaction, on the
   * condition that the item is still open.
   */
  replay(
    next: WorkflowRun,
    replays: number,
    event: OutboxEvent,
    audit: AuditEvent,
    decision?: ReplayDecision,
  ): Promise<boolean>;
  /** A run's one review item (`runReviewId`), whatever its status. */
  reviewItem(tenantId: string, id: string): Promise<ReviewItem | undefined>;
  /** The ids of a rule's failed runs that started in [since, until], newest first, at most `max`. */
  failedIds(
    tenantId: string,
    ruleId: string,
    since: string,
    until: string | null,
    max: number,
  ): Promise<string[]>;
}

export const runTtl = (createdAt: string): number =>
  Math.floor(Date.parse(createdAt) / 1000) + WORKFLOW_RUN_TTL_DAYS * 24 * 3600;

export const runRead = ({ ttl: _t, event_at: _e, depth: _d, ...run }: WorkflowRun): WorkflowRunRead => run;
const read = runRead;

export async function listRuns(
  deps: { runs: Pick<WorkflowRunStore, 'list'> },
  tenantId: string,
  query: RunFilter & PageRequest,
): Promise<Page<WorkflowRunRead>> {
  const { limit, cursor, ...filter } = query;
  const page = await deps.runs.list(tenantId, filter, { limit, cursor });
  return { items: page.items.map(read), next_cursor: page.next_cursor };
}

export async function getRun(
  deps: { runs: Pick<WorkflowRunStore, 'get'> },
  tenantId: string,
  id: string,
): Promise<WorkflowRunRead> {
  const run = await deps.runs.get(tenantId, id);
  if (!run) throw new NotFoundError('Workflow run not found.');
  return read(run);
}

export interface ReplayDeps {
  runs: Pick<WorkflowRunStore, 'get' | 'replay' | 'reviewItem'>;
  rules: Pick<WorkflowRuleStore, 'get'>;
  clock: Clock;
}

/**
 * Replay a run that ended (docs/api.md, "Replay"): its actions that are not `done` run again, with
 * the rule as it stands now, on the internal worker.
 * 1. Read the run (404) and its rule; a run still running or waiting, or whose rule was deleted,
 *    is 409.
 * 2. In one conditional transaction: the run `running` with this replay appended (`done` actions
 *    kept, the others `pending`), the `workflow.run_resumed` event naming the replay's number, and
 *    the `workflow_run.replayed` audit event (and, for a retry decision on the run's review item,
 *    that decision while the item is open). Of concurrent replays of one run one wins; the
 *    others find it running: 409.
 */
export async function replayRun(
  deps: ReplayDeps,
  actor: Principal,
  tenantId: string,
  runId: string,
  decision?: ReplayDecision,
): Promise<WorkflowRunRead> {
  const run = await deps.runs.get(tenantId, runId);
  if (!run) throw new NotFoundError('Workflow run not found.');
  if (run.status === 'running' || run.status === 'waiting')
    throw new InvalidTransitionError(`The run is ${run.status}; replay it once it has ended.`);
  const rule = await deps.rules.get(tenantId, run.rule_id);
  if (!rule) throw new InvalidTransitionError('The rule of this run was deleted.');
  const at = deps.clock.now().toISOString();
  const number = run.replays.length + 1;
  const next: WorkflowRun = {
    ...run,
    status: 'running',
    finished_at: null,
    actions: rule.actions.map((action, index) => {
      const was = run.actions[index];
      return was?.status === 'done' && was.type === action.type
        ? was
        : { index, type: action.type, status: 'pending' };
    }),
    replays: [...run.replays, { at, actor_id: actor.user_id, rule_version: rule.version }],
  };
  decision ??= await decideOpenReview(deps, actor, run, at);
  const eventId = newId();
  const event: OutboxEvent = {
    event_id: eventId,
    kind: EVENT_KINDS.workflowRunResumed,
    tenant_id: tenantId,
    idempotency_key: `workflow-run-replay:${tenantId}:${run.id}:${number}`,
    occurred_at: at,
    payload: { run_id: run.id, replay: String(number) },
  };
  const audit = auditEvent(deps.clock, {
    tenant_id: tenantId,
    event_type: 'workflow_run.replayed',
    actor_id: actor.user_id,
    entity_type: 'workflow_run',
    entity_id: run.id,
    summary: `replay ${number} of a ${run.status} run of rule ${run.rule_id}`,
    metadata: {
      rule_id: run.rule_id,
      replay: number,
      rule_version: rule.version,
      was: run.status,
      ...(decision ? { review_item_id: decision.decided.id } : {}),
    },
  });
  if (!(await deps.runs.replay(next, run.replays.length, event, audit, decision)))
    throw new InvalidTransitionError(
      decision ? 'The run or its review item changed meanwhile.' : 'The run is being replayed already.',
    );
  return read(next);
}

/** The id of a run's one review item: every failed ending of the run opens (or reopens) it. */
export const runReviewId = (run: Pick<WorkflowRun, 'event_at' | 'id'>): string =>
  derivedId(run.event_at, run.id, 'review');

/**
 * A replay asked for from the run, or with a rule's failed runs, is the item's `retry` too: its
 * open review item is decided by the same actor in the replay's transaction, so the queue never
 * offers a run that is being (or was) replayed. A replay that fails again reopens the item.
 */
async function decideOpenReview(
  deps: ReplayDeps,
  actor: Principal,
  run: WorkflowRun,
  at: string,
): Promise<ReplayDecision | undefined> {
  if (run.status !== 'failed') return undefined;
  const item = await deps.runs.reviewItem(run.tenant_id, runReviewId(run));
  if (item?.status !== 'open') return undefined;
  const decided = decidedReviewItem(
    item,
    { action: 'retry', note: 'replayed from the run' },
    actor.user_id,
    at,
  );
  return {
    decided,
    audit: reviewDecidedEvent(deps.clock, actor.user_id, decided, `retry workflow run ${run.id}`),
  };
}
