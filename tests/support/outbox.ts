import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { OutboxEvent } from '#shared/domain/outbox';
import { newId } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';

/** A `notification.delivery.requested` outbox event for `channel`, as the API writes it. */
export const outboxEvent = (
  channel: string,
  options: { tenantId?: string; occurredAt?: string } = {},
): OutboxEvent => {
  const id = newId();
  const tenantId = options.tenantId ?? 't1';
  return {
    event_id: id,
    kind: EVENT_KINDS.notificationDeliveryRequested,
    tenant_id: tenantId,
    idempotency_key: `notification:${tenantId}:${id}`,
    occurred_at: options.occurredAt ?? new Date().toISOString(),
    payload: { notification_id: id, channel },
  };
};

/** The Lambda stream record of an INSERT of `item` (its NewImage is the item as written). */
export const insertRecord = (item: Record<string, unknown>, seq: number): DynamoDBRecord => ({
  eventID: String(seq),
  eventName: 'INSERT',
  eventSource: 'aws:dynamodb',
  dynamodb: {
    SequenceNumber: String(seq).padStart(21, '0'),
    Keys: marshall({ pk: item.pk, sk: item.sk }) as never,
    NewImage: marshall(item, { removeUndefinedValues: true }) as never,
  },
});
