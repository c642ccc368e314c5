import {
  ChangeMessageVisibilityCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { OutboxEvent } from '#shared/domain/outbox';
import { queueKeyFor } from '#shared/kernel/events';
import { QUEUES, type QueueName } from '#shared/kernel/names';
import type { QueueConfig } from '#functions/config';
import { clientOptions, made } from './client-options';

/**
 * The SQS edge. The same code runs in the cloud and on the local runtime, where the client
 * settings point at the in-process queues' loopback endpoint (local/queues.ts), so the real
 * client, its serialisation and its checksums are exercised.
 */

export const sqsClient = (queues: QueueConfig) => made(new SQSClient(clientOptions(queues.client)));

export type QueueUrls = Pick<QueueConfig, 'internal' | 'external'>;

export const urlFor = (urls: QueueUrls, queue: QueueName): string =>
  queue === QUEUES.external ? urls.external : urls.internal;

/**
 * The fair-queue group of an event: its tenant. SQS takes 1 to 128 characters; every outbox event
 * names its tenant, and an empty one (never written) would still form one group of its own.
 */
export const messageGroupOf = (e: Pick<OutboxEvent, 'tenant_id'>): string => e.tenant_id || 'none';

/** SendMessageBatch takes at most 10 entries. */
export const SQS_BATCH = 10;

/**
 * Publishes events to their queues, 10 per SendMessageBatch call, and answers the events that
 * were not accepted, by event id, each with why (an Error whose `cause` is the failed entry or
 * the error the whole call threw). Nothing is retried here: the caller logs the cause and fails
 * exactly those records, so the stream (or the next sweep) tries them again.
 */
export async function publishEvents(
  client: SQSClient,
  urls: QueueUrls,
  events: OutboxEvent[],
): Promise<Map<string, Error>> {
  const failed = new Map<string, Error>();
  const byQueue = new Map<string, OutboxEvent[]>();
  for (const e of events) {
    // Routed by the event manifest's row of the kind (shared/kernel/events.ts).
    const url = urls[queueKeyFor(e.kind, e.payload)];
    byQueue.set(url, [...(byQueue.get(url) ?? []), e]);
  }
  const calls: Promise<void>[] = [];
  for (const [url, list] of byQueue) {
    for (let i = 0; i < list.length; i += SQS_BATCH) {
      const chunk = list.slice(i, i + SQS_BATCH);
      const entries: SendMessageBatchRequestEntry[] = chunk.map((e, j) => ({
        Id: String(j),
        MessageBody: JSON.stringify(e),
        // Both queues are SQS fair queues (standard queues with a message group per tenant): SQS
        // keeps a quiet tenant's dwell time steady while another tenant's burst waits its turn.
        MessageGroupId: messageGroupOf(e),
        MessageAttributes: {
          kind: { DataType: 'String', StringValue: e.kind },
          tenant_id: { DataType: 'String', StringValue: e.tenant_id },
        },
      }));
      calls.push(
        (async () => {
          try {
            const out = await client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
            for (const f of out.Failed ?? []) {
              const e = chunk[Number(f.Id)];
              if (e)
                failed.set(
                  e.event_id,
                  new Error(`SendMessageBatch entry failed: ${f.Code ?? 'unknown'}`, { cause: f }),
                );
            }
          } catch (cause) {
            const err = new Error('SendMessageBatch failed', { cause });
            for (const e of chunk) failed.set(e.event_id, err);
          }
        })(),
      );
    }
  }
  await Promise.all(calls);
  return failed;
}

/** Per-message backoff: the message becomes visible again after `seconds` (SQS caps at 12 h). */
export async function delayRetry(
  client: SQSClient,
  queueUrl: string,
  receiptHandle: string,
  seconds: number,
) {
  await client.send(
    new ChangeMessageVisibilityCommand({
      QueueUrl: queueUrl,
      ReceiptHandle: receiptHandle,
      VisibilityTimeout: Math.min(43_200, Math.max(0, Math.round(seconds))),
    }),
  );
}
