import type * as z from 'zod/mini';
import { InvalidTransitionError, NotFoundError, PolicyRejectedError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { NotificationCreate, ReviewDecision } from '#shared/api/schemas/notifications';
import { auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { decidedReviewItem, reviewDecidedEvent } from '#shared/domain/review';
import { checkPolicy } from './policy-check';
import { memberAddress, noContact, readMember } from './recipients';
import type {
  Notification,
  NotificationFilter,
  NotificationStatus,
  NotificationStore,
  ReviewDecider,
  ReviewItem,
  ReviewItemFilter,
} from './ports';

/**
 * The API's use cases of the notification delivery path (docs/api.md section 7): draft a
 * notification (policy check, then queued with its outbox event or kept as blocked), read and
 * list notifications and review items, and decide a review item. The worker's side is
 * `./delivery.ts`.
 */

/** Stable per notification, so a re-queued notification (review retry) keeps its key. */
export const notificationIdempotencyKey = (tenantId: string, notificationId: string) =>
  `notification:${tenantId}:${notificationId}`;

export const deliveryRequested = (clock: Clock, n: Notification): OutboxEvent => ({
  event_id: newId(),
  kind: EVENT_KINDS.notificationDeliveryRequested,
  tenant_id: n.tenant_id,
  idempotency_key: n.idempotency_key,
  occurred_at: clock.now().toISOString(),
  payload: { notification_id: n.id, channel: n.channel },
});

/** A draft as the API or a rule's action gives it; category and priority default as the API's do. */
export type NotificationInput = Omit<z.output<typeof NotificationCreate>, 'category' | 'priority'> &
  Partial<Pick<z.output<typeof NotificationCreate>, 'category' | 'priority'>>;

export interface NotificationDeps {
  notifications: NotificationStore;
  clock: Clock;
  allowLoopback: boolean;
  /** Deciders of the review items that hold other jobs (a workflow rule's action, docs/api.md section 9.1). */
  reviewDeciders?: Partial<Record<ReviewItem['kind'], ReviewDecider>>;
}

/**
 * Draft a notification (under `id` when the caller must find it again, as a workflow rule's
 * action does on a redelivery).
 * 1. Gather what the policy needs: the tenant's channel state, and for in_app the membership.
 *    A draft to a member (`recipient_user_id`) reads the member (not one: 422, nothing stored)
 *    and takes the member's address for the channel (none: blocked `no_contact`).
 * 2. Run the policy check on that address.
 * 3. Store the draft as `queued` with its `notification.queued` audit event and the outbox event
 *    `notification.delivery.requested` in one transaction; or as `blocked` with its audit event.
 * 4. Blocked: 422 policy_rejected with the reasons; queued: the record (202).
 */
export async function createNotification(
  deps: NotificationDeps,
  actor: Principal,
  tenantId: string,
  input: NotificationInput,
  id: string = newId(),
): Promise<Notification> {
  const userId = input.recipient_user_id ?? null;
  const [channelState, member] = await Promise.all([
    deps.notifications.channelState(tenantId, input.channel),
    userId === null ? null : readMember(deps.notifications, tenantId, userId),
  ]);
  const address =
    member && userId !== null ? memberAddress(input.channel, userId, member) : (input.recipient ?? '');
  const recipientIsMember =
    member !== null ||
    (input.channel === 'in_app' &&
      address !== null &&
      (await deps.notifications.isMember(tenantId, address)));
  const reasons =
    address === null
      ? [noContact(input.channel)]
      : checkPolicy(
          { ...input, recipient: address },
          { channelState, recipientIsMember, allowLoopback: deps.allowLoopback },
        );
  const now = deps.clock.now().toISOString();
  const status: NotificationStatus = reasons.length ? 'blocked' : 'queued';
  const n: Notification = {
    id,
    tenant_id: tenantId,
    channel: input.channel,
    recipient: address ?? '',
    recipient_user_id: userId,
    category: input.category ?? 'general',
    priority: input.priority ?? 'normal',
    subject: input.subject ?? null,
    body: input.body,
    metadata_json: JSON.stringify(input.metadata ?? {}),
    status,
    policy_reasons: reasons.map((r) => r.code),
    idempotency_key: notificationIdempotencyKey(tenantId, id),
    attempts: [],
    review_item_id: null,
    created_by: actor.user_id,
    created_at: now,
    updated_at: now,
    queued_at: status === 'queued' ? now : null,
    delivered_at: null,
  };
  const audit = auditEvent(deps.clock, {
    tenant_id: tenantId,
    event_type: status === 'queued' ? 'notification.queued' : 'notification.blocked',
    actor_id: actor.user_id,
    entity_type: 'notification',
    entity_id: id,
    summary: `${input.channel} notification ${status}`,
    metadata: { channel: input.channel, reasons: n.policy_reasons },
  });
  await deps.notifications.create(n, audit, status === 'queued' ? deliveryRequested(deps.clock, n) : null);
  if (status === 'blocked')
    throw new PolicyRejectedError(reasons, id, `/tenants/${tenantId}/notifications/${id}`);
  return n;
}

export async function getNotification(deps: NotificationDeps, tenantId: string, id: string) {
  const found = await deps.notifications.get(tenantId, id);
  if (!found) throw new NotFoundError();
  return found;
}

export const listNotifications = (
  deps: NotificationDeps,
  tenantId: string,
  filter: NotificationFilter,
  page: PageRequest,
) => deps.notifications.list(tenantId, filter, page);

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
