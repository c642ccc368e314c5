import type * as z from 'zod/mini';
import type { ReviewDecision } from '#shared/api/schemas/notifications';
import { InvalidTransitionError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import { decidedReviewItem, reviewDecidedEvent } from '#shared/domain/review';
import type { EndpointReviewStore } from './ports';

export interface EndpointReviewDeps {
  endpoints: EndpointReviewStore;
  clock: Clock;
}

/**
 * Decide a `webhook_endpoint` review item (an endpoint the service disabled): `retry` re-enables
 * the endpoint, as `PATCH {enabled: true}` would, and ends its run of failures; `discard` leaves
 * it disabled. The decision, the `review_item.decided` audit event and (on retry) the endpoint
 * are one transaction, conditional on the item still being open and the endpoint existing.
 * Messages that failed meanwhile are not resent: `recover` does that, when the owner wants it.
 */
export async function decideEndpointReview(
  deps: EndpointReviewDeps,
  actor: Principal,
  review: ReviewItem,
  decision: z.output<typeof ReviewDecision>,
): Promise<ReviewItem> {
  const now = deps.clock.now().toISOString();
  const decided = decidedReviewItem(review, decision, actor.user_id, now);
  const won = await deps.endpoints.decide(
    decided,
    reviewDecidedEvent(
      deps.clock,
      actor.user_id,
      decided,
      `${decision.action} webhook endpoint ${review.subject_id}`,
    ),
    decision.action === 'retry' ? { tenant_id: review.tenant_id, id: review.subject_id, at: now } : null,
  );
  if (!won)
    throw new InvalidTransitionError('The review item changed meanwhile, or its endpoint was deleted.');
  return decided;
}
