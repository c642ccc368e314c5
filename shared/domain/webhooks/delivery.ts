import { timerId } from '#shared/domain/timers/arming';
import type { Timer } from '#shared/domain/timers/ports';
import type { Clock } from '#shared/kernel/ids';
import type { OutboxEvent } from '#shared/domain/outbox';
import { disabling } from './disabling';
import type {
  EndpointChange,
  StoredMessage,
  WebhookEndpointStore,
  WebhookMessageStore,
  WebhookSecrets,
  WebhookSender,
} from './ports';

/**
 * The external worker's webhook delivery (docs/api.md, "Event subscriptions"): one attempt per
 * queue message, claimed first so that a redelivered queue message never sends an attempt twice.
 */

/** Waits after attempt 1, 2, ... of a round (s): about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
/** Each wait grows by up to this share, so that endpoints that failed together do not retry together. */
export const RETRY_JITTER = 0.1;
/** The attempts of a round: the first and one after each wait; then the message is `failed`. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_S.length + 1;
/** A `Retry-After` is honoured up to 12 hours. */
export const RETRY_AFTER_MAX_S = 12 * 3600;
/**
 * A failing endpoint's message that finds its probe slot taken looks again after this long (s):
 * looking every few seconds cost the shared table and queues more than the probe itself (each
 * look is two reads and a cancelled transaction), and a failing endpoint's messages wait anyway.
 */
export const DEFERRED_WAIT_S = 30;
/**
 * An attempt to an endpoint not known to fail that has had no answer for this long marks it
 * failing from the attempt's start, so that its next messages take the probe slot one at a time
 * instead of each holding a worker until the sender's deadline (5 s): a hang costs other tenants
 * this second, not the deadline. An answer clears the mark; a failure keeps it, as it would have
 * set it. Healthy receivers answer well within it (the Standard Webhooks guidance is to answer
 * before doing the work).
 */
export const SLOW_AFTER_MS = 1000;
/** An endpoint whose attempts have all failed for this long is disabled. */
export const FAILING_DISABLE_MS = 5 * 24 * 3600 * 1000;

export interface DeliveryDeps {
  endpoints: Pick<WebhookEndpointStore, 'get' | 'markFailing'>;
  messages: WebhookMessageStore;
  secrets: Pick<WebhookSecrets, 'read'>;
  sender: WebhookSender;
  clock: Clock;
  /** How long an attempt holds its claim: shorter than the queue's visibility timeout. */
  leaseSeconds: number;
  /** Whether this queue message may carry a wait itself (its visibility) or a timer must. */
  queueCarries(receiveCount: number, seconds: number): boolean;
  /** Arms (or re-arms) a timer on its own: an early copy's wait that the queue cannot carry. */
  armTimer(timer: Timer): Promise<void>;
  /** How long an attempt to a failing endpoint holds its one probe slot: the sender's deadline and a margin. */
  probeSeconds: number;
  random?: () => number;
}

export type DeliveryResult =
  'delivered' | 'retrying' | 'failed' | 'skipped' | 'early' | 'deferred' | 'resent';

export interface DeliveryOutcome {
  result: DeliveryResult;
  message_id: string;
  status_code?: number | null;
  error_code?: string | null;
  /** The queue message comes back after this many seconds (a wait the queue carries); else it is done. */
  delaySeconds?: number;
  disabled?: 'gone' | 'failing';
}

/** The wait before the next attempt, or null when the round is over. */
export function nextWait(
  roundAttempts: number,
  status: number | null,
  retryAfter: number | null,
  random: () => number = Math.random,
): number | null {
  if (roundAttempts >= MAX_ATTEMPTS) return null;
  if ((status === 429 || status === 503) && retryAfter !== null)
    return Math.min(Math.max(0, retryAfter), RETRY_AFTER_MAX_S);
  const base = RETRY_SCHEDULE_S[roundAttempts - 1]!;
  return Math.round(base * (1 + random() * RETRY_JITTER));
}

const final = (m: StoredMessage) => m.status === 'delivered' || m.status === 'failed';

