import { NotFoundError } from '#shared/kernel/errors';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { Timer } from '#shared/domain/timers/ports';

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
   * `rule_delay` timer it now waits on armed in the same transaction.
   */
  save(run: WorkflowRun, timer?: Timer | null): Promise<void>;
  list(tenantId: string, filter: RunFilter, page: PageRequest): Promise<Page<WorkflowRun>>;
}

export const runTtl = (createdAt: string): number =>
  Math.floor(Date.parse(createdAt) / 1000) + WORKFLOW_RUN_TTL_DAYS * 24 * 3600;

const read = ({ ttl: _t, event_at: _e, depth: _d, ...run }: WorkflowRun): WorkflowRunRead => run;

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
