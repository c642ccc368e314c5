import type * as z from 'zod/mini';
import { InvalidTransitionError, NotFoundError } from '#shared/kernel/errors';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { ReviewDecision } from '#shared/api/schemas/notifications';
import { decidedReviewItem, reviewDecidedEvent } from '#shared/domain/review';
import { deliveryRequested, type NotificationDeps } from './create';
import type {
  Notification,
  NotificationFilter,
  NotificationStatus,
  ReviewItem,
  ReviewItemFilter,
} from './ports';

/**
 * The API's use cases of the notification delivery path (docs/api.md section 7): draft a
 * notification (`./create.ts`), read and list notifications and review items, and decide a
 * review item. The worker's side is `./delivery.ts`, held notifications' `./held.ts`.
 */

export {
  createNotification,
  deliveryRequested,
  draftAudit,
  notificationIdempotencyKey,
  type NotificationDeps,
  type NotificationInput,
} from './create';

/**
 * A notification as the API shows it: one to a member names the member (`recipient` is their user
 * id), never the address their contacts gave. Every member of the tenant may read notifications,
 * but a member's contacts are theirs alone (docs/api.md section 7.3); the stored record keeps the
 * address for the worker that sends.
 */
export const shown = (n: Notification): Notification =>
  n.recipient_user_id ? { ...n, recipient: n.recipient_user_id } : n;

export async function getNotification(deps: NotificationDeps, tenantId: string, id: string) {
  const found = await deps.notifications.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return shown(found);
}

export async function listNotifications(
  deps: NotificationDeps,
  tenantId: string,
  filter: NotificationFilter,
  page: PageRequest,
) {
  const listed = await deps.notifications.list(tenantId, filter, page);
  // The filter matches the stored address: a member's notification found by it would tie the
  // address to the member, so it is left out (the page may then hold fewer items).
  const items =
    filter.recipient === undefined
      ? listed.items
      : listed.items.filter((n) => !n.recipient_user_id || n.channel === 'in_app');
  return { ...listed, items: items.map(shown) };
}

export const listReviewItems = (
  deps: NotificationDeps,
  tenantId: string,
  filter: ReviewItemFilter,
  page: PageRequest,
) => deps.notifications.listReviewItems(tenantId, filter, page);

/** Notification statuses a review decision may act on. */
const REVIEWABLE: readonly NotificationStatus[] = ['gated', 'dead_lettered'];

/**
 * Decide a review item.
 * 1. Read the review item (404) and require it open (409 invalid_transition); an item of
 *    another kind goes to its own concern's decider (`reviewDeciders`).
 * 2. Read its notification and require it gated or dead-lettered (409).
 * 3. retry: the notification goes back to `queued` with a new outbox event carrying the same
 *    idempotency key; discard: it becomes `discarded`. The review item records the decision.
 * 4. All of it, with the `review_item.decided` audit event, in one conditional transaction: of two
 *    racing decisions exactly one wins, the other is 409.
 */
export async function decideReviewItem(
  deps: NotificationDeps,
  actor: Principal,
  tenantId: string,
  reviewItemId: string,
  decision: z.output<typeof ReviewDecision>,
): Promise<ReviewItem> {
  const review = await deps.notifications.getReviewItem(tenantId, reviewItemId);
  if (!review) throw new NotFoundError();
  if (review.status !== 'open')
    throw new InvalidTransitionError(`The review item is already ${review.status}.`);
  if (review.kind !== 'notification') {
    const decide = deps.reviewDeciders?.[review.kind];
    if (!decide) throw new InvalidTransitionError(`A ${review.kind} review item cannot be decided here.`);
    return decide(actor, review, decision);
  }
  const n = await deps.notifications.get(tenantId, review.notification_id ?? '');
  if (!n) throw new NotFoundError();
  if (!REVIEWABLE.includes(n.status))
    throw new InvalidTransitionError(
      `A notification that is ${n.status} cannot be ${decision.action === 'retry' ? 'retried' : 'discarded'}.`,
    );
  const now = deps.clock.now().toISOString();
  const retry = decision.action === 'retry';
  const next: Notification = {
    ...n,
    status: retry ? 'queued' : 'discarded',
    updated_at: now,
    queued_at: retry ? now : n.queued_at,
  };
  const decided = decidedReviewItem(review, decision, actor.user_id, now);
  const won = await deps.notifications.decide(
    next,
    n.status,
    decided,
    reviewDecidedEvent(
      deps.clock,
      actor.user_id,
      decided,
      `${decision.action} ${n.channel} notification ${n.id}`,
      { action: decision.action, notification_id: n.id, note: decision.note ?? null },
    ),
    retry ? deliveryRequested(deps.clock, next) : null,
  );
  if (!won) throw new InvalidTransitionError('The review item or its notification changed meanwhile.');
  return decided;
}
