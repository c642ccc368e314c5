import type * as z from 'zod';
import { DELIVERY_BACKOFF, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { EVENT_KINDS, LOG_EVENTS, METRICS, QUEUES } from '#shared/kernel/names';
import { holdRouting, logRows, metricRows } from './delivery-rows';
import type { NotificationDeliveryContractDemoRead } from './schemas';

type Contract = z.output<typeof NotificationDeliveryContractDemoRead>;

/**
 * The stages a notification passes, in order, each with the metric and log event that show it:
 * the names are those the code emits (`shared/kernel/names.ts`), the retry policy the domain's.
 */
export const deliveryPath = (): Contract['deliveryPath'] => [
  {
    step: 1,
    stage: 'Safe draft',
    actor: 'API (notifications route)',
    what: 'The draft is stored with channel, audience and body; nothing is sent yet.',
    resultStatus: 'draft stored',
    metric: 'none',
    logEvent: 'http.request',
  },
  {
    step: 2,
    stage: 'Policy check',
    actor: 'API (notifications route)',
    what: 'Recipient format and body length per channel, channel enabled for the tenant, no secret-looking content.',
    resultStatus: 'queued, or blocked with 422 policy_rejected',
    metric: `${METRICS.notificationQueued} / ${METRICS.notificationBlocked}`,
    logEvent: `${LOG_EVENTS.notificationQueued} / ${LOG_EVENTS.notificationBlocked}`,
  },
  {
    step: 3,
    stage: 'Preferences, dedupe and digest',
    actor: 'API (notifications route)',
    what: "To a member: a muted channel or category (never security) is suppressed; an external normal notification inside the member's quiet hours waits for them to end. A dedupe_key inside its window is suppressed as a duplicate; a digest key holds it until the digest's window closes, then one message lists them.",
    resultStatus: [...new Set(holdRouting.map((r) => r.status.split(/[ ,]/)[0]))].join(', '),
    metric: `${METRICS.notificationSuppressed} / ${METRICS.notificationScheduled} / ${METRICS.notificationDigesting}`,
    logEvent: `${LOG_EVENTS.notificationSuppressed} / ${LOG_EVENTS.notificationScheduled} / ${LOG_EVENTS.notificationDigesting}`,
  },
  {
    step: 4,
    stage: 'Idempotent outbox event',
    actor: 'API, same DynamoDB transaction as the draft',
    what: `Writes ${EVENT_KINDS.notificationDeliveryRequested} with a stable idempotency key; the stream relay publishes it.`,
    resultStatus: 'queued',
    metric: `${METRICS.outboxWritten} / ${METRICS.relayPublished}`,
    logEvent: LOG_EVENTS.outboxRelayed,
  },
  {
    step: 5,
    stage: 'Notification worker',
    actor: 'notification worker',
    what: `Consumes ${QUEUES.internal} (in_app) or ${QUEUES.external} (external channels); skips keys it already delivered.`,
    resultStatus: 'delivering',
    metric: `${METRICS.notificationDeliveryLatency} / ${METRICS.notificationDuplicate}`,
    logEvent: `${LOG_EVENTS.notificationDelivering} / ${LOG_EVENTS.notificationDuplicate}`,
  },
  {
    step: 6,
    stage: 'Provider gate',
    actor: 'notification worker',
    what: 'External channels pass only with an active tenant connection and its private configuration present.',
    resultStatus: 'delivered, or gated',
    metric: `${METRICS.notificationDelivered} / ${METRICS.notificationGated}`,
    logEvent: LOG_EVENTS.notificationGated,
  },
  {
    step: 7,
    stage: 'Retry or dead letter',
    actor: 'queue redrive policy',
    what: `Transient failures retry with exponential backoff (${DELIVERY_BACKOFF.baseSeconds} s doubling, at most ${DELIVERY_BACKOFF.capSeconds} s, with jitter); after ${DELIVERY_MAX_ATTEMPTS} attempts, or at once on a permanent failure, the message is dead-lettered.`,
    resultStatus: 'retrying, or dead_lettered',
    metric: `${METRICS.notificationRetried} / ${METRICS.notificationDeadLettered}`,
    logEvent: `${LOG_EVENTS.notificationRetry} / ${LOG_EVENTS.notificationDeadLettered}`,
  },
  {
    step: 8,
    stage: 'Operator review',
    actor: 'operator, manager or owner',
    what: 'Gated and dead-lettered messages become review items; the operator decides retry or discard.',
    resultStatus: 'queued again, or discarded',
    metric: METRICS.reviewItemOpened,
    logEvent: LOG_EVENTS.reviewDecided,
  },
  {
    step: 9,
    stage: 'Evidence',
    actor: 'CloudWatch',
    what: 'Metrics, structured logs and alarms cover every stage; each alarm links its runbook.',
    resultStatus: 'observed',
    metric: `${metricRows.length} metrics`,
    logEvent: `${logRows.length} log events`,
  },
];
