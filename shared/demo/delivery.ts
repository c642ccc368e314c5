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
import { alarmRows, holdRouting, logRows, metricRows } from './delivery-rows';
import { deliveryPath } from './delivery-path';
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
    deliveryPath: deliveryPath(),
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
      ...holdRouting,
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
