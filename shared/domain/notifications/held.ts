import type { Clock } from '#shared/kernel/ids';
import { derivedId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { OccurrenceResult, Timer } from '#shared/domain/timers/ports';
import { deliveryRequested } from './create';
import { digestMessage } from './digest';
import { HOLD_REASONS, slotOf, withStep } from './holds';
import type { DigestStore, Notification, NotificationStore } from './ports';

/**
 * The timer worker's side of held notifications (docs/api.md sections 7.3 and 7.4): a
 * `notification_release` timer lets a `scheduled` notification go when the quiet hours end, a
 * `notification_digest` timer sends a digest when its window closes. Both go on through the
 * normal delivery path (`queued` with its outbox event); each write is conditional on the held
 * status, so a redelivered firing sends nothing twice.
 */

export interface HeldFireDeps {
  notifications: Pick<NotificationStore, 'get'>;
  digests: DigestStore;
  clock: Clock;
}

const heldAudit = (clock: Clock, n: Notification, verb: string, dueAt: string, metadata: object) => ({
  ...auditEvent(clock, {
    tenant_id: n.tenant_id,
    event_type: `notification.${verb}`,
    actor_id: null,
    entity_type: 'notification',
    entity_id: n.id,
    summary: `${n.channel} notification ${verb}`,
    metadata: { channel: n.channel, category: n.category, ...metadata },
  }),
  id: derivedId(dueAt, `notification.${verb}`, n.tenant_id, n.id, dueAt),
});

/** Quiet hours over: the `scheduled` notification is queued for delivery, once. */
export async function fireRelease(deps: HeldFireDeps, timer: Timer): Promise<OccurrenceResult> {
  const n = await deps.notifications.get(timer.tenant_id, timer.subject_id);
  if (!n || n.status !== 'scheduled' || n.deliver_after !== timer.due_at) return 'stale';
  const now = deps.clock.now().toISOString();
  const next = withStep(n, now, 'released', HOLD_REASONS.quietHoursEnded, {
    status: 'queued',
    queued_at: now,
  });
  const moved = await deps.digests.moveHeld(
    next,
    'scheduled',
    heldAudit(deps.clock, next, 'released', timer.due_at, { deliver_after: n.deliver_after }),
    deliveryRequested(deps.clock, next),
  );
  return moved ? 'written' : 'duplicate';
}

/** Held notifications moved to `digested` at once (each its own small transaction). */
const MOVE_CHUNK = 25;

/**
 * The digest's window closed:
 * 1. Close its slot, so no notification joins it any more (a later one opens the next digest).
 * 2. Read its entries, now final, and queue the digest message under the digest's id (a
 *    redelivered firing finds it written and goes on with step 3).
 * 3. Move every held notification still `digesting` to `digested`, each with its audit event.
 */
export async function fireDigest(deps: HeldFireDeps, timer: Timer): Promise<OccurrenceResult> {
  const tenantId = timer.tenant_id;
  const digestId = timer.subject_id;
  const opened = await deps.digests.entries(tenantId, digestId);
  const first = opened[0] && (await deps.notifications.get(tenantId, opened[0].notification_id));
  if (!first || !first.digest_key) return 'stale';
  await deps.digests.close(tenantId, slotOf(first, first.digest_key), digestId);
  const entries = await deps.digests.entries(tenantId, digestId);
  const now = deps.clock.now().toISOString();
  const message = digestMessage(first, entries, now);
  const created = await deps.digests.createMessage(
    message,
    heldAudit(deps.clock, message, 'queued', timer.due_at, {
      digest_key: first.digest_key,
      count: entries.length,
    }),
    deliveryRequested(deps.clock, message),
  );
  let moved = 0;
  for (let i = 0; i < entries.length; i += MOVE_CHUNK) {
    const results = await Promise.all(
      entries.slice(i, i + MOVE_CHUNK).map(async (e) => {
        const n = await deps.notifications.get(tenantId, e.notification_id);
        if (n?.status !== 'digesting') return false;
        const next = withStep(n, now, 'digested', null, { status: 'digested' });
        return deps.digests.moveHeld(
          next,
          'digesting',
          heldAudit(deps.clock, next, 'digested', timer.due_at, { digest_id: digestId }),
          null,
        );
      }),
    );
    moved += results.filter(Boolean).length;
  }
  return created || moved > 0 ? 'written' : 'duplicate';
}
