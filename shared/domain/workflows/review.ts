import type * as z from 'zod/mini';
import { InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';
import type { ReviewDecision } from '#shared/api/schemas/notifications';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import { decidedReviewItem, reviewDecidedEvent } from '#shared/domain/review';
import type { WorkflowJobStore } from './ports';
import { replayRun, type ReplayDeps } from './runs';

export interface WorkflowReviewDeps extends ReplayDeps {
  jobs: WorkflowJobStore;
  clock: Clock;
}

/**
 * Decide a `workflow_action` review item (docs/api.md section 9.1), an open one (the caller
 * checked). On the item of a failed run, `retry` replays the run as
 * `POST .../workflow-runs/{id}/replay` does (its `done` actions are not run again), in the
 * replay's own conditional transaction with the decision; a run that is running or waiting, or
 * whose rule was deleted, is 409 and the item stays open. On an item opened for one action before
 * items were per run, `retry` asks the internal worker, through the outbox, to run that action
 * once more. `discard` closes either. The decision, its `review_item.decided` audit event and
 * what the retry writes are one transaction, conditional on the item still being open: of two
 * racing decisions one wins, the other is 409.
 */
export async function decideWorkflowAction(
  deps: WorkflowReviewDeps,
  actor: Principal,
  review: ReviewItem,
  decision: z.output<typeof ReviewDecision>,
): Promise<ReviewItem> {
  const now = deps.clock.now().toISOString();
  const retry = decision.action === 'retry';
  const decided = decidedReviewItem(review, decision, actor.user_id, now);
  const found = await deps.jobs.getJob(review.tenant_id, review.id);
  if (found && !('action' in found.job) && retry) {
    const audit = reviewDecidedEvent(
      deps.clock,
      actor.user_id,
      decided,
      `retry workflow run ${found.job.run_id}`,
    );
    try {
      await replayRun(deps, actor, review.tenant_id, found.job.run_id, { decided, audit });
    } catch (err) {
      // Runs are kept 30 days; their items may be decided later.
      if (err instanceof NotFoundError)
        throw new InvalidTransitionError('The run of this item is no longer kept.');
      throw err;
    }
    return decided;
  }
  const eventId = newId();
  const rerun: OutboxEvent | null = retry
    ? {
        event_id: eventId,
        kind: EVENT_KINDS.workflowActionRetryRequested,
        tenant_id: review.tenant_id,
        idempotency_key: `workflow-retry:${review.tenant_id}:${review.id}`,
        occurred_at: now,
        payload: { review_item_id: review.id },
      }
    : null;
  const won = await deps.jobs.decide(
    decided,
    reviewDecidedEvent(
      deps.clock,
      actor.user_id,
      decided,
      found && !('action' in found.job)
        ? `${decision.action} workflow run ${found.job.run_id}`
        : `${decision.action} workflow action ${review.subject_id}`,
    ),
    rerun,
  );
  if (!won) throw new InvalidTransitionError('The review item changed meanwhile.');
  return decided;
}
