import { PolicyRejectedError, ValidationError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { auditEvent } from '#shared/domain/audit';
import { createNotification, type NotificationDeps } from '#shared/domain/notifications/use-cases';
import { openReviewItem } from '#shared/domain/review';
import type { TaskDeps } from '#shared/domain/tasks/use-cases';
import { createRuleTask } from '#shared/domain/tasks/use-cases';
import type { PlannedAction } from './plan';
import type { WorkflowJob, WorkflowJobStore, WorkflowRuleStore } from './ports';
import type { WorkflowRunStore } from './runs';
import type { RunCause } from './events';
import type { RunSubjects } from './subjects';
import type { WorkflowReplayStore } from './replays';

/**
 * One action of a rule, run under its derived id (docs/api.md section 9.1): what each planned
 * action does, and how a failure opens its review item. The runner (./runner.ts) and the run's
 * passes (./run-pass.ts) call it.
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
      /** The review item the failure opened: its run's (for every failed action of it), or its own. */
      review_item_id?: string;
      /** The error behind an `action_failed`, for the log. */
      error?: unknown;
    };

export interface Firing {
  rule_id: string;
  event_id: string;
  /** The run the firing recorded (none for a review item's retry). */
  run_id?: string;
  /** The review item of a run that ended failed, when this firing opened (or reopened) it. */
  review_item_id?: string;
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

export interface Attempt {
  tenantId: string;
  rule: { id: string; name: string };
  job: WorkflowJob;
  /** What the review item, if any, is about: the rule, the event and the action's position. */
  subjectId: string;
  actionId: string;
  /**
   * The review item a failure opens; none in a run's pass, whose run opens one item for all its
   * failures when it ends (./run-pass.ts).
   */
  reviewId?: string;
  lastAttempt: boolean;
  /** The run a `set_status` moves its subject for, and the depth of the event it causes. */
  cause?: RunCause;
}

/**
 * Runs an action; a failure is an outcome the run records, and with `reviewId` opens its own
 * review item (once) rather than being lost.
 */
export async function attemptAction(deps: WorkflowRunDeps, a: Attempt): Promise<ActionOutcome> {
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
  if (a.reviewId === undefined)
    return { ...base, result: 'failed', reason: result.reason, detail: result.detail, error };
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
