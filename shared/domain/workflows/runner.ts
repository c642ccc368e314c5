import { PolicyRejectedError, ValidationError } from '#shared/kernel/errors';
import { type Clock, derivedId } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { auditEvent } from '#shared/domain/audit';
import { createNotification, type NotificationDeps } from '#shared/domain/notifications/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/ports';
import { openReviewItem } from '#shared/domain/review';
import type { TaskDeps } from '#shared/domain/tasks/use-cases';
import { createRuleTask } from '#shared/domain/tasks/use-cases';
import { type Action, type PlannedAction, planAction, subjectOf, tryRule, type WorkflowEvent } from './plan';
import type { RunCause } from './events';
import type { WorkflowJob, WorkflowJobStore, WorkflowRule, WorkflowRuleStore } from './ports';
import { type RunAction, runTtl, type WorkflowRun, type WorkflowRunStore } from './runs';
import type { RunSubjects } from './subjects';
import type { WorkflowReplayStore } from './replays';
import { ruleDelayTimer } from './delay';

/**
 * The internal worker's use cases for workflow rules (docs/api.md section 9.1).
 *
 * Once per (rule, triggering event, action): every action writes its task or notification under
 * an id derived from that triple (`derivedId`) with a not-exists condition, so a redelivered or
 * redriven event finds what the first delivery created and creates nothing new. The firing's
 * `workflow_rule.fired` audit event and a failed action's review item have derived ids too.
 */

export interface WorkflowRunDeps {
  rules: Pick<WorkflowRuleStore, 'enabledFor' | 'get'>;
  jobs: WorkflowJobStore;
  /** Each matched firing's run (docs/api.md, "Workflow runs"). */
  runs: WorkflowRunStore;
  /** The subjects a run reads again after a delay and moves with `set_status`. */
  subjects: RunSubjects;
  /** Replays of a rule's failed runs over a period. */
  replays: WorkflowReplayStore;
  tasks: TaskDeps['tasks'];
  /** A rule's notification goes through the same draft, policy check and gate as any other. */
  notifications: NotificationDeps;
  clock: Clock;
  /** Receives the internal queue gives a message: the last one opens review items instead of failing. */
  maxAttempts: number;
}

export type FailureReason =
  'policy_rejected' | 'invalid_action' | 'action_failed' | 'invalid_transition' | 'loop_limit';

/** A run started by an event this deep in a chain of runs fails with `loop_limit` instead of acting. */
export const MAX_RUN_DEPTH = 5;

export type ActionOutcome =
  | { index: number; type: PlannedAction['type']; result: 'created' | 'duplicate'; id: string }
  | {
      index: number;
      type: PlannedAction['type'];
      result: 'failed';
      id: string;
      reason: FailureReason;
      detail: string;
      review_item_id: string;
      /** The error behind an `action_failed`, for the log. */
      error?: unknown;
    };

export interface Firing {
  rule_id: string;
  event_id: string;
  /** The run the firing recorded (none for a review item's retry). */
  run_id?: string;
  actions: ActionOutcome[];
}

type RunResult = 'created' | 'duplicate' | { reason: FailureReason; detail: string };

const MIN_TASK_TITLE = 2;

/** The actor a rule's writes are audited under. */
const ruleActor = (rule: { id: string; name: string }): Principal => ({
  user_id: `workflow_rule:${rule.id}`,
  token_id: '',
  email: '',
  display_name: rule.name,
  platform_roles: [],
  memberships: {},
});

/**
 * Runs one planned action under `id`. A refusal (the policy check, an action invalid once its
 * placeholders are filled) is an answer; anything else throws, for the queue to retry.
 */
