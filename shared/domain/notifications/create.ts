import type * as z from 'zod/mini';
import { PolicyRejectedError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';
import { DEFAULT_TIME_ZONE } from '#shared/kernel/time-zone';
import type { NotificationCreate } from '#shared/api/schemas/notifications';
import { auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { isMuted, quietUntil } from '#shared/domain/preferences/rules';
import { holdForDigest } from './digest';
import { dedupeClaim, HOLD_REASONS, notificationIdempotencyKey, releaseTimer, withStep } from './holds';
import { checkPolicy } from './policy-check';
import type { DigestStore, Notification, NotificationStore, ReviewDecider, ReviewItem } from './ports';
import { memberAddress, noContact, readMember } from './recipients';

export { notificationIdempotencyKey };

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
  /** The digests (docs/api.md section 7.4); a draft asking for one needs them. */
  digests?: DigestStore;
  clock: Clock;
  allowLoopback: boolean;
  /** Deciders of the review items that hold other jobs (a workflow rule's action, docs/api.md section 9.1). */
  reviewDeciders?: Partial<Record<ReviewItem['kind'], ReviewDecider>>;
}

/** The draft's audit event: `notification.<status>`, with what decided the status (never an address). */
export const draftAudit = (clock: Clock, actor: Principal | null, n: Notification) => {
  const last = n.attempts.at(-1);
  return auditEvent(clock, {
    tenant_id: n.tenant_id,
    event_type: `notification.${n.status}`,
    actor_id: actor?.user_id ?? null,
    entity_type: 'notification',
    entity_id: n.id,
    summary: `${n.channel} notification ${n.status}`,
    metadata:
      n.status === 'queued' || n.status === 'blocked'
        ? { channel: n.channel, reasons: n.policy_reasons }
        : {
            channel: n.channel,
            category: n.category,
            reason: last?.reason ?? null,
            ...(n.deliver_after && { deliver_after: n.deliver_after }),
            ...(n.duplicate_of && { duplicate_of: n.duplicate_of }),
            ...(n.digest_id && { digest_id: n.digest_id }),
          },
  });
};

/**
 * Draft a notification (under `id` when the caller must find it again, as a workflow rule's
 * action does on a redelivery).
 * 1. Gather what the policy needs: the tenant's channel state, and for in_app the membership.
 *    A draft to a member (`recipient_user_id`) reads the member (not one: 422, nothing stored)
 *    and takes the member's address for the channel (none: blocked `no_contact`).
 * 2. Run the policy check on that address: refused, it is stored `blocked` and answered 422.
 * 3. A member who muted the channel, the category or the pair: `suppressed` (reason `muted`),
 *    nothing sent, no review item, no outbox event.
 * 4. Accepted: with a `digest`, held `digesting` in the digest of its key (./digest.ts); an
 *    external `normal` one inside the member's quiet hours `scheduled` until they end, with the
 *    timer that releases it; otherwise `queued` with its outbox event. In the same transaction,
 *    a `dedupe_key` takes its window; when another notification holds it, this one is stored
 *    `suppressed` (reason `duplicate`, `duplicate_of`) instead.
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
  const at = deps.clock.now();
  const now = at.toISOString();
  const base: Notification = {
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
    status: 'queued',
    policy_reasons: reasons.map((r) => r.code),
    idempotency_key: notificationIdempotencyKey(tenantId, id),
    attempts: [],
    review_item_id: null,
    created_by: actor.user_id,
    created_at: now,
    updated_at: now,
    queued_at: now,
    delivered_at: null,
    deliver_after: null,
    dedupe_key: input.dedupe_key ?? null,
    duplicate_of: null,
    digest_key: input.digest?.key ?? null,
    digest_id: null,
  };
  const write = (n: Notification, outbox: OutboxEvent | null = null) =>
    deps.notifications.create(n, draftAudit(deps.clock, actor, n), outbox);

  if (reasons.length) {
    await write({ ...base, status: 'blocked', queued_at: null });
    throw new PolicyRejectedError(reasons, id, `/tenants/${tenantId}/notifications/${id}`);
  }
  // Nothing is sent to a muted member; the history says why (docs/api.md section 7.3).
  if (isMuted(member?.preferences ?? null, base)) {
    const n = withStep(base, now, 'suppressed', HOLD_REASONS.muted, {
      status: 'suppressed',
      queued_at: null,
    });
    await write(n);
    return n;
  }
  const dedupe = dedupeClaim(base, input.dedupe_key, input.dedupe_window_minutes);
  const duplicate = async (duplicateOf: string) => {
    const n = withStep(base, now, 'suppressed', HOLD_REASONS.duplicate, {
      status: 'suppressed',
      queued_at: null,
      duplicate_of: duplicateOf,
    });
    await write(n);
    return n;
  };

  if (input.digest) {
    if (!deps.digests) throw new Error('digest requested without a digest store');
    const held = await holdForDigest(deps.digests, base, input.digest.window_minutes, dedupe, (n) =>
      draftAudit(deps.clock, actor, n),
    );
    return 'status' in held ? held : duplicate(held.duplicate_of);
  }

  // Quiet hours hold an external, normal notification to a member; in_app and critical go at once.
  const quiet = member?.preferences?.quiet_hours;
  const until =
    member && base.channel !== 'in_app' && base.priority === 'normal'
      ? quietUntil(quiet, quiet?.timezone ?? member.timeZone ?? DEFAULT_TIME_ZONE, at)
      : null;
  const deliverAfter = until?.toISOString();
  const n = deliverAfter
    ? withStep(base, now, 'scheduled', HOLD_REASONS.quietHours, {
        status: 'scheduled',
        queued_at: null,
        deliver_after: deliverAfter,
      })
    : base;
  const created = await deps.notifications.create(
    n,
    draftAudit(deps.clock, actor, n),
    deliverAfter ? null : deliveryRequested(deps.clock, n),
    { timer: deliverAfter ? releaseTimer(n, deliverAfter) : null, dedupe },
  );
  return created.ok ? n : duplicate(created.duplicate_of);
}
