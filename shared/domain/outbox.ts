/**
 * The outbox envelope (docs/api.md section 7): what a state change writes for a worker, in the
 * same transaction as the change, and what the relay and the sweeper put on a queue unchanged.
 */

export interface OutboxEvent {
  event_id: string;
  kind: string;
  tenant_id: string;
  idempotency_key: string;
  occurred_at: string;
  payload: Record<string, unknown>;
}

/** The fields every outbox event carries, in the order docs/api.md lists them. */
export const OUTBOX_EVENT_FIELDS = [
  'event_id',
  'kind',
  'tenant_id',
  'idempotency_key',
  'occurred_at',
  'payload',
] as const satisfies readonly (keyof OutboxEvent)[];