/** The timer that ends a wait the queue message cannot carry: its firing queues a fresh message. */
const retryTimer = (m: StoredMessage, dueAt: string): Timer => ({
  id: timerId('webhook_retry', m.id),
  tenant_id: m.tenant_id,
  kind: 'webhook_retry',
  subject_type: 'webhook_message',
  subject_id: m.id,
  due_at: dueAt,
});

export async function deliverMessage(
  deps: DeliveryDeps,
  event: OutboxEvent,
  receiveCount: number,
): Promise<DeliveryOutcome> {
  const id = String(event.payload.message_id);
  const m = await deps.messages.get(event.tenant_id, id);
  if (!m || final(m)) return { result: 'skipped', message_id: id };
  const start = deps.clock.now();
  const due = m.next_attempt_at ? Date.parse(m.next_attempt_at) : start.getTime();
  // A copy that waits without an attempt spends a receive on every return. It waits as a failed
  // attempt's wait does: on the queue while that fits, else as the retry timer (due when the
  // message is), and this copy is done, so that no number of such returns can push it into the DLQ.
  const waitFor = async (result: 'early' | 'deferred', seconds: number): Promise<DeliveryOutcome> => {
    if (deps.queueCarries(receiveCount, seconds)) return { result, message_id: id, delaySeconds: seconds };
    // Due when the message is: the firing requeues only a message whose time the timer names.
    await deps.armTimer(retryTimer(m, m.next_attempt_at ?? start.toISOString()));
    return { result, message_id: id };
  };
  // Before its time: a clock behind the one that set the time, a duplicate copy, a queue whose
  // seconds are scaled.
  if (due > start.getTime()) return waitFor('early', Math.ceil((due - start.getTime()) / 1000));
  // A live claim: another copy is sending, or this copy's own claim was written but its answer
  // was lost (the call timed out, the copy came back). Skipping here would leave the second case
  // with no copy once the lease runs out; the copy looks again when the lease has ended.
  const leaseLeft = m.lease_until ? Date.parse(m.lease_until) - start.getTime() : 0;
  if (leaseLeft > 0) return waitFor('deferred', Math.ceil(leaseLeft / 1000) + 1);

  const endpoint = await deps.endpoints.get(m.tenant_id, m.endpoint_id);
  const leaseUntil = new Date(start.getTime() + deps.leaseSeconds * 1000).toISOString();
  // A failing endpoint (one that timed out may hold a worker's batch for the sender's whole
  // deadline) takes one attempt at a time: the others wait for the probe's outcome, so that its
  // tenant's messages cannot fill every worker while other tenants' wait (docs/decisions.md,
  // "Fairness").
  const probe =
    endpoint?.status === 'active' && endpoint.failing_since
      ? {
          endpointId: endpoint.id,
          until: new Date(start.getTime() + deps.probeSeconds * 1000).toISOString(),
        }
      : undefined;
  const claimed = await deps.messages.claim(m, start.toISOString(), leaseUntil, probe);
  if (claimed === 'busy') return waitFor('deferred', DEFERRED_WAIT_S);
  if (!claimed) return { result: 'skipped', message_id: id };

  if (!endpoint || endpoint.status !== 'active') {
    const next = { ...m, status: 'failed' as const, next_attempt_at: null, lease_until: null };
    await deps.messages.settle({
      message: next,
      claimedAttempts: m.attempts.length,
      timer: null,
      endpoint: null,
    });
    return { result: 'failed', message_id: id, error_code: 'endpoint_disabled' };
  }

  const secrets = [await deps.secrets.read(m.tenant_id, endpoint.id, endpoint.secret_version)];
  if (endpoint.previous_secret_until && Date.parse(endpoint.previous_secret_until) > start.getTime())
    secrets.push(await deps.secrets.read(m.tenant_id, endpoint.id, endpoint.secret_version - 1));
  const signing = secrets.filter((s): s is string => Boolean(s));
  if (signing.length === 0) throw new Error(`webhook endpoint ${endpoint.id} has no secret in storage`);

  let marking: Promise<boolean> | undefined;
  const slow = endpoint.failing_since
    ? undefined
    : {
        afterMs: SLOW_AFTER_MS,
        onSlow: () => {
          // A mark that fails to write changes nothing but the next messages' pace: not a reason to retry.
          marking = deps.endpoints
            .markFailing(m.tenant_id, endpoint.id, start.toISOString())
            .catch(() => false);
        },
      };
  const sent = await deps.sender.send(endpoint.url, { id: m.id, body: m.body, secrets: signing }, slow);
  const marked = marking ? await marking : false;
  const now = deps.clock.now();
  const attempts = [
    ...m.attempts,
    {
      at: start.toISOString(),
      status_code: sent.status_code,
      duration_ms: sent.duration_ms,
      error_code: sent.error_code,
    },
  ];
  const ok = sent.status_code !== null && sent.status_code >= 200 && sent.status_code < 300;
  const gone = sent.status_code === 410;
  const wait =
    ok || gone
      ? null
      : nextWait(attempts.length - m.round_start, sent.status_code, sent.retry_after_s, deps.random);
  const next: StoredMessage = {
    ...m,
    attempts,
    status: ok ? 'delivered' : wait === null ? 'failed' : 'retrying',
    next_attempt_at: wait === null ? null : new Date(now.getTime() + wait * 1000).toISOString(),
    lease_until: null,
  };

  let change: EndpointChange | null = null;
  let disabled: DeliveryOutcome['disabled'];
  if (ok && (endpoint.failing_since || marked)) {
    const updated = { ...endpoint, failing_since: null, updated_at: now.toISOString() };
    change = { next: updated, expectedUpdatedAt: endpoint.updated_at, audit: null };
  } else if (gone) {
    change = disabling(deps.clock, endpoint, 'gone');
    disabled = 'gone';
  } else if (!ok) {
    const since = endpoint.failing_since ?? start.toISOString();
    if (now.getTime() - Date.parse(since) >= FAILING_DISABLE_MS) {
      change = disabling(deps.clock, { ...endpoint, failing_since: since }, 'failing');
      disabled = 'failing';
    } else if (!endpoint.failing_since) {
      const updated = { ...endpoint, failing_since: since, updated_at: now.toISOString() };
      change = { next: updated, expectedUpdatedAt: endpoint.updated_at, audit: null };
    }
  }

  const carried = wait !== null && deps.queueCarries(receiveCount, wait);
  const timer = wait !== null && !carried ? retryTimer(m, next.next_attempt_at!) : null;
  const settle = (message: StoredMessage, endpointChange: EndpointChange | null, asClaimed = m) =>
    deps.messages.settle({
      message,
      claimedAttempts: m.attempts.length,
      unchanged: asClaimed,
      timer: message === next ? timer : null,
      endpoint: endpointChange,
    });
  let applied = change;
  let settled = await settle(next, change);
  // The endpoint changed meanwhile (a PATCH, another message's outcome): the attempt is recorded
  // without its endpoint change; the next outcome judges the endpoint again.
  if (!settled && change) {
    applied = null;
    settled = await settle(next, null);
  }
  // Resent while this attempt was in flight: the attempt joins the log and the resend stands (its
  // own copy sends once this claim is released), so an older outcome never undoes the resend.
  let resent = false;
  const current = settled ? undefined : await deps.messages.get(m.tenant_id, m.id);
  if (current?.status === 'pending' && current.attempts.length === m.attempts.length) {
    // The resend's round starts after this attempt.
    const kept: StoredMessage = { ...current, attempts, round_start: attempts.length, lease_until: null };
    applied = change;
    resent = await settle(kept, change, current);
    if (!resent && change) {
      applied = null;
      resent = await settle(kept, null, current);
    }
    settled = resent;
  }
  if (!settled) return { result: 'skipped', message_id: id };
  return {
    result: resent ? 'resent' : (next.status as DeliveryResult),
    message_id: id,
    status_code: sent.status_code,
    error_code: sent.error_code,
    ...(carried && !resent && { delaySeconds: wait }),
    ...(disabled && applied && { disabled }),
  };
}
