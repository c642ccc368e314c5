import type * as z from 'zod/mini';
import type { ReviewDecision } from '#shared/api/schemas/notifications';
import { InvalidTransitionError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import { decidedReviewItem, reviewDecidedEvent } from '#shared/domain/review';
import type { IssueDecisionStore } from './ports';

export interface IssueReviewDeps {
  issues: IssueDecisionStore;
  clock: Clock;
}

/**
 * Decide an `integration_issue` review item (docs/api.md section 7), an open one (the caller
 * checked). Either decision closes the issue: `discard` leaves it closed; `retry` asks the
 * internal worker, through the outbox, to run the connection's diagnostics again, which reopen
 * the issue (with a new review item) if the check still fails. The decision, the closed issue,
 * the `review_item.decided` audit event and (on retry) the outbox event are one transaction,
 * conditional on the item and the issue both still being open: of two racing decisions one wins.
 */
export async function decideIntegrationIssue(
  deps: IssueReviewDeps,
  actor: Principal,
  review: ReviewItem,
  decision: z.output<typeof ReviewDecision>,
): Promise<ReviewItem> {
  const [connectionId = '', code = ''] = review.subject_id.split(':');
  const issue = await deps.issues.getIssue(review.tenant_id, connectionId, code);
  if (issue?.status !== 'open' || issue.review_item_id !== review.id)
    throw new InvalidTransitionError('The issue of this review item is no longer open.');
  const now = deps.clock.now().toISOString();
  const decided = decidedReviewItem(review, decision, actor.user_id, now);
  const rerun: OutboxEvent | null =
    decision.action === 'retry'
      ? {
          event_id: newId(),
          kind: EVENT_KINDS.integrationDiagnosticsRequested,
          tenant_id: review.tenant_id,
          idempotency_key: `integration-diagnostics:${review.tenant_id}:${review.id}`,
          occurred_at: now,
          payload: { connection_id: connectionId },
        }
      : null;
  const won = await deps.issues.endIssue(
    { ...issue, status: 'closed', closed_at: now, updated_at: now },
    decided,
    reviewDecidedEvent(
      deps.clock,
      actor.user_id,
      decided,
      `${decision.action} integration issue ${review.subject_id}`,
    ),
    rerun,
  );
  if (!won) throw new InvalidTransitionError('The review item changed meanwhile.');
  return decided;
}
