import { PolicyRejectedError, ValidationError } from '#shared/kernel/errors';
import { type Clock, derivedId } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { auditEvent } from '#shared/domain/audit';
import { createNotification, type NotificationDeps } from '#shared/domain/notifications/use-cases';
import type { OutboxEvent } from '#shared/domain/outbox';
import { openReviewItem } from '#shared/domain/review';
import type { TaskDeps } from '#shared/domain/tasks/use-cases';
import { createRuleTask } from '#shared/domain/tasks/use-cases';
import { type PlannedAction, subjectOf, tryRule, type WorkflowEvent } from './plan';
import type { WorkflowJob, WorkflowJobStore, WorkflowRule, WorkflowRuleStore } from './ports';
import { type RunAction, runTtl, type WorkflowRun, type WorkflowRunStore } from './runs';

/**
 * The internal worker's use cases for workflow rules (docs/api.md section 9.1).
 *
 * Once per (rule, triggering event, action): every action writes its task or notification under
 * an id derived from that triple (`derivedId`) with a not-exists condition, so a redelivered or
 * redriven event finds what the first delivery created and creates nothing new. The firing's
 * `workflow_rule.fired` audit event and a failed action's review item have derived ids too.
 */

export interface WorkflowRunDeps {
  rules: Pick<WorkflowRuleStore, 'enabledFor'>;
  jobs: WorkflowJobStore;
  /** Each matched firing's run (docs/api.md, "Workflow runs"). */
  runs: WorkflowRunStore;
  tasks: TaskDeps['tasks'];
  /** A rule's notification goes through the same draft, policy check and gate as any other. */
  notifications: NotificationDeps;
  clock: Clock;
  /** Receives the internal queue gives a message: the last one opens review items instead of failing. */
  maxAttempts: number;
}

export type FailureReason = 'policy_rejected' | 'invalid_action' | 'action_failed';

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
): Promise<RunResult> {
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
}

/** Runs an action; a failure opens its review item (once) rather than being lost. */
async function attemptAction(deps: WorkflowRunDeps, a: Attempt): Promise<ActionOutcome> {
  const base = { index: a.job.action_index, type: a.job.action.type, id: a.actionId };
  let result: RunResult;
  let error: unknown;
  try {
    result = await runPlanned(deps, a.tenantId, a.rule, a.job.action, a.actionId);
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
const runActionOf = (outcome: ActionOutcome, at: string): RunAction => {
  const key = outcome.type === 'create_task' ? 'task_id' : 'notification_id';
  if (outcome.result === 'failed')
    return {
      index: outcome.index,
      type: outcome.type,
      status: 'failed',
      result: { [key]: outcome.id },
      error: { code: outcome.reason, message: outcome.detail },
      at,
    };
  return { index: outcome.index, type: outcome.type, status: 'done', result: { [key]: outcome.id }, at };
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
  const run: WorkflowRun = {
    id,
    tenant_id: event.tenant_id,
    rule_id: rule.id,
    rule_version: rule.version,
    trigger: recorded.event_type.startsWith('schedule:')
      ? { event_id: event.event_id, scheduled_for: String(scheduledFor ?? event.occurred_at) }
      : { event_id: event.event_id, event_type: recorded.event_type },
    ...(recorded.event_type.startsWith('schedule:')
      ? { subject_type: null, subject_id: null }
      : subjectOf(recorded)),
    status: 'running',
    actions: actionTypes.map((type, index) => ({ index, type, status: 'pending' })),
    replays: [],
    created_at: createdAt,
    finished_at: null,
    ttl: runTtl(createdAt),
  };
  if (await deps.runs.start(run)) return run;
  const started = await deps.runs.get(event.tenant_id, id);
  if (!started) throw new Error(`workflow run ${id} was started but cannot be read`);
  return started;
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
    const run = await startRun(
      deps,
      event,
      recorded,
      rule,
      tried.actions.map((a) => a.type),
    );
    const outcomes: ActionOutcome[] = [];
    for (const [index, action] of tried.actions.entries()) {
      const actionId = derivedId(event.occurred_at, rule.id, event.event_id, String(index));
      outcomes.push(
        await attemptAction(deps, {
          tenantId: event.tenant_id,
          rule,
          job: {
            rule_id: rule.id,
            rule_name: rule.name,
            event_id: event.event_id,
            event_type: recorded.event_type,
            action_index: index,
            action,
          },
          subjectId: `${rule.id}:${event.event_id}:${index}`,
          actionId,
          reviewId: derivedId(event.occurred_at, actionId, 'review'),
          lastAttempt: receiveCount >= deps.maxAttempts,
        }),
      );
    }
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
        actions: outcomes.map(({ index, type, result, id }) => ({ index, type, result, id })),
      },
    });
    await deps.jobs.recordFiring({
      ...fired,
      id: derivedId(event.occurred_at, rule.id, event.event_id, 'fired'),
    });
    const at = deps.clock.now().toISOString();
    await deps.runs.save({
      ...run,
      actions: outcomes.map((o) => runActionOf(o, at)),
      status: outcomes.some((o) => o.result === 'failed') ? 'failed' : 'succeeded',
      finished_at: at,
    });
    firings.push({ rule_id: rule.id, event_id: event.event_id, run_id: run.id, actions: outcomes });
  }
  return firings;
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
