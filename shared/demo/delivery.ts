import type * as z from 'zod';
import {
  CHANNEL_PROFILES,
  type ChannelProfile,
  DELIVERY_BACKOFF,
  DELIVERY_MAX_ATTEMPTS,
} from '#shared/domain/notifications/channels';
import { OUTBOX_EVENT_FIELDS } from '#shared/domain/outbox';
import {
  ALARMS,
  dlqName,
  EVENT_KINDS,
  LOG_EVENTS,
  METRICS,
  QUEUES,
  type QueueName,
} from '#shared/kernel/names';
import { call, demoCommand, DOC, PUBLIC_BOUNDARIES, runbookPath } from './common';
import type { NOTIFICATION_CHANNELS, NotificationDeliveryContractDemoRead } from './schemas';

/**
 * The notification delivery contract (docs/api.md sections 7 and 8). Every queue,
 * event kind, metric, log event and alarm below is read from `shared/kernel/names.ts`, the module the
 * workers, the CDK alarms and the runbooks read, so the public contract cannot name something the
 * system does not emit. The channel profiles and the retry policy are the domain's
 * (`shared/domain/notifications/channels.ts`), the ones the policy check and the workers apply.
 */

type Channel = (typeof NOTIFICATION_CHANNELS)[number];
type Contract = z.output<typeof NotificationDeliveryContractDemoRead>;

const channelEntries = Object.entries(CHANNEL_PROFILES) as [Channel, ChannelProfile][];
const channelsOn = (queue: QueueName): Channel[] =>
  channelEntries.filter(([, p]) => p.queue === queue).map(([c]) => c);

export const DELIVERY_API = {
  self: call('demo.notificationDelivery'),
  send: call('notifications.create'),
  list: call('notifications.list'),
  get: call('notifications.get'),
  reviewItems: call('reviewItems.list'),
  decide: call('reviewItems.decide'),
  openapi: call('public.openapi'),
} as const;

const WRITERS = ['operator', 'manager', 'owner'];

const metric = (name: string, unit: string, stage: string, meaning: string) => ({
  name,
  unit,
  stage,
  meaning,
});
const logEvent = (event: string, stage: string, meaning: string) => ({ event, stage, meaning });
const alarm = (name: string, signal: string) => ({ name, signal, runbook: runbookPath(name) });

