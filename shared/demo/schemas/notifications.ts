import * as z from 'zod';
import { NotificationChannel } from '#shared/api/schemas/notifications';
import { channelList, dataBoundaries, DemoTenant, demoBase, names, row, summary, text } from './base';

/** The demo's notification records: the delivery contract and the channel matrix. */

// Notification delivery contract (docs/api.md sections 7 and 8)

export const NotificationDeliveryContractDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    summary,
    deliveryPath: z.array(
      row({
        step: z.int().min(1),
        stage: text,
        actor: text,
        what: text,
        resultStatus: text,
        metric: text,
        logEvent: text,
      }),
    ),
    outboxEvent: row({
      kind: text,
      writtenAfter: text,
      transaction: text,
      idempotencyKey: text,
      envelope: names,
      relay: text,
      recovery: text,
      consumer: text,
    }),
    channels: z.array(
      row({
        channel: NotificationChannel,
        label: text,
        direction: z.enum(['internal', 'external']),
        adapter: text,
        queue: text,
        deadLetterQueue: text,
        providerGate: text,
        recipientFormat: text,
        maxBodyChars: z.int().positive(),
        subject: z.enum(['required', 'optional', 'not used']),
        transport: text,
      }),
    ),
    queues: z.array(
      row({
        name: text,
        deadLetterQueue: text,
        carries: names,
        consumer: text,
        maxAttempts: z.int().positive(),
        alarms: names,
      }),
    ),
    providerGates: z.array(
      row({ channel: NotificationChannel, gate: text, opensWhen: names, whenClosed: text, publicView: text }),
    ),
    retryRouting: z.array(
      row({ outcome: text, signal: text, status: text, route: text, metric: text, logEvent: text }),
    ),
    deadLetters: z.array(
      row({
        queue: text,
        deadLetterQueue: text,
        entersWhen: text,
        alarm: text,
        runbook: text,
        redrive: text,
      }),
    ),
    reviewPath: z.array(row({ step: z.int().min(1), action: text, api: text, roles: names, result: text })),
    metrics: z.array(row({ name: text, unit: text, stage: text, meaning: text })),
    logEvents: z.array(row({ event: text, stage: text, meaning: text })),
    alarms: z.array(row({ name: text, signal: text, runbook: text })),
    dataBoundaries,
  })
  .meta({
    id: 'NotificationDeliveryContractDemoRead',
    description:
      'The notification delivery contract: channel adapter profiles, the outbox event, worker queues, provider gates, retry and dead-letter routing, the operator review path, and the metric, log and alarm names.',
  });

// ---------------------------------------------------------------------------------------------
// Channel matrix (docs/api.md section 8)

export const BusinessNotificationChannelMatrixDemoRead = z
  .strictObject({
    ...demoBase,
    title: text,
    tenant: DemoTenant,
    summary,
    channels: z.array(
      row({
        channel: NotificationChannel,
        label: text,
        enabled: z.boolean(),
        gateState: z.enum(['open', 'closed', 'not required']),
        connection: text,
        queue: text,
        audience: text,
        usedFor: names,
      }),
    ),
    routingRules: z.array(
      row({
        rule: text,
        trigger: text,
        condition: text,
        channels: channelList,
        audience: text,
        approval: text,
      }),
    ),
    approvalGates: z.array(
      row({ gate: text, appliesTo: text, approverRole: text, reason: text, state: text }),
    ),
    deliveryDrafts: z.array(
      row({
        draftId: text,
        rule: text,
        channel: NotificationChannel,
        audience: text,
        template: text,
        policyCheck: text,
        outcome: text,
        idempotencyKey: text,
      }),
    ),
    dataBoundaries,
  })
  .meta({
    id: 'BusinessNotificationChannelMatrixDemoRead',
    description: 'Which business events reach which channel for the demo tenant, with drafts and gates.',
  });
