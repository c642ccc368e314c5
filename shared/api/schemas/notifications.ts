import * as z from 'zod/mini';
import { FreeForm, named, pageQuery, text } from './common';

export const NOTIFICATION_CHANNELS = ['in_app', 'telegram', 'email', 'sms', 'webhook'] as const;
export const NotificationChannel = named(z.enum(NOTIFICATION_CHANNELS), 'NotificationChannel');

/** docs/api.md section 7.1: what a notification is about (the member's inbox groups by it). */
export const NOTIFICATION_CATEGORIES = [
  'exceptions',
  'tasks',
  'documents',
  'integrations',
  'accounting',
  'security',
  'general',
] as const;
export const NotificationCategory = named(z.enum(NOTIFICATION_CATEGORIES), 'NotificationCategory');

export const NOTIFICATION_PRIORITIES = ['normal', 'critical'] as const;
export const NotificationPriority = z.enum(NOTIFICATION_PRIORITIES);

export const NOTIFICATION_STATUSES = [
  'blocked',
  'queued',
  'delivering',
  'delivered',
  'retrying',
  'gated',
  'dead_lettered',
  'discarded',
  'suppressed',
  'scheduled',
  'digesting',
  'digested',
] as const;
export const NotificationStatus = z.enum(NOTIFICATION_STATUSES);

/**
 * Whom a notification goes to (docs/api.md sections 7 and 7.2): an address for the channel, or a
 * member whose address comes from their contacts. Exactly one of the two; the error names the
 * field to drop (both) or to give (neither).
 */
type Recipients = { recipient?: unknown; recipient_user_id?: unknown };
export const recipientChecks = () => [
  z.refine<Recipients>((n) => n.recipient !== undefined || n.recipient_user_id !== undefined, {
    path: ['recipient'],
    message: 'give recipient (an address) or recipient_user_id (a member)',
    params: { code: 'recipient_required' },
  }),
  z.refine<Recipients>((n) => n.recipient === undefined || n.recipient_user_id === undefined, {
    path: ['recipient_user_id'],
    message: 'give only one of recipient and recipient_user_id',
    params: { code: 'one_recipient' },
  }),
];

/** docs/api.md section 7.4: a deduplication or digest window, 1 minute to 1 day. */
export const WINDOW_MINUTES_MAX = 1440;
const windowMinutes = () => z.number().check(z.int(), z.minimum(1), z.maximum(WINDOW_MINUTES_MAX));

/** docs/api.md section 7.4: notifications with one digest key, channel and recipient go as one message. */
export const DigestRequest = named(
  z.strictObject({ key: text(1, 128), window_minutes: windowMinutes() }),
  'DigestRequest',
);

/** docs/api.md section 7. Per-channel limits are the policy check's job, not the schema's. */
export const NotificationCreate = named(
  z
    .strictObject({
      channel: NotificationChannel,
      recipient: z.optional(text(1, 2048)),
      recipient_user_id: z.optional(text(1, 64)),
      category: z._default(NotificationCategory, 'general'),
      priority: z._default(NotificationPriority, 'normal'),
      subject: z.optional(z.nullable(text(1, 255, 'name'))),
      body: text(1, 65536, 'free'),
      metadata: z.optional(FreeForm),
      dedupe_key: z.optional(text(1, 128)),
      dedupe_window_minutes: z.optional(windowMinutes()),
      digest: z.optional(DigestRequest),
    })
    .check(...recipientChecks()),
  'NotificationCreate',
);

export const NotificationListQuery = z.strictObject({
  status: z.optional(NotificationStatus),
  channel: z.optional(NotificationChannel),
  recipient: z.optional(text(1, 2048)),
  ...pageQuery,
});

export const NotificationPath = z.object({ tenant_id: text(1, 64), notification_id: text(1, 64) });

export const REVIEW_STATUSES = ['open', 'retried', 'discarded', 'resolved'] as const;
export const ReviewItemStatus = z.enum(REVIEW_STATUSES);

/** What a review item holds for a person's decision (docs/api.md sections 7, 9.1, 9.2 and 9.3). */
export const REVIEW_KINDS = [
  'notification',
  'workflow_action',
  'accounting_export',
  'integration_issue',
  'webhook_endpoint',
] as const;
export const ReviewItemKind = z.enum(REVIEW_KINDS);

export const ReviewItemListQuery = z.strictObject({
  status: z.optional(ReviewItemStatus),
  kind: z.optional(ReviewItemKind),
  ...pageQuery,
});

export const ReviewItemPath = z.object({ tenant_id: text(1, 64), review_item_id: text(1, 64) });

export const ReviewDecision = named(
  z.strictObject({
    action: z.enum(['retry', 'discard']),
    note: z.optional(z.nullable(text(2, 255, 'free'))),
  }),
  'ReviewDecision',
);
