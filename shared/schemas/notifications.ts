import * as z from 'zod/mini';
import { DateTime, FreeForm, listOf, named, pageQuery, text } from './common';

export const NOTIFICATION_CHANNELS = ['in_app', 'telegram', 'email', 'sms', 'webhook'] as const;
export const NotificationChannel = named(z.enum(NOTIFICATION_CHANNELS), 'NotificationChannel');

export const NOTIFICATION_STATUSES = [
  'blocked',
  'queued',
  'delivering',
  'delivered',
  'retrying',
  'gated',
  'dead_lettered',
  'discarded',
] as const;
export const NotificationStatus = z.enum(NOTIFICATION_STATUSES);

/** CONTRACT.md section 7. Per-channel limits are the policy check's job, not the schema's. */
export const NotificationCreate = named(
  z.strictObject({
    channel: NotificationChannel,
    recipient: text(1, 2048),
    subject: z.optional(z.nullable(text(1, 255))),
    body: text(1, 65536),
    metadata: z.optional(FreeForm),
  }),
  'NotificationCreate',
);

export const NotificationAttemptRead = named(
  z.object({
    attempt: z.int(),
    at: DateTime,
    outcome: z.enum(['delivered', 'transient_failure', 'permanent_failure', 'gated']),
    /** A public-safe reason code (`http_503`, `timeout`, `gate_closed`…), never a provider payload. */
    reason: z.nullable(z.string()),
    latency_ms: z.nullable(z.number()),
  }),
  'NotificationAttemptRead',
);

export const NotificationRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    channel: NotificationChannel,
    recipient: z.string(),
    subject: z.nullable(z.string()),
    body: z.string(),
    metadata_json: z.string(),
    status: NotificationStatus,
    policy_reasons: z.array(z.string()),
    idempotency_key: z.string(),
    attempts: z.array(NotificationAttemptRead),
    review_item_id: z.nullable(z.string()),
    created_by: z.nullable(z.string()),
    created_at: DateTime,
    updated_at: DateTime,
    queued_at: z.nullable(DateTime),
    delivered_at: z.nullable(DateTime),
  }),
  'NotificationRead',
);

export const NotificationList = named(listOf(NotificationRead), 'NotificationList');

export const NotificationListQuery = z.strictObject({
  status: z.optional(NotificationStatus),
  channel: z.optional(NotificationChannel),
  recipient: z.optional(text(1, 2048)),
  ...pageQuery,
});

export const NotificationPath = z.object({ tenant_id: text(1, 64), notification_id: text(1, 64) });

export const REVIEW_STATUSES = ['open', 'retried', 'discarded', 'resolved'] as const;
export const ReviewItemStatus = z.enum(REVIEW_STATUSES);

export const ReviewItemRead = named(
  z.object({
    id: z.string(),
    tenant_id: z.string(),
    notification_id: z.string(),
    channel: NotificationChannel,
    reason: z.enum(['gated', 'permanent_failure', 'dead_lettered']),
    detail: z.string(),
    status: ReviewItemStatus,
    decision: z.nullable(z.enum(['retry', 'discard'])),
    note: z.nullable(z.string()),
    decided_by: z.nullable(z.string()),
    decided_at: z.nullable(DateTime),
    created_at: DateTime,
    updated_at: DateTime,
  }),
  'ReviewItemRead',
);

export const ReviewItemList = named(listOf(ReviewItemRead), 'ReviewItemList');

export const ReviewItemListQuery = z.strictObject({ status: z.optional(ReviewItemStatus), ...pageQuery });

export const ReviewItemPath = z.object({ tenant_id: text(1, 64), review_item_id: text(1, 64) });

export const ReviewDecision = named(
  z.strictObject({
    action: z.enum(['retry', 'discard']),
    note: z.optional(z.nullable(text(2, 255))),
  }),
  'ReviewDecision',
);