async function runPlanned(
  deps: WorkflowRunDeps,
  tenantId: string,
  rule: { id: string; name: string },
  plan: PlannedAction,
  id: string,
  cause?: RunCause,
): Promise<RunResult> {
  if (plan.type === 'delay') return 'duplicate';
  if (plan.type === 'set_status') {
    if (!plan.subject_type || !plan.subject_id)
      return { reason: 'invalid_action', detail: 'the event has no subject to move' };
    const moved = await deps.subjects.setStatus(
      plan.subject_type,
      tenantId,
      plan.subject_id,
      plan.status,
      cause ?? { run_id: id, depth: 1 },
    );
    if (moved === 'changed') return 'created';
    if (moved === 'already') return 'duplicate';
    if (moved === 'invalid_transition')
      return {
        reason: 'invalid_transition',
        detail: `the ${plan.subject_type} cannot become ${plan.status} now`,
      };
    return {
      reason: 'invalid_action',
      detail: `the ${plan.subject_type} ${plan.subject_id} cannot be moved (${moved})`,
    };
  }
  if (plan.type === 'create_task') {
    if (plan.title.trim().length < MIN_TASK_TITLE)
      return { reason: 'invalid_action', detail: `the task title is "${plan.title}" once filled` };
    const { type: _, missing_fields: __, ...input } = plan;
    return createRuleTask({ tasks: deps.tasks, clock: deps.clock }, rule, tenantId, input, id);
  }
  if (!(plan.recipient ?? plan.recipient_user_id ?? '').trim() || !plan.body.trim())
    return { reason: 'invalid_action', detail: 'the recipient or the body is empty once filled' };
  const existing = await deps.notifications.notifications.get(tenantId, id);
  const refused = (codes: string[]) => ({
    reason: 'policy_rejected' as const,
    detail: `the notification was refused (${codes.join(', ')}); its blocked draft is ${id}`,
  });
  if (existing) return existing.status === 'blocked' ? refused(existing.policy_reasons) : 'duplicate';
  try {
    await createNotification(
      deps.notifications,
      ruleActor(rule),
      tenantId,
      {
        channel: plan.channel,
        ...(plan.recipient_user_id === null
          ? { recipient: plan.recipient ?? '' }
          : { recipient_user_id: plan.recipient_user_id }),
        category: plan.category,
        priority: plan.priority,
        subject: plan.subject,
        body: plan.body,
        metadata: { workflow_rule_id: rule.id },
      },
      id,
    );
    return 'created';
  } catch (err) {
    if (err instanceof PolicyRejectedError) return refused((err.errors ?? []).map((e) => e.code));
    // A member the action names once filled who is no member of the tenant: nothing was stored.
    if (err instanceof ValidationError)
      return {
        reason: 'invalid_action',
        detail: (err.errors ?? []).map((e) => `${e.path}: ${e.message}`).join('; '),
      };
    throw err;
  }
}

interface Attempt {
  tenantId: string;
  rule: { id: string; name: string };
  job: WorkflowJob;
  /** What the review item, if any, is about: the rule, the event and the action's position. */
  subjectId: string;
  actionId: string;
  reviewId: string;
  lastAttempt: boolean;
  /** The run a `set_status` moves its subject for, and the depth of the event it causes. */
  cause?: RunCause;
}

