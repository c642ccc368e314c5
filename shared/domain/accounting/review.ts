import type * as z from 'zod/mini';
import { InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import type { ReviewDecision } from '#shared/api/schemas/notifications';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import { decidedReviewItem, reviewDecidedEvent } from '#shared/domain/review';
import { exportRequested } from './events';
import type { ExportStatus, ExportStore, StoredExport } from './ports';

/** Export statuses a review decision acts on. */
const REVIEWABLE: readonly ExportStatus[] = ['failed', 'partially_exported', 'gated'];

/**
 * Decide an open `accounting_export` review item (the caller checked it is open).
 * retry: the export goes back to `queued` with a new outbox event (same idempotency key); the
 * worker sends only the documents not booked yet. discard: the export becomes `discarded`.
 * The export (conditional on its status), the review item (conditional on open), the
 * `review_item.decided` audit event and the outbox event are one transaction: of two racing
 * decisions one wins, the other is 409.
 */
export async function decideExportReview(
  deps: { exports: Pick<ExportStore, 'get' | 'decide'>; clock: Clock },
  actor: Principal,
  review: ReviewItem,
  decision: z.output<typeof ReviewDecision>,
): Promise<ReviewItem> {
  const e = await deps.exports.get(review.tenant_id, review.subject_id);
  if (!e) throw new NotFoundError();
  if (!REVIEWABLE.includes(e.status))
    throw new InvalidTransitionError(
      `An export that is ${e.status} cannot be ${decision.action === 'retry' ? 'retried' : 'discarded'}.`,
    );
  const now = deps.clock.now().toISOString();
  const retry = decision.action === 'retry';
  const next: StoredExport = retry
    ? {
        ...e,
        status: 'queued',
        // The documents that failed are sent again; the booked ones never are (their bookings).
        items: e.items.map((i) =>
          i.status === 'failed' ? { ...i, status: 'pending', error_code: null, retryable: null } : i,
        ),
        completed_at: null,
        updated_at: now,
      }
    : { ...e, status: 'discarded', updated_at: now };
  const decided = decidedReviewItem(review, decision, actor.user_id, now);
  const won = await deps.exports.decide(
    next,
    e.status,
    decided,
    reviewDecidedEvent(
      deps.clock,
      actor.user_id,
      decided,
      `${decision.action} accounting export ${e.export_batch_id}`,
    ),
    retry ? exportRequested(deps.clock, next) : null,
  );
  if (!won) throw new InvalidTransitionError('The review item or its export changed meanwhile.');
  return decided;
}
