import type { Clock } from '#shared/kernel/ids';
import { newId } from '#shared/kernel/ids';
import { auditEvent } from '#shared/domain/audit';
import type { OutboxEvent } from '#shared/domain/outbox';
import { openReviewItem } from '#shared/domain/review';
import { adapterByKey } from '#shared/domain/integrations/adapters/index';
import {
  type ActiveConnectionReader,
  connectionFailure,
  type ConnectionResults,
} from '#shared/domain/integrations/ports';
import { backoffSeconds, type BackoffSettings, CHANNEL_PROFILES } from './channels';
import { decideGate, type GateDecision } from './gate';
import type { Attempt, DeliveryStore, Notification, ProviderSender, ReviewItem, SendResult } from './ports';

/**
 * The notification worker's use case: one `notification.delivery.requested` message in, one
 * decision out (ack, retry later, or let the queue dead-letter it). Exactly-once sending rests on
 * the consumer claim: a conditional write on the event's `idempotency_key` that only one worker
 * wins, completed in the same transaction that records `delivered`.
 */

export interface DeliveryDeps {
  store: DeliveryStore;
  /** The tenant's active connection of a channel's adapter (its key is the channel). */
  connections: ActiveConnectionReader;
  /** Where the send's outcome is recorded on the connection it went through (its health). */
  results: ConnectionResults;
  providers: ProviderSender;
  clock: Clock;
  maxAttempts: number;
  backoff: BackoffSettings;
  /** How long a claim protects an in-flight send (the consumer's visibility timeout). */
  leaseSeconds: number;
}

export type DeliveryOutcome =
  | {
      action: 'ack';
      result: 'delivered' | 'duplicate' | 'gated' | 'permanent_failure' | 'skipped';
      notification?: Notification;
      latencyMs?: number;
      reason?: string;
    }
  | {
      action: 'retry';
      result: 'retrying' | 'busy';
      delaySeconds: number;
      notification?: Notification;
      reason?: string;
      /** What the provider path threw, for the worker's log; never in the public attempt. */
      error?: unknown;
    }
  | {
      action: 'dead_letter';
      result: 'dead_lettered';
      notification: Notification;
      reason: string;
      error?: unknown;
    };

/** The attempt reason of anything the provider path threw (configuration, secrets, SSM, a bug). */
export const PROVIDER_ERROR = 'provider_error';

/**
 * The provider path's answer: the gate closed, or what the send gave through which connection
 * (none for in-app), or what the path threw.
 */
type Tried =
  | { gate: Extract<GateDecision, { open: false }> }
  | { result: SendResult; connectionId?: string; error?: unknown };

/** The provider gate, then the send. Runs under the claim, so the caller records whatever comes out. */
async function tryProvider(deps: DeliveryDeps, n: Notification): Promise<Tried> {
  if (CHANNEL_PROFILES[n.channel].gate === null)
    return { result: await deps.providers.send(n, { config: {}, secret: undefined }) };
  const found = await deps.connections.findActiveConnection(n.tenant_id, { adapter_key: n.channel });
  const secret = found ? await found.secret() : undefined;
  const needsSecret = adapterByKey(n.channel)?.secret !== null;
  const gate = decideGate(n.channel, found ? 'active' : undefined, !needsSecret || secret !== undefined);
  if (!gate.open) return { gate };
  // Past the gate an external channel has its connection.
  const result = await deps.providers.send(n, { config: found?.connection.config ?? {}, secret });
  return { result, connectionId: found?.connection.id };
}

/** Statuses from which a delivery message may (still, or again after a redrive) send. */
const SENDABLE = new Set(['queued', 'retrying', 'delivering', 'dead_lettered']);

const systemAudit = (
  clock: Clock,
  n: Notification,
  verb: string,
  summary: string,
  metadata: Record<string, unknown>,
) =>
  auditEvent(clock, {
    tenant_id: n.tenant_id,
    event_type: `notification.${verb}`,
    actor_id: null,
    entity_type: 'notification',
    entity_id: n.id,
    summary,
    metadata,
  });

