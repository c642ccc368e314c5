import { type AccessDoc, entity, record } from '../entity';

/**
 * One event for one webhook endpoint (docs/api.md, "Event subscriptions") with its attempts: the
 * delivery log. Its id is the `webhook-id` of every attempt. Kept 30 days (`ttl`). Listed per
 * endpoint newest first (gsi1) and per endpoint and status (gsi2); the ids are UUIDv7, so the
 * sort keys order by time: a fanned-out message's by its change's time, which may precede the
 * message's creation (so `created_at`, not the id, says when it was created).
 */
export const webhookMessage = /* @__PURE__ */ entity('webhook_message', {
  table: { pk: 'TENANT#{tenant_id}#WEBHOOK_MESSAGE', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#WEBHOOK_ENDPOINT#{endpoint_id}#MESSAGE', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#WEBHOOK_ENDPOINT#{endpoint_id}#MESSAGE#{status}', sk: '{id}' },
});

/** The message record, in the order the API returns it (WebhookMessageRead derives from it). */
export const webhookMessageRecord = /* @__PURE__ */ record(webhookMessage, {
  id: 'string',
  endpoint_id: 'string',
  event_type: 'string',
  status: 'enum',
  /** Each attempt's time, HTTP status (null when no answer), duration and error code; never a body. */
  attempts: 'json',
  next_attempt_at: 'datetime|null',
  created_at: 'datetime',
  tenant_id: { type: 'string', hidden: true },
  /** The body every attempt sends (`{type, timestamp, data}`), as JSON text. */
  body: { type: 'string', hidden: true },
  /** Epoch seconds: DynamoDB deletes the message 30 days after its creation. */
  ttl: { type: 'int', hidden: true },
  /** How many attempts it had when it was last queued (created, resent, recovered): the schedule counts from there. */
  round_start: { type: 'int', hidden: true },
  /** An attempt in flight until then: a redelivered queue message does not send it again. */
  lease_until: { type: 'datetime|null', hidden: true },
});

export const access = {
  entity: webhookMessage,
  labels: { id: 'message_id' },
  patterns: [
    { name: 'Get webhook message', sortKey: 'equals' },
    { name: "List an endpoint's messages, newest first", index: 'gsi1' },
    {
      name: "List an endpoint's messages by status (the status filter; recover reads the failed ones)",
      index: 'gsi2',
    },
  ],
} satisfies AccessDoc<typeof webhookMessage>;
