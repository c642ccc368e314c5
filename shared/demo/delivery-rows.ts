import type * as z from 'zod';
import { TIMER_KINDS } from '#shared/api/schemas/timers';
import { DEFAULT_DEDUPE_WINDOW_MINUTES, HOLD_REASONS } from '#shared/domain/notifications/holds';
import { DIGEST_LISTED } from '#shared/domain/notifications/digest';
import type { NotificationStatus } from '#shared/domain/notifications/ports';
import { UNMUTABLE_CATEGORY } from '#shared/domain/preferences/rules';
import { ALARMS, LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { runbookPath } from './common';
import type { NotificationDeliveryContractDemoRead } from './schemas';

/**
 * The rows of the notification delivery contract (./delivery.ts): its metrics, log events and
 * alarms, read from `shared/kernel/names.ts`, and the routes of a notification held back by the
 * member's preferences, a dedupe key or a digest, read from the domain that holds it.
 */

type Contract = z.output<typeof NotificationDeliveryContractDemoRead>;

const metric = (name: string, unit: string, stage: string, meaning: string) => ({
  name,
  unit,
  stage,
  meaning,
});
const logEvent = (event: string, stage: string, meaning: string) => ({ event, stage, meaning });
const alarm = (name: string, signal: string) => ({ name, signal, runbook: runbookPath(name) });

export const metricRows: Contract['metrics'] = (
  [
    [
      METRICS.notificationQueued,
      'Count',
      'policy check',
      'A draft passed the policy check and its outbox event was written.',
    ],
    [
      METRICS.notificationBlocked,
      'Count',
      'policy check',
      'A draft failed the policy check and was kept as blocked.',
    ],
    [
      METRICS.outboxWritten,
      'Count',
      'outbox',
      'An outbox item was written in the same transaction as its change.',
    ],
    [METRICS.relayPublished, 'Count', 'relay', 'The stream relay published an outbox item to its queue.'],
    [METRICS.relayFailed, 'Count', 'relay', 'The stream relay could not publish an outbox item.'],
    [METRICS.relayLag, 'Milliseconds', 'relay', 'Time from outbox write to queue publish.'],
    [
      METRICS.sweeperRepublished,
      'Count',
      'recovery',
      'The sweeper re-published an item the relay had not published in time.',
    ],
    [
      METRICS.outboxPending,
      'Count',
      'operator metrics',
      'Outbox events not yet relayed, recorded when GET /ops/metrics is read.',
    ],
    [
      METRICS.outboxOldestAge,
      'Seconds',
      'operator metrics',
      'Age of the oldest outbox event not yet relayed, recorded when GET /ops/metrics is read.',
    ],
    [
      METRICS.reviewItemsOpen,
      'Count',
      'operator metrics',
      'Open review items of every tenant by kind (dimension kind), recorded when GET /ops/metrics is read.',
    ],
    [METRICS.notificationDelivered, 'Count', 'worker', 'The provider (or the inbox) accepted the message.'],
    [
      METRICS.notificationDuplicate,
      'Count',
      'worker',
      'A redelivered or redriven message was already delivered; nothing sent.',
    ],
    [METRICS.workerFailed, 'Count', 'worker', 'A queue record failed; it returns to its queue.'],
    [
      METRICS.notificationSuppressed,
      'Count',
      'preferences',
      'A member muted it, or a duplicate inside its dedupe window; nothing sent.',
    ],
    [
      METRICS.notificationScheduled,
      'Count',
      'preferences',
      "Held by the member's quiet hours until they end.",
    ],
    [
      METRICS.notificationDigesting,
      'Count',
      'digest',
      'Held for a digest, sent in one message when its window closes.',
    ],
    [METRICS.notificationDeliveryLatency, 'Milliseconds', 'worker', 'Time from queued to delivered.'],
    [METRICS.notificationRetried, 'Count', 'retry', 'A transient failure returned the message to its queue.'],
    [METRICS.notificationGated, 'Count', 'provider gate', 'The provider gate held a message back.'],
    [
      METRICS.notificationDeadLettered,
      'Count',
      'dead letter',
      'A message ran out of attempts or failed permanently.',
    ],
    [
      METRICS.reviewItemOpened,
      'Count',
      'operator review',
      'A gated or dead-lettered message became a review item.',
    ],
  ] as const
).map(([name, unit, stage, meaning]) => metric(name, unit, stage, meaning));

export const logRows: Contract['logEvents'] = (
  [
    [LOG_EVENTS.outboxRelayed, 'relay', 'One line per outbox item published to a queue.'],
    [LOG_EVENTS.outboxRelayFailed, 'relay', 'A publish failed; the stream retries the batch item.'],
    [LOG_EVENTS.outboxRepublished, 'recovery', 'The sweeper re-published a late outbox item.'],
    [
      LOG_EVENTS.notificationQueued,
      'policy check',
      'A draft passed the policy check; its outbox event is written.',
    ],
    [
      LOG_EVENTS.notificationBlocked,
      'policy check',
      'A draft failed the policy check; carries the reason codes.',
    ],
    [
      LOG_EVENTS.notificationSuppressed,
      'preferences',
      'Muted or a duplicate; nothing sent, no review item; carries the reason.',
    ],
    [
      LOG_EVENTS.notificationScheduled,
      'preferences',
      'Held by quiet hours; a notification_release timer lets it go.',
    ],
    [
      LOG_EVENTS.notificationDigesting,
      'digest',
      'Held for a digest; a notification_digest timer sends the digest.',
    ],
    [LOG_EVENTS.notificationDelivering, 'worker', 'The worker claimed the message and is sending it.'],
    [LOG_EVENTS.notificationDelivered, 'worker', 'Delivery succeeded; carries tenant, channel and attempt.'],
    [LOG_EVENTS.notificationDuplicate, 'worker', 'The idempotency key was already delivered; nothing sent.'],
    [LOG_EVENTS.workerRecordFailed, 'worker', 'A queue record failed unexpectedly; the queue retries it.'],
    [
      LOG_EVENTS.notificationRetry,
      'retry',
      'A transient failure; carries the attempt number and the failure class.',
    ],
    [LOG_EVENTS.notificationGated, 'provider gate', 'The gate held the message; carries the gate name.'],
    [
      LOG_EVENTS.notificationPermanentFailure,
      'dead letter',
      'The provider refused the message for good; no retry.',
    ],
    [
      LOG_EVENTS.notificationDeadLettered,
      'dead letter',
      'The message ran out of attempts and moved to a dead-letter queue.',
    ],
    [LOG_EVENTS.reviewDecided, 'operator review', 'An operator decided retry or discard on a review item.'],
  ] as const
).map(([event, stage, meaning]) => logEvent(event, stage, meaning));

export const alarmRows: Contract['alarms'] = (
  [
    [ALARMS.dlqNotEmpty, 'A dead-letter queue holds at least one message.'],
    [ALARMS.queueOldestMessageAge, 'The oldest message of a delivery queue is older than its bound.'],
    [ALARMS.outboxRelayLag, 'Outbox items take too long to reach their queue.'],
    [ALARMS.relayIteratorAge, 'The stream relay falls behind the table stream.'],
    [ALARMS.relayFailures, 'The relay keeps failing to publish.'],
    [ALARMS.functionErrors, 'A worker or relay function reports errors.'],
  ] as const
).map(([name, signal]) => alarm(name, signal));

const timerKind = (kind: (typeof TIMER_KINDS)[number]) => kind;
const status = (s: NotificationStatus) => s;

/** How a notification held back ends: the statuses and reasons the API stores. */
export const holdRouting: Contract['retryRouting'] = [
  {
    outcome: 'muted',
    signal: `the member muted the channel, the category or the pair (never ${UNMUTABLE_CATEGORY})`,
    status: `${status('suppressed')} (reason ${HOLD_REASONS.muted})`,
    route: 'nothing sent, no outbox event, no review item',
    metric: METRICS.notificationSuppressed,
    logEvent: LOG_EVENTS.notificationSuppressed,
  },
  {
    outcome: 'duplicate',
    signal: `same dedupe_key, channel and recipient inside the window (default ${DEFAULT_DEDUPE_WINDOW_MINUTES} minutes)`,
    status: `${status('suppressed')} (reason ${HOLD_REASONS.duplicate}, duplicate_of the first)`,
    route: 'nothing sent; one outside the window is sent',
    metric: METRICS.notificationSuppressed,
    logEvent: LOG_EVENTS.notificationSuppressed,
  },
  {
    outcome: 'quiet hours',
    signal: "an external, normal-priority notification inside the member's quiet hours",
    status: `${status('scheduled')} (deliver_after the window's end), then ${status('queued')}`,
    route: `a ${timerKind('notification_release')} timer queues it once through the normal path`,
    metric: METRICS.notificationScheduled,
    logEvent: LOG_EVENTS.notificationScheduled,
  },
  {
    outcome: 'digest',
    signal: 'same digest key, channel and recipient while the window opened by the first is open',
    status: `${status('digesting')}, then ${status('digested')} (digest_id)`,
    route: `a ${timerKind('notification_digest')} timer sends one message listing at most ${DIGEST_LISTED}`,
    metric: METRICS.notificationDigesting,
    logEvent: LOG_EVENTS.notificationDigesting,
  },
];