const reviewFor = (n: Notification, now: string, reason: ReviewItem['reason'], detail: string): ReviewItem =>
  openReviewItem(
    {
      id: newId(),
      tenant_id: n.tenant_id,
      kind: 'notification',
      subject_id: n.id,
      notification_id: n.id,
      channel: n.channel,
      reason,
      detail,
    },
    now,
  );

/**
 * Deliver one message.
 * 1. Read the notification; a missing, blocked, discarded, delivered or refused one is acknowledged.
 * 2. Claim the idempotency key (conditional write); already consumed -> acknowledge, busy -> retry.
 *    A channel without a gate (in_app) whose in-process send succeeds is claimed in the
 *    transaction that records it delivered (step 4): one transaction, the same answers.
 * 3. Provider gate (external channels): the tenant's active connection of the channel's adapter
 *    and, where the adapter needs one, its secret; closed -> `gated` + review item, acknowledged.
 *    The send uses that connection's config and secret.
 * 4. Send. Success -> `delivered`. Transient failure -> `retrying` and a backoff delay, or on the
 *    last allowed attempt `dead_lettered` + review item and the queue moves it to its DLQ.
 *    Permanent failure -> `dead_lettered` + review item at once, acknowledged.
 *    Anything thrown in 3 or 4 is a transient failure (`provider_error`): once claimed, every
 *    attempt is recorded and releases the claim, so none is left `delivering` with nobody told.
 *    The provider's answer (success, or the failure's reason code) is also recorded on the
 *    connection the send used, which its health reads (docs/api.md section 9.3).
 */
export async function deliver(
  deps: DeliveryDeps,
  event: OutboxEvent,
  receiveCount: number,
): Promise<DeliveryOutcome> {
  const notificationId = String(event.payload.notification_id ?? '');
  const found = await deps.store.get(event.tenant_id, notificationId);
  if (!found) return { action: 'ack', result: 'skipped', reason: 'not_found' };
  if (found.status === 'delivered') return { action: 'ack', result: 'duplicate', notification: found };
  if (!SENDABLE.has(found.status))
    return { action: 'ack', result: 'skipped', notification: found, reason: found.status };
  // A refusal is final for this event (a review retry queues it anew); a DLQ redrive re-sends only what ran out of attempts.
  if (found.status === 'dead_lettered' && found.attempts.at(-1)?.outcome === 'permanent_failure')
    return { action: 'ack', result: 'skipped', notification: found, reason: 'permanent_failure' };

  const start = deps.clock.now();
  const now = start.toISOString();
  const leaseUntil = new Date(start.getTime() + deps.leaseSeconds * 1000).toISOString();
  const n: Notification = { ...found, status: 'delivering', updated_at: now };
  const attempt = () =>
    tryProvider(deps, n).catch((error: unknown): Tried => ({
      result: { ok: false, kind: 'transient', reason: PROVIDER_ERROR },
      error,
    }));

  // No gate (in_app): the delivery is the store's own write (the inbox item), so its in-process
  // send goes first and the claim joins the transaction that records it delivered.
  const early = CHANNEL_PROFILES[n.channel].gate === null ? await attempt() : undefined;
  if (early && !('gate' in early) && early.result.ok)
    return recordDelivered(deps, found, event.idempotency_key, start, deps.clock.now(), now);
  const claim = await deps.store.claim(found, event.idempotency_key, leaseUntil, now);
  if (claim === 'done') return { action: 'ack', result: 'duplicate', notification: found };
  if (claim === 'busy') return { action: 'retry', result: 'busy', delaySeconds: deps.leaseSeconds };

  const tried = early ?? (await attempt());
  if ('gate' in tried) {
    const { gate } = tried;
    const review = reviewFor(n, now, 'gated', `provider gate closed: ${gate.reason}`);
    const next = withAttempt(n, now, 'gated', gate.reason, null, {
      status: 'gated',
      review_item_id: review.id,
    });
    await deps.store.failed(
      next,
      systemAudit(deps.clock, n, 'gated', `${n.channel} gate closed`, {
        reason: gate.reason,
        review_item_id: review.id,
      }),
      event.idempotency_key,
      review,
    );
    return { action: 'ack', result: 'gated', notification: next, reason: gate.reason };
  }

  const { result, error, connectionId } = tried;
  const done = deps.clock.now();
  const at = done.toISOString();
  const latency = done.getTime() - start.getTime();
  // What the provider answered counts on the connection's health; a throw (secrets, config) is ours, not its.
  if (connectionId)
    await deps.results.record(
      n.tenant_id,
      connectionId,
      result.ok ? { ok: true, at } : connectionFailure(at, result.reason),
    );
  if (result.ok) return recordDelivered(deps, found, event.idempotency_key, start, done);

  if (result.kind === 'transient' && receiveCount < deps.maxAttempts) {
    const next = withAttempt(n, at, 'transient_failure', result.reason, latency, { status: 'retrying' });
    await deps.store.failed(
      next,
      systemAudit(deps.clock, n, 'retrying', `${n.channel} attempt failed: ${result.reason}`, {
        reason: result.reason,
        receive_count: receiveCount,
      }),
      event.idempotency_key,
      null,
    );
    return {
      action: 'retry',
      result: 'retrying',
      delaySeconds: backoffSeconds(receiveCount, deps.backoff),
      notification: next,
      reason: result.reason,
      error,
    };
  }

  const permanent = result.kind === 'permanent';
  const review = reviewFor(
    n,
    at,
    permanent ? 'permanent_failure' : 'dead_lettered',
    permanent
      ? `provider refused: ${result.reason}`
      : `${receiveCount} attempts failed, last: ${result.reason}`,
  );
  const next = withAttempt(
    n,
    at,
    permanent ? 'permanent_failure' : 'transient_failure',
    result.reason,
    latency,
    {
      status: 'dead_lettered',
      review_item_id: review.id,
    },
  );
  await deps.store.failed(
    next,
    systemAudit(deps.clock, n, 'dead_lettered', `${n.channel} notification dead-lettered: ${result.reason}`, {
      reason: result.reason,
      permanent,
      review_item_id: review.id,
    }),
    event.idempotency_key,
    review,
  );
  return permanent
    ? { action: 'ack', result: 'permanent_failure', notification: next, reason: result.reason }
    : { action: 'dead_letter', result: 'dead_lettered', notification: next, reason: result.reason, error };
}

