import { marshall } from '@aws-sdk/util-dynamodb';
import { dbFor } from '#functions/adapters/dynamo';
import { transact } from '#functions/adapters/transact';
import { outboxPut } from '#functions/adapters/outbox';
import { tableConfig } from '#functions/config';
import type { OutboxEvent } from '#shared/domain/outbox';
import { workflowEventRecorded } from '#shared/domain/workflows/events';
import { EVENT_KINDS } from '#shared/kernel/names';
import { systemClock } from '#shared/kernel/ids';
import { outbox } from '#shared/table/entities/outbox';
import type { Fixture } from './scenario';

/**
 * The cold event of the relay and the queue workers (their cold init at most 1.1x the SDK floor
 * for the relay, 1.25x for a worker: bench/lib/settings.ts), each doing its real work once, so the
 * floor replays comparable wire calls:
 * - relay: a stream batch with one INSERT of an outbox event that is in the table, so it sends
 *   it to the internal queue and marks it relayed (as every relay invocation does);
 * - worker-internal: an exception's `workflow.event_recorded`, which reads the tenant's rules and
 *   webhook endpoints (the seed has none of either, so no run writes and every run is the same);
 * - worker-external: a webhook delivery of a message that is gone: one read, then done.
 * The bench stops if a worker reports the record failed.
 */
export async function pipelineColdEvent(name: string, fx: Fixture, floorTable: string): Promise<unknown> {
  if (name === 'relay') {
    const e = workflowEventRecorded(systemClock, 'exception.created', {
      tenant_id: fx.tenantId,
      id: fx.exceptionId,
    });
    const db = dbFor(tableConfig());
    // In the floor's copy too: the floor repeats the relay's conditional update of the item.
    for (const tableName of [db.tableName, floorTable]) {
      const written = await transact({ ...db, tableName }, [outboxPut(e)]);
      if (!written.ok) throw new Error('cold relay event: outbox item not written');
    }
    db.doc.destroy();
    const { payload, ...envelope } = e;
    const item = outbox.item({ ...envelope, payload }, { ...e, shard: 0 });
    return {
      Records: [
        {
          eventID: '1',
          eventName: 'INSERT',
          eventSource: 'aws:dynamodb',
          dynamodb: {
            SequenceNumber: '1'.padStart(21, '0'),
            Keys: marshall({ pk: item.pk, sk: item.sk }),
            NewImage: marshall(item, { removeUndefinedValues: true }),
          },
        },
      ],
    };
  }
  const body: OutboxEvent | undefined =
    name === 'worker-internal'
      ? workflowEventRecorded(systemClock, 'exception.created', {
          tenant_id: fx.tenantId,
          id: fx.exceptionId,
        })
      : name === 'worker-external'
        ? {
            event_id: 'cold-webhook',
            kind: EVENT_KINDS.webhookDeliveryRequested,
            tenant_id: fx.tenantId,
            idempotency_key: `webhook:${fx.tenantId}:cold`,
            occurred_at: systemClock.now().toISOString(),
            payload: { message_id: 'cold-gone', endpoint_id: 'cold-gone' },
          }
        : undefined;
  if (!body) return undefined;
  return {
    Records: [
      {
        messageId: 'cold-1',
        receiptHandle: 'cold-1',
        body: JSON.stringify(body),
        attributes: { ApproximateReceiveCount: '1' },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${name}`,
        awsRegion: 'us-east-1',
      },
    ],
  };
}

/** Whether a relay or worker invocation reported a record failed (SQS partial batch response). */
export const failedRecords = (result: unknown): number =>
  ((result as { batchItemFailures?: unknown[] } | undefined)?.batchItemFailures ?? []).length;
