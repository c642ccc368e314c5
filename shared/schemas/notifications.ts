import * as z from 'zod';
import { NOTIFICATION_CHANNELS, NotificationChannel } from '../demo/schemas';
import { DateTime, FreeForm, listOf, pageQuery } from './common';

export { NOTIFICATION_CHANNELS, NotificationChannel };

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
export const NotificationCreate = z
  .strictObject({
    channel: NotificationChannel,
    recipient: z.string().min(1).max(2048),
    subject: z.string().min(1).max(255).nullable().optional(),
    body: z.string().min(1).max(65536),
    metadata: FreeForm.optional(),
  })
  .meta({ id: 'NotificationCreate' });

export const NotificationAttemptRead = z
  .object({
    attempt: z.number().int(),
    at: DateTime,
    outcome: z.enum(['delivered', 'transient_failure', 'permanent_failure', 'gated']),
    /** A public-safe reason code (`http_503`, `timeout`, `gate_closed`…), never a provider payload. */
    reason: z.string().nullable(),
    latency_ms: z.number().nullable(),
  })
  .meta({ id: 'NotificationAttemptRead' });

export const NotificationRead = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    channel: NotificationChannel,
    recipient: z.string(),
    subject: z.string().nullable(),
    body: z.string(),
    metadata_json: z.string(),
    status: NotificationStatus,
    policy_reasons: z.array(z.string()),
    idempotency_key: z.string(),
    attempts: z.array(NotificationAttemptRead),
    review_item_id: z.string().nullable(),
    created_by: z.string().nullable(),
    created_at: DateTime,
    updated_at: DateTime,
    queued_at: DateTime.nullable(),
    delivered_at: DateTime.nullable(),
  })
  .meta({ id: 'NotificationRead' });

export const NotificationList = listOf(NotificationRead).meta({ id: 'NotificationList' });

export const NotificationListQuery = z.strictObject({
  status: NotificationStatus.optional(),
  channel: NotificationChannel.optional(),
  recipient: z.string().min(1).max(2048).optional(),
  ...pageQuery,
});

export const NotificationPath = z.object({
  tenant_id: z.string().min(1).max(64),
  notification_id: z.string().min(1).max(64),
});

export const REVIEW_STATUSES = ['open', 'retried', 'discarded', 'resolved'] as const;
export const ReviewItemStatus = z.enum(REVIEW_STATUSES);

export const ReviewItemRead = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    notification_id: z.string(),
    channel: NotificationChannel,
    reason: z.enum(['gated', 'permanent_failure', 'dead_lettered']),
    detail: z.string(),
    status: ReviewItemStatus,
    decision: z.enum(['retry', 'discard']).nullable(),
    note: z.string().nullable(),
    decided_by: z.string().nullable(),
    decided_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .meta({ id: 'ReviewItemRead' });

export const ReviewItemList = listOf(ReviewItemRead).meta({ id: 'ReviewItemList' });

export const ReviewItemListQuery = z.strictObject({
  status: ReviewItemStatus.optional(),
  ...pageQuery,
});

export const ReviewItemPath = z.object({
  tenant_id: z.string().min(1).max(64),
  review_item_id: z.string().min(1).max(64),
});

export const ReviewDecision = z
  .strictObject({
    action: z.enum(['retry', 'discard']),
    note: z.string().min(2).max(255).nullable().optional(),
  })
  .meta({ id: 'ReviewDecision' });