/** `delivered` + attempt + audit; with `claimAt` the key is claimed in that write (in_app). */
async function recordDelivered(
  deps: DeliveryDeps,
  found: Notification,
  key: string,
  start: Date,
  done: Date,
  claimAt?: string,
): Promise<DeliveryOutcome> {
  const at = done.toISOString();
  const n = { ...found, status: 'delivering' as const };
  const change = { status: 'delivered' as const, delivered_at: at };
  const next = withAttempt(n, at, 'delivered', null, done.getTime() - start.getTime(), change);
  const claimed = await deps.store.delivered(
    next,
    systemAudit(deps.clock, n, 'delivered', `${n.channel} notification delivered`, {
      attempt: next.attempts.length,
    }),
    key,
    claimAt,
  );
  if (claimed === 'done') return { action: 'ack', result: 'duplicate', notification: found };
  if (claimed === 'busy') return { action: 'retry', result: 'busy', delaySeconds: deps.leaseSeconds };
  if (found.review_item_id) await deps.store.resolveReview(n.tenant_id, found.review_item_id, at);
  const queuedAt = n.queued_at ? Date.parse(n.queued_at) : Date.parse(n.created_at);
  return { action: 'ack', result: 'delivered', notification: next, latencyMs: done.getTime() - queuedAt };
}

function withAttempt(
  n: Notification,
  at: string,
  outcome: Attempt['outcome'],
  reason: string | null,
  latency: number | null,
  change: Partial<Notification>,
): Notification {
  const attempt: Attempt = { attempt: n.attempts.length + 1, at, outcome, reason, latency_ms: latency };
  return { ...n, ...change, updated_at: at, attempts: [...n.attempts, attempt] };
}