const metricRows: Contract['metrics'] = (
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
    [METRICS.notificationSuppressed, 'Count', 'preferences', 'A member muted it; nothing sent.'],
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

const logRows: Contract['logEvents'] = (
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
    [LOG_EVENTS.notificationSuppressed, 'preferences', 'A member muted it; nothing sent, no review item.'],
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

const alarmRows: Contract['alarms'] = (
  [
    [ALARMS.dlqNotEmpty, 'A dead-letter queue holds at least one message.'],
    [ALARMS.queueOldestMessageAge, 'The oldest message of a delivery queue is older than its bound.'],
    [ALARMS.outboxRelayLag, 'Outbox items take too long to reach their queue.'],
    [ALARMS.relayIteratorAge, 'The stream relay falls behind the table stream.'],
    [ALARMS.relayFailures, 'The relay keeps failing to publish.'],
    [ALARMS.functionErrors, 'A worker or relay function reports errors.'],
  ] as const
).map(([name, signal]) => alarm(name, signal));

export function notificationDeliveryContract(): Contract {
  const queues = [QUEUES.internal, QUEUES.external] as const;
  const external = channelEntries.filter(([, p]) => p.direction === 'external');
  return {
    status: 'previewed',
    command: demoCommand('demo.notificationDelivery'),
    api: { ...DELIVERY_API },
    docs: [
      { ...DOC.delivery },
      { ...DOC.openapi },
      { title: 'Dead-letter runbook', path: runbookPath(ALARMS.dlqNotEmpty) },
    ],
    title: 'Notification delivery contract',
    summary: [
      {
        label: 'Channels',
        value: String(channelEntries.length),
        detail: channelEntries.map(([c]) => c).join(', '),
      },
      {
        label: 'Outbox event',
        value: EVENT_KINDS.notificationDeliveryRequested,
        detail: 'written after the policy check',
      },
      { label: 'Worker queues', value: String(queues.length), detail: queues.join(' and ') },
      {
        label: 'Provider gates',
        value: String(external.length),
        detail: 'every channel that leaves the system',
      },
      {
        label: 'Attempts before dead letter',
        value: String(DELIVERY_MAX_ATTEMPTS),
        detail: `then ${queues.map((q) => dlqName(q)).join(' or ')}`,
      },
      { label: 'Alarms', value: String(alarmRows.length), detail: 'each with a runbook' },
    ],
    deliveryPath: [
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
        stage: 'Idempotent outbox event',
        actor: 'API, same DynamoDB transaction as the draft',
        what: `Writes ${EVENT_KINDS.notificationDeliveryRequested} with a stable idempotency key; the stream relay publishes it.`,
        resultStatus: 'queued',
        metric: `${METRICS.outboxWritten} / ${METRICS.relayPublished}`,
        logEvent: LOG_EVENTS.outboxRelayed,
      },
      {
        step: 4,
        stage: 'Notification worker',
        actor: 'notification worker',
        what: `Consumes ${QUEUES.internal} (in_app) or ${QUEUES.external} (external channels); skips keys it already delivered.`,
        resultStatus: 'delivering',
        metric: `${METRICS.notificationDeliveryLatency} / ${METRICS.notificationDuplicate}`,
        logEvent: `${LOG_EVENTS.notificationDelivering} / ${LOG_EVENTS.notificationDuplicate}`,
      },
      {
        step: 5,
        stage: 'Provider gate',
        actor: 'notification worker',
        what: 'External channels pass only with an active tenant connection and its private configuration present.',
        resultStatus: 'delivered, or gated',
        metric: `${METRICS.notificationDelivered} / ${METRICS.notificationGated}`,
        logEvent: LOG_EVENTS.notificationGated,
      },
      {
        step: 6,
        stage: 'Retry or dead letter',
        actor: 'queue redrive policy',
        what: `Transient failures retry with exponential backoff (${DELIVERY_BACKOFF.baseSeconds} s doubling, at most ${DELIVERY_BACKOFF.capSeconds} s, with jitter); after ${DELIVERY_MAX_ATTEMPTS} attempts, or at once on a permanent failure, the message is dead-lettered.`,
        resultStatus: 'retrying, or dead_lettered',
        metric: `${METRICS.notificationRetried} / ${METRICS.notificationDeadLettered}`,
        logEvent: `${LOG_EVENTS.notificationRetry} / ${LOG_EVENTS.notificationDeadLettered}`,
      },
      {
        step: 7,
        stage: 'Operator review',
        actor: 'operator, manager or owner',
        what: 'Gated and dead-lettered messages become review items; the operator decides retry or discard.',
        resultStatus: 'queued again, or discarded',
        metric: METRICS.reviewItemOpened,
        logEvent: LOG_EVENTS.reviewDecided,
      },
      {
        step: 8,
        stage: 'Evidence',
        actor: 'CloudWatch',
        what: 'Metrics, structured logs and alarms cover every stage; each alarm links its runbook.',
        resultStatus: 'observed',
        metric: `${metricRows.length} metrics`,
        logEvent: `${logRows.length} log events`,
      },
    ],
    outboxEvent: {
      kind: EVENT_KINDS.notificationDeliveryRequested,
      writtenAfter: 'the policy check passed',
      transaction: 'same DynamoDB transaction as the notification draft and its audit event',
      idempotencyKey: 'stable per notification: notification:{tenant_id}:{notification_id}',
      envelope: [...OUTBOX_EVENT_FIELDS],
      relay: `DynamoDB stream to ${QUEUES.internal} or ${QUEUES.external}, chosen by channel`,
      recovery: 'a scheduled sweeper re-publishes items the relay has not published within the bound',
      consumer: 'notification worker',
    },
    channels: channelEntries.map(([channel, p]) => ({
      channel,
      label: p.label,
      direction: p.direction,
      adapter: p.adapter,
      queue: p.queue,
      deadLetterQueue: dlqName(p.queue),
      providerGate: p.gate ?? 'none (nothing leaves the system)',
      recipientFormat: p.recipientFormat,
      maxBodyChars: p.maxBodyChars,
      subject: p.subject,
      transport: p.transport,
    })),
    queues: queues.map((name) => ({
      name,
      deadLetterQueue: dlqName(name),
      carries:
        name === QUEUES.internal
          ? ['workflow rules', ...channelsOn(name)]
          : [...channelsOn(name), 'accounting export'],
      consumer:
        name === QUEUES.internal ? 'internal worker (rules and in-app inbox)' : 'external delivery worker',
      maxAttempts: DELIVERY_MAX_ATTEMPTS,
      alarms: [ALARMS.dlqNotEmpty, ALARMS.queueOldestMessageAge],
    })),
    providerGates: channelEntries.map(([channel, p]) => ({
      channel,
      gate: p.gate ?? 'none',
      opensWhen:
        p.gate === null
          ? ['always open: the message stays inside the tenant']
          : [
              `an active ${channel} connection for the tenant`,
              'its private server-side configuration is present',
            ],
      whenClosed: p.gate === null ? 'not applicable' : 'status gated, review item opened, nothing sent',
      publicView: p.gate === null ? 'inbox item count' : 'connection state and "configured: yes/no" only',
    })),
    retryRouting: [
      {
        outcome: 'delivered',
        signal: 'provider accepted (2xx) or inbox write succeeded',
        status: 'delivered',
        route: 'message deleted from the queue',
        metric: METRICS.notificationDelivered,
        logEvent: LOG_EVENTS.notificationDelivered,
      },
      {
        outcome: 'duplicate',
        signal: 'idempotency key already delivered (redelivery or redrive)',
        status: 'delivered (unchanged)',
        route: 'acknowledged without sending again',
        metric: METRICS.notificationDuplicate,
        logEvent: LOG_EVENTS.notificationDuplicate,
      },
      {
        outcome: 'transient failure',
        signal: 'timeout, connection reset, 408, 429 or 5xx',
        status: 'retrying',
        route: `message returns to its queue after ${DELIVERY_BACKOFF.baseSeconds} s doubling up to ${DELIVERY_BACKOFF.capSeconds} s (jittered), up to ${DELIVERY_MAX_ATTEMPTS} attempts`,
        metric: METRICS.notificationRetried,
        logEvent: LOG_EVENTS.notificationRetry,
      },
      {
        outcome: 'attempts exhausted',
        signal: `transient failure on attempt ${DELIVERY_MAX_ATTEMPTS}`,
        status: 'dead_lettered',
        route: `moved to ${dlqName(QUEUES.external)} (or ${dlqName(QUEUES.internal)}); review item opened`,
        metric: METRICS.notificationDeadLettered,
        logEvent: LOG_EVENTS.notificationDeadLettered,
      },
      {
        outcome: 'permanent failure',
        signal: 'other 4xx, recipient rejected by the provider',
        status: 'dead_lettered',
        route: 'no retry; acknowledged, review item opened',
        metric: METRICS.notificationDeadLettered,
        logEvent: LOG_EVENTS.notificationPermanentFailure,
      },
      {
        outcome: 'gate closed',
        signal: 'no active connection or private configuration missing',
        status: 'gated',
        route: 'not sent; review item opened',
        metric: METRICS.notificationGated,
        logEvent: LOG_EVENTS.notificationGated,
      },
    ],
    deadLetters: queues.map((queue) => ({
      queue,
      deadLetterQueue: dlqName(queue),
      entersWhen: `${DELIVERY_MAX_ATTEMPTS} failed attempts, or a permanent failure`,
      alarm: ALARMS.dlqNotEmpty,
      runbook: runbookPath(ALARMS.dlqNotEmpty),
      redrive: 'a review decision "retry" queues the message again under the same idempotency key',
    })),
    reviewPath: [
      {
        step: 1,
        action: 'Review item opened',
        api: 'none (automatic)',
        roles: ['system'],
        result: `gated or dead-lettered message appears with its reason (${METRICS.reviewItemOpened})`,
      },
      {
        step: 2,
        action: 'List open items',
        api: `${call('reviewItems.list')}?status=open`,
        roles: ['operator', 'accountant', 'manager', 'owner', 'support'],
        result: 'items with channel, reason, attempts and the last failure class',
      },
      {
        step: 3,
        action: 'Inspect the notification',
        api: DELIVERY_API.get,
        roles: ['operator', 'accountant', 'manager', 'owner', 'support'],
        result: 'every attempt with its status and time; no provider payload',
      },
      {
        step: 4,
        action: 'Decide: retry',
        api: `${DELIVERY_API.decide} {"action":"retry"}`,
        roles: WRITERS,
        result: 'queued again under the same idempotency key, so it is never sent twice',
      },
      {
        step: 5,
        action: 'Decide: discard',
        api: `${DELIVERY_API.decide} {"action":"discard"}`,
        roles: WRITERS,
        result: `status discarded; audit event and ${LOG_EVENTS.reviewDecided} log line`,
      },
    ],
    metrics: metricRows,
    logEvents: logRows,
    alarms: alarmRows,
    dataBoundaries: PUBLIC_BOUNDARIES.map((b) => ({ ...b })),
  };
}
