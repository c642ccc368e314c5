import type { Clock } from '#shared/kernel/ids';
import type { OccurrenceResult, Timer } from '#shared/domain/timers/ports';
import { queued } from './messages';
import type { WebhookMessageStore } from './ports';

/**
 * The `webhook_retry` timer's firing (docs/decisions.md, "Webhook retries beyond the queue"): a
 * wait the queue message could not carry ends by queueing a fresh message for the attempt, if
 * the message still waits for that attempt at that time (a resend or recover meanwhile made it
 * stale). The message keeps its status, attempts and round; only a new outbox event is written.
 */

export interface WebhookRetryDeps {
  messages: Pick<WebhookMessageStore, 'get' | 'requeue'>;
  clock: Clock;
}

export async function fireWebhookRetry(deps: WebhookRetryDeps, timer: Timer): Promise<OccurrenceResult> {
  const m = await deps.messages.get(timer.tenant_id, timer.subject_id);
  // `pending` too: an early copy of a first attempt (its time set by a clock ahead) may wait here.
  if (!m || (m.status !== 'retrying' && m.status !== 'pending') || m.next_attempt_at === null) return 'stale';
  if (Date.parse(m.next_attempt_at) !== Date.parse(timer.due_at)) return 'stale';
  return (await deps.messages.requeue(queued(deps.clock, m), m)) ? 'written' : 'duplicate';
}
