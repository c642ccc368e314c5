import type * as z from 'zod/mini';
import type { Page, PageRequest } from '#shared/kernel/page';
import type { WebhookEndpointRead, WebhookMessageRead } from '#shared/api/schemas/webhook-responses';
import type { WEBHOOK_MESSAGE_STATUSES } from '#shared/api/schemas/webhooks';
import type { AuditEvent } from '#shared/domain/audit';
import type { ReviewItem } from '#shared/domain/notifications/ports';
import type { OutboxEvent } from '#shared/domain/outbox';
import type { Timer } from '#shared/domain/timers/ports';

/** The ports of event subscriptions (docs/api.md, "Event subscriptions") and the records they carry. */

export type WebhookEndpoint = z.output<typeof WebhookEndpointRead>;
export type WebhookMessage = z.output<typeof WebhookMessageRead>;
export type WebhookAttempt = WebhookMessage['attempts'][number];
export type WebhookMessageStatus = (typeof WEBHOOK_MESSAGE_STATUSES)[number];

/** An endpoint as stored: its record and what only the service reads (the entity's hidden fields). */
export interface StoredEndpoint extends WebhookEndpoint {
  /** The version of the secret that signs now; the secret store keeps it under `<id>#v<n>`. */
  secret_version: number;
  /** Until then the version before also signs (24 h after a rotation). */
  previous_secret_until: string | null;
  /** When the current run of failed attempts began; null after a delivery. */
  failing_since: string | null;
}

export interface StoredMessage extends WebhookMessage {
  tenant_id: string;
  /** `{type, timestamp, data}` as JSON text, the same bytes on every attempt. */
  body: string;
  ttl: number;
  /** The attempts' count when it was last queued: the retry schedule counts from there. */
  round_start: number;
  lease_until: string | null;
}

/** `limit`: the tenant holds its maximum of endpoints already. */
export type EndpointCreateResult = 'written' | 'limit';

export interface WebhookEndpointStore {
  /** The endpoint, its audit event and the tenant's endpoint count (at most `max`) in one transaction. */
  create(endpoint: StoredEndpoint, audit: AuditEvent, max: number): Promise<EndpointCreateResult>;
  get(tenantId: string, id: string): Promise<StoredEndpoint | undefined>;
  list(tenantId: string, page: PageRequest): Promise<Page<StoredEndpoint>>;
  /** Every endpoint of the tenant (at most 20): the fan-out picks the subscribers. */
  all(tenantId: string): Promise<StoredEndpoint[]>;
  /**
   * Writes `next` if the stored one was not changed since `expectedUpdatedAt`, with its audit
   * event and, when the change disables it, the review item it opens. False when it changed.
   */
  update(
    next: StoredEndpoint,
    expectedUpdatedAt: string,
    audit: AuditEvent | null,
    review?: ReviewItem,
  ): Promise<boolean>;
  /** Deletes it with its audit event and frees its place in the count; false when there was none. */
  remove(tenantId: string, id: string, audit: AuditEvent): Promise<boolean>;
  /**
   * Sets `failing_since` of an active endpoint that has none (an attempt that has not answered in
   * time), leaving `updated_at` as it is; false when it was set already, disabled or gone.
   */
  markFailing(tenantId: string, id: string, since: string): Promise<boolean>;
}

/**
 * Where the endpoints' signing secrets live: the storage of connection secrets, written by the
 * API and read only by the delivering worker (the API function has no read permission).
 */
export interface WebhookSecrets {
  put(tenantId: string, endpointId: string, version: number, secret: string): Promise<void>;
  read(tenantId: string, endpointId: string, version: number): Promise<string | undefined>;
  delete(tenantId: string, endpointId: string, version: number): Promise<void>;
}

/** A message and the outbox event that has it sent, written together. */
export interface QueuedMessage {
  message: StoredMessage;
  event: OutboxEvent;
}

export interface WebhookMessageStore {
  get(tenantId: string, id: string): Promise<StoredMessage | undefined>;
  list(
    tenantId: string,
    endpointId: string,
    status: WebhookMessageStatus | undefined,
    page: PageRequest,
  ): Promise<Page<StoredMessage>>;
  /** The endpoint's failed messages created at or after `since`, oldest first. */
  failedSince(tenantId: string, endpointId: string, since: string): Promise<StoredMessage[]>;
  /**
   * The fan-out of one change: every message with its outbox event in one transaction, each on
   * the condition that it does not exist. `duplicate`: they were written before (a redelivery).
   */
  createAll(queued: QueuedMessage[], audit?: AuditEvent): Promise<'written' | 'duplicate'>;
  /**
   * Puts a message back to `pending` with a new outbox event (resend, recover, a retry timer),
   * on the condition that it is still as read (`updated` by its attempts' count and status).
   */
  requeue(
    queued: QueuedMessage,
    expected: Pick<StoredMessage, 'status' | 'attempts'>,
    audit?: AuditEvent,
  ): Promise<boolean>;
  /**
   * Claims the next attempt: the message is `pending` or `retrying`, due, its attempts still
   * `attempts` long and no other claim alive. False when it is not (a redelivered attempt). With
   * `probe`, the same transaction takes the endpoint's one probe slot until `probe.until`, free
   * when none is set or it ran out: `busy` when another attempt holds it (nothing claimed).
   */
  claim(
    message: StoredMessage,
    now: string,
    leaseUntil: string,
    probe?: { endpointId: string; until: string },
  ): Promise<boolean | 'busy'>;
  /**
   * The attempt's outcome: the message (on the condition that its attempts are still as claimed),
   * the retry timer when the wait leaves the queue, and the endpoint's change when the outcome
   * changes it (a delivery ends its run of failures, a 410 or 5 days of failures disable it).
   */
  settle(settled: Settlement): Promise<boolean>;
}

/** A decision on a `webhook_endpoint` review item (functions/adapters/webhook-endpoint-review.ts). */
export interface EndpointReviewStore {
  /**
   * The decided item (while it is still open), its audit event and, on retry, the endpoint
   * re-enabled (while it exists), in one transaction. False when either condition fails.
   */
  decide(
    review: ReviewItem,
    audit: AuditEvent,
    reenable: { tenant_id: string; id: string; at: string } | null,
  ): Promise<boolean>;
}

export interface EndpointChange {
  next: StoredEndpoint;
  expectedUpdatedAt: string;
  audit: AuditEvent | null;
  review?: ReviewItem;
}

export interface Settlement {
  message: StoredMessage;
  claimedAttempts: number;
  /**
   * The message as the attempt claimed it: when given, the outcome is written only if no resend
   * or recover requeued it meanwhile (its status, due time and round are still these).
   */
  unchanged?: Pick<StoredMessage, 'status' | 'next_attempt_at' | 'round_start'>;
  timer: Timer | null;
  endpoint: EndpointChange | null;
}

/** One attempt as the sender saw it: the HTTP status (null when no answer) and a Retry-After in seconds. */
export interface SendOutcome {
  status_code: number | null;
  error_code: string | null;
  duration_ms: number;
  retry_after_s: number | null;
}

/** Told once when an attempt has had no answer for `afterMs` (it goes on until its deadline). */
export interface SlowSignal {
  afterMs: number;
  onSlow(): void;
}

export interface WebhookSender {
  /** Signs the body with every secret given (Standard Webhooks, `v1,` each) and POSTs it once. */
  send(
    url: string,
    message: { id: string; body: string; secrets: string[] },
    slow?: SlowSignal,
  ): Promise<SendOutcome>;
}