/** Runs an action; a failure opens its review item (once) rather than being lost. */
async function attemptAction(deps: WorkflowRunDeps, a: Attempt): Promise<ActionOutcome> {
  const base = { index: a.job.action_index, type: a.job.action.type, id: a.actionId };
  let result: RunResult;
  let error: unknown;
  try {
    result = await runPlanned(deps, a.tenantId, a.rule, a.job.action, a.actionId, a.cause);
  } catch (err) {
    if (!a.lastAttempt) throw err;
    error = err;
    result = { reason: 'action_failed', detail: 'the action failed with an error on every attempt' };
  }
  if (typeof result === 'string') return { ...base, result };
  const now = deps.clock.now().toISOString();
  const review = openReviewItem(
    {
      id: a.reviewId,
      tenant_id: a.tenantId,
      kind: 'workflow_action',
      subject_id: a.subjectId,
      notification_id: null,
      channel: a.job.action.type === 'notify' ? a.job.action.channel : null,
      reason: result.reason,
      detail: `rule "${a.rule.name}", action ${a.job.action_index + 1} (${a.job.action.type}): ${result.detail}`,
    },
    now,
  );
  await deps.jobs.openReview(
    review,
    a.job,
    auditEvent(deps.clock, {
      tenant_id: a.tenantId,
      event_type: 'workflow_rule.action_failed',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: a.rule.id,
      summary: review.detail,
      metadata: {
        event_id: a.job.event_id,
        action_index: a.job.action_index,
        reason: result.reason,
        review_item_id: review.id,
      },
    }),
  );
  return {
    ...base,
    result: 'failed',
    reason: result.reason,
    detail: result.detail,
    review_item_id: review.id,
    error,
  };
}

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
async function startRun(
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
const depthOf = (event: OutboxEvent): number => {
  const depth = Number(event.payload.depth ?? 0);
  return Number.isInteger(depth) && depth > 0 ? depth : 0;
};

/** Where a run's actions stand when a pass over them ends. */
interface Pass {
  run: WorkflowRun;
  outcomes: ActionOutcome[];
  /** The `rule_delay` timer the run now waits on. */
  timer: Timer | null;
}

interface PassContext {
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
async function pass(deps: WorkflowRunDeps, start: WorkflowRun, ctx: PassContext): Promise<Pass> {
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
      subjectId: `${start.rule_id}:${start.trigger.event_id}:${index}`,
      actionId,
      reviewId: derivedId(start.event_at, actionId, 'review'),
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
 * A run started by an event `MAX_RUN_DEPTH` runs deep: it acts on nothing, fails with
 * `loop_limit`, and opens a review item (once: its id derives from the run).
 */
async function stopLoop(
  deps: WorkflowRunDeps,
  run: WorkflowRun,
  rule: Pick<WorkflowRule, 'id' | 'name'>,
  plans: PlannedAction[],
): Promise<Pass> {
  const at = deps.clock.now().toISOString();
  const detail = `the rule fired ${run.depth} runs deep (its own changes keep triggering it); it did not act`;
  const review = openReviewItem(
    {
      id: derivedId(run.event_at, run.id, 'loop_limit'),
      tenant_id: run.tenant_id,
      kind: 'workflow_action',
      subject_id: `${run.rule_id}:${run.trigger.event_id}:0`,
      notification_id: null,
      channel: null,
      reason: 'loop_limit',
      detail: `rule "${rule.name}": ${detail}`,
    },
    at,
  );
  await deps.jobs.openReview(
    review,
    {
      rule_id: run.rule_id,
      rule_name: rule.name,
      event_id: run.trigger.event_id,
      event_type: run.trigger.event_type ?? `schedule:${run.rule_id}`,
      action_index: 0,
      action: plans[0]!,
      run_id: run.id,
    },
    auditEvent(deps.clock, {
      tenant_id: run.tenant_id,
      event_type: 'workflow_rule.action_failed',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: run.rule_id,
      summary: review.detail,
      metadata: {
        event_id: run.trigger.event_id,
        action_index: 0,
        reason: 'loop_limit',
        review_item_id: review.id,
      },
    }),
  );
  const outcome: ActionOutcome = {
    index: 0,
    type: plans[0]!.type,
    result: 'failed',
    id: review.id,
    reason: 'loop_limit',
    detail,
    review_item_id: review.id,
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

const eventOf = (event: OutboxEvent): WorkflowEvent => {
  const { event_type, entity_json } = event.payload;
  const entity: unknown = typeof entity_json === 'string' ? JSON.parse(entity_json) : undefined;
  if (typeof event_type !== 'string' || typeof entity !== 'object' || entity === null)
    throw new Error(`malformed workflow event ${event.event_id}`);
  return { event_type, entity: entity as Record<string, unknown> };
};

/**
 * Fire the tenant's enabled rules for one recorded change.
 * 1. Read the enabled rules for the event type (one Query) and try each on the event's entity.
 * 2. For each matching rule, run its actions in order, each under the id derived from
 *    (rule, event, action index): a redelivery finds them done and creates nothing.
 * 3. A refused action, or one that failed with an error on the message's last attempt, opens a
 *    `workflow_action` review item instead; an error before the last attempt is thrown, so the
 *    queue retries the message (the actions already done are found, not repeated).
 * 4. Write the rule's `workflow_rule.fired` audit event (once, under its derived id).
 * Each matching rule's run is started (under an id derived from the rule and the event) before
 * its first action and saved with the outcomes after the last: a delivery that crashed between
 * the two leaves the run `running`, and the redelivery completes that run, not a second one.
 */
export async function fireRules(
  deps: WorkflowRunDeps,
  event: OutboxEvent,
  receiveCount: number,
): Promise<Firing[]> {
  const recorded = eventOf(event);
  const rules = await deps.rules.enabledFor(event.tenant_id, recorded.event_type);
  const firings: Firing[] = [];
  for (const rule of rules) {
    const tried = tryRule(rule, recorded, new Date(event.occurred_at));
    if (!tried.matched) continue;
    const started = await startRun(
      deps,
      event,
      recorded,
      rule,
      tried.actions.map((a) => a.type),
    );
    if (started.status === 'succeeded' || started.status === 'waiting') {
      // A redelivery of a firing that was completed (or is on its delay): nothing to do again.
      firings.push({ rule_id: rule.id, event_id: event.event_id, run_id: started.id, actions: [] });
      continue;
    }
    const done =
      started.depth >= MAX_RUN_DEPTH
        ? await stopLoop(deps, started, rule, tried.actions)
        : await pass(deps, started, {
            rule,
            entity: recorded,
            at: new Date(event.occurred_at),
            lastAttempt: receiveCount >= deps.maxAttempts,
          });
    const outcomes = done.outcomes;
    const fired = auditEvent(deps.clock, {
      tenant_id: event.tenant_id,
      event_type: 'workflow_rule.fired',
      actor_id: null,
      entity_type: 'workflow_rule',
      entity_id: rule.id,
      summary: `${rule.name} on ${recorded.event_type}`,
      metadata: {
        event_id: event.event_id,
        event_type: recorded.event_type,
        entity_id: recorded.entity.id ?? null,
        run_id: started.id,
        actions: outcomes.map(({ index, type, result, id }) => ({ index, type, result, id })),
      },
    });
    await deps.jobs.recordFiring({
      ...fired,
      id: derivedId(event.occurred_at, rule.id, event.event_id, 'fired'),
    });
    // After the actions and the audit: a run saved as ended says all of them were written.
    await deps.runs.save(done.run, done.timer);
    firings.push({ rule_id: rule.id, event_id: event.event_id, run_id: started.id, actions: outcomes });
  }
  return firings;
}

/**
 * A waiting run whose delay ended (`workflow.run_resumed`, from its `rule_delay` timer).
 * 1. Read the run; one that is no longer waiting (a redelivery after it went on) is nothing to do.
 * 2. Read the rule as it stands now (a deleted or disabled rule ends the run `failed`) and the
 *    run's subject as it is now: the remaining actions see that, not the triggering snapshot.
 * 3. Run the remaining actions (another delay waits again) and save the run.
 */
export async function resumeRun(
  deps: WorkflowRunDeps & { rules: Pick<WorkflowRuleStore, 'get'> },
  event: OutboxEvent,
  receiveCount: number,
): Promise<Firing | undefined> {
  const run = await deps.runs.get(event.tenant_id, String(event.payload.run_id ?? ''));
  const replay = event.payload.replay === undefined ? undefined : Number(event.payload.replay);
  // A delay's end finds the run waiting; a replay finds it running with that replay its last.
  if (!run) return undefined;
  if (
    replay === undefined
      ? run.status !== 'waiting'
      : run.status !== 'running' || run.replays.length !== replay
  )
    return undefined;
  const rule = await deps.rules.get(run.tenant_id, run.rule_id);
  const entity =
    run.subject_type && run.subject_id
      ? await deps.subjects.read(run.subject_type, run.tenant_id, run.subject_id)
      : { rule_id: run.rule_id, scheduled_for: run.trigger.scheduled_for ?? null };
  if (!rule || (!rule.enabled && replay === undefined) || !entity) {
    const at = deps.clock.now().toISOString();
    const why = !rule
      ? 'the rule was deleted'
      : !rule.enabled
        ? 'the rule was disabled'
        : 'the subject is gone';
    await deps.runs.save({
      ...run,
      status: 'failed',
      finished_at: at,
      actions: run.actions.map((a) =>
        a.status === 'waiting'
          ? {
              ...a,
              status: 'failed',
              error: { code: 'invalid_action', message: `${why} while it waited` },
              at,
            }
          : a.status === 'done'
            ? a
            : { ...a, status: 'skipped' },
      ),
    });
    return { rule_id: run.rule_id, event_id: run.trigger.event_id, run_id: run.id, actions: [] };
  }
  const done = await pass(deps, run, {
    rule,
    entity: { event_type: run.trigger.event_type ?? `schedule:${run.rule_id}`, entity },
    at: deps.clock.now(),
    lastAttempt: receiveCount >= deps.maxAttempts,
    resumed: replay === undefined,
    ...(replay === undefined ? {} : { attempt: `replay:${replay}` }),
  });
  await deps.runs.save(done.run, done.timer);
  return { rule_id: run.rule_id, event_id: run.trigger.event_id, run_id: run.id, actions: done.outcomes };
}

/**
 * Run a failed action once more, as a review decision asked (`workflow.action_retry_requested`).
 * 1. Read the review item and the job it keeps (a missing one is nothing to do).
 * 2. Run the planned action under an id derived from the review item: a redelivered request
 *    finds what the first one created.
 * 3. If it fails again, a new review item opens for it (once), about the same job.
 */
export async function retryAction(
  deps: WorkflowRunDeps,
  event: OutboxEvent,
  receiveCount: number,
): Promise<Firing | undefined> {
  const found = await deps.jobs.getJob(event.tenant_id, String(event.payload.review_item_id ?? ''));
  if (!found) return undefined;
  const { review, job } = found;
  const actionId = derivedId(event.occurred_at, review.id, 'retry');
  const outcome = await attemptAction(deps, {
    tenantId: event.tenant_id,
    rule: { id: job.rule_id, name: job.rule_name },
    job,
    subjectId: review.subject_id,
    actionId,
    reviewId: derivedId(event.occurred_at, actionId, 'review'),
    lastAttempt: receiveCount >= deps.maxAttempts,
  });
  return { rule_id: job.rule_id, event_id: job.event_id, actions: [outcome] };
}
