import { derivedId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/ports';
import { openReviewItem } from '#shared/domain/review';
import { type Action, type PlannedAction, planAction, subjectOf, type WorkflowEvent } from './plan';
import type { WorkflowRule } from './ports';
import { type RunAction, runRead, runReviewId, runTtl, type WorkflowRun } from './runs';
import { workflowEventRecorded } from './events';
import { ruleDelayTimer } from './delay';
import {
  type ActionOutcome,
  attemptAction,
  type FailureReason,
  MAX_RUN_DEPTH,
  type WorkflowRunDeps,
} from './actions';

/**
 * A run's life (docs/api.md, "Workflow runs"): started once per rule and event, one pass over its
 * actions at a time (the first delivery, a delay's end, a replay), stopped by the loop guard.
 */

/** What a run shows of an action's outcome. */
const runActionOf = (outcome: ActionOutcome, plan: PlannedAction, at: string): RunAction => {
  const result =
    plan.type === 'set_status'
      ? { status: plan.status }
      : { [outcome.type === 'create_task' ? 'task_id' : 'notification_id']: outcome.id };
  if (outcome.result === 'failed')
    return {
      index: outcome.index,
      type: outcome.type,
      status: 'failed',
      ...(plan.type === 'set_status' ? {} : { result }),
      error: { code: outcome.reason, message: outcome.detail },
      at,
    };
  return { index: outcome.index, type: outcome.type, status: 'done', result, at };
};

/**
 * The run of (rule, event): started under its derived id, or, when a delivery of the same event
 * started it already (a crash, a redelivery), read back and completed instead of a second one.
 */
export async function startRun(
  deps: WorkflowRunDeps,
  event: OutboxEvent,
  recorded: WorkflowEvent,
  rule: Pick<WorkflowRule, 'id' | 'version'>,
  actionTypes: string[],
): Promise<WorkflowRun> {
  const id = derivedId(event.occurred_at, rule.id, event.event_id, 'run');
  const scheduledFor = recorded.entity.scheduled_for;
  const createdAt = deps.clock.now().toISOString();
  const schedule = recorded.event_type.startsWith('schedule:');
  const run: WorkflowRun = {
    id,
    tenant_id: event.tenant_id,
    rule_id: rule.id,
    rule_version: rule.version,
    trigger: schedule
      ? { event_id: event.event_id, scheduled_for: String(scheduledFor ?? event.occurred_at) }
      : { event_id: event.event_id, event_type: recorded.event_type },
    ...(schedule ? { subject_type: null, subject_id: null } : subjectOf(recorded)),
    status: 'running',
    actions: actionTypes.map((type, index) => ({ index, type, status: 'pending' })),
    replays: [],
    created_at: createdAt,
    finished_at: null,
    ttl: runTtl(createdAt),
    event_at: event.occurred_at,
    depth: depthOf(event),
  };
  if (await deps.runs.start(run)) return run;
  const started = await deps.runs.get(event.tenant_id, id);
  if (!started) throw new Error(`workflow run ${id} was started but cannot be read`);
  return started;
}

/** How deep in a chain of runs an event is: 0 for a person's change, one more than the run that caused it. */
export const depthOf = (event: OutboxEvent): number => {
  const depth = Number(event.payload.depth ?? 0);
  return Number.isInteger(depth) && depth > 0 ? depth : 0;
};

/**
 * The `workflow_run.failed` event of a run that ended failed (subscribable, and a rule trigger),
 * with the run's depth plus one: a rule on its own failures stops at the loop limit too. Its id
 * derives from the run and its replay count, so a redelivered save writes it once.
 */
export const failedEvent = (deps: WorkflowRunDeps, run: WorkflowRun): OutboxEvent | null => {
  // A run the loop guard stopped records no event: a rule on failures would otherwise go on failing.
  if (run.status !== 'failed' || run.depth >= MAX_RUN_DEPTH) return null;
  const event = workflowEventRecorded(deps.clock, 'workflow_run.failed', runRead(run), {
    run_id: run.id,
    depth: run.depth + 1,
  });
  const id = derivedId(run.event_at, run.id, 'failed', String(run.replays.length));
  return { ...event, event_id: id, idempotency_key: `workflow-event:${run.tenant_id}:${id}` };
};

/** Where a run's actions stand when a pass over them ends. */
export interface Pass {
  run: WorkflowRun;
  outcomes: ActionOutcome[];
  /** The `rule_delay` timer the run now waits on. */
  timer: Timer | null;
}

export interface PassContext {
  rule: Pick<WorkflowRule, 'id' | 'name' | 'actions'>;
  entity: WorkflowEvent;
  /** When the actions' tasks count their due time from: the event's time, or now after a delay. */
  at: Date;
  lastAttempt: boolean;
  /** Ids of a replay's attempts are apart from the first delivery's (`replay:<n>`). */
  attempt?: string;
  /** A run resumed by its delay's timer: the waiting delay is over. */
  resumed?: boolean;
}

/**
 * One pass over a run's actions, in order, from its first action not `done`: a `done` action is
 * never run again. A delay arms its `rule_delay` timer and the pass stops with the run `waiting`;
 * a `set_status` the subject's machine refuses fails with `invalid_transition` and the actions
 * after it are skipped. Each action's id is derived from the run's event and its index (and a
 * replay's number), so a redelivered pass finds what it made.
 */
export async function pass(deps: WorkflowRunDeps, start: WorkflowRun, ctx: PassContext): Promise<Pass> {
  const actions: RunAction[] = start.actions.map((a) => ({ ...a }));
  const outcomes: ActionOutcome[] = [];
  const now = () => deps.clock.now().toISOString();
  for (let index = 0; index < ctx.rule.actions.length; index++) {
    const action = ctx.rule.actions[index]! as Action;
    const prior = actions[index];
    if (prior?.status === 'done') continue;
    if (action.type === 'delay') {
      if (prior?.status === 'waiting' && ctx.resumed) {
        actions[index] = { index, type: 'delay', status: 'done', at: now() };
        continue;
      }
      const due = new Date(deps.clock.now().getTime() + action.minutes * 60_000).toISOString();
      actions[index] = { index, type: 'delay', status: 'waiting' };
      const run: WorkflowRun = { ...start, actions, status: 'waiting', finished_at: null };
      return { run, outcomes, timer: ruleDelayTimer(run, due) };
    }
    const plan = planAction(action, ctx.entity, ctx.at);
    const actionId = derivedId(
      start.event_at,
      start.rule_id,
      start.trigger.event_id,
      String(index),
      ...(ctx.attempt ? [ctx.attempt] : []),
    );
    const outcome = await attemptAction(deps, {
      tenantId: start.tenant_id,
      rule: ctx.rule,
      job: {
        rule_id: start.rule_id,
        rule_name: ctx.rule.name,
        event_id: start.trigger.event_id,
        event_type: start.trigger.event_type ?? `schedule:${start.rule_id}`,
        action_index: index,
        action: plan,
        run_id: start.id,
      },
      subjectId: start.id,
      actionId,
      lastAttempt: ctx.lastAttempt,
      cause: { run_id: start.id, depth: start.depth + 1 },
    });
    outcomes.push(outcome);
    actions[index] = runActionOf(outcome, plan, now());
    if (outcome.result === 'failed' && action.type === 'set_status') {
      for (let rest = index + 1; rest < actions.length; rest++)
        actions[rest] = { index: rest, type: actions[rest]!.type, status: 'skipped' };
      break;
    }
  }
  const failed = actions.some((a) => a.status === 'failed');
  return {
    run: { ...start, actions, status: failed ? 'failed' : 'succeeded', finished_at: now() },
    outcomes,
    timer: null,
  };
}

/**
 * A run started by an event `MAX_RUN_DEPTH` runs deep: it acts on nothing and fails with
 * `loop_limit` (its review item opens as any failed run's does, `openRunReview`).
 */
export function stopLoop(run: WorkflowRun, plans: PlannedAction[], at: string): Pass {
  const detail = `the rule fired ${run.depth} runs deep (its own changes keep triggering it); it did not act`;
  const outcome: ActionOutcome = {
    index: 0,
    type: plans[0]!.type,
    result: 'failed',
    id: run.id,
    reason: 'loop_limit',
    detail,
  };
  return {
    run: {
      ...run,
      status: 'failed',
      finished_at: at,
      actions: run.actions.map((a, i) =>
        i === 0
          ? { ...a, status: 'failed', error: { code: 'loop_limit', message: detail }, at }
          : { ...a, status: 'skipped' },
      ),
    },
    outcomes: [outcome],
    timer: null,
  };
}

export { runReviewId };

/**
 * A run that ended failed opens ONE review item (kind `workflow_action`, subject the run, reason
 * and detail its first failed action's error), whose retry decision replays the run
 * (./review.ts). A replay that fails again reopens the same item if it was decided, and leaves it
 * as it is while it is still open: a run never has two items, nor two open. Returns the item's id
 * when this ending opened or reopened it (a redelivered ending finds it open: undefined).
 */
export async function openRunReview(
  deps: Pick<WorkflowRunDeps, 'jobs' | 'clock'>,
  run: WorkflowRun,
  rule: { name: string; actions?: readonly Action[] } | undefined,
): Promise<string | undefined> {
  const failed = run.actions.filter((a) => a.status === 'failed');
  const first = failed[0];
  if (run.status !== 'failed' || !first) return undefined;
  const code = (first.error?.code ?? 'action_failed') as FailureReason;
  const planned = rule?.actions?.[first.index];
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more failed)` : '';
  const name = rule?.name ?? run.rule_id;
  const review = openReviewItem(
    {
      id: runReviewId(run),
      tenant_id: run.tenant_id,
      kind: 'workflow_action',
      subject_id: run.id,
      notification_id: null,
      channel: planned?.type === 'notify' ? planned.channel : null,
      reason: code,
      detail: `rule "${name}", action ${first.index + 1} (${first.type}): ${first.error?.message ?? code}${more}`,
    },
    deps.clock.now().toISOString(),
  );
  const opened = await deps.jobs.openRunReview(
    review,
    { run_id: run.id, rule_id: run.rule_id, rule_name: name },
    auditEvent(deps.clock, {
      tenant_id: run.tenant_id,
      event_type: 'workflow_rule.action_failed',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: run.rule_id,
      summary: review.detail,
      metadata: {
        event_id: run.trigger.event_id,
        run_id: run.id,
        replay: run.replays.length,
        action_index: first.index,
        reason: code,
        review_item_id: review.id,
      },
    }),
  );
  return opened ? review.id : undefined;
}
