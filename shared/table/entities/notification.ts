import { type AccessDoc, entity, record } from '../entity';

/** A notification, with its delivery attempts. */
export const notification = /* @__PURE__ */ entity('notification', {
  table: { pk: 'TENANT#{tenant_id}#NOTIFICATION', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#NOTIFICATION#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#NOTIFICATION#CHANNEL#{channel}', sk: '{id}' },
});

/** The notification record, in the order the API returns it (NotificationRead derives from it). */
export const notificationRecord = /* @__PURE__ */ record(notification, {
  id: 'string',
  tenant_id: 'string',
  channel: 'enum',
  recipient: 'string',
  recipient_user_id: 'string|null',
  category: 'enum',
  priority: 'enum',
  subject: 'string|null',
  body: 'string',
  metadata_json: 'string',
  status: 'enum',
  policy_reasons: 'string[]',
  idempotency_key: 'string',
  attempts: 'json',
  review_item_id: 'string|null',
  created_by: 'string|null',
  created_at: 'datetime',
  updated_at: 'datetime',
  queued_at: 'datetime|null',
  delivered_at: 'datetime|null',
  /** `scheduled` (quiet hours): when it goes on. */
  deliver_after: 'datetime|null?',
  dedupe_key: 'string|null?',
  /** `suppressed` as a duplicate: the notification it repeats. */
  duplicate_of: 'string|null?',
  digest_key: 'string|null?',
  /** `digesting` / `digested`: the digest message (a notification) it goes in. */
  digest_id: 'string|null?',
});

export const access = {
  entity: notification,
  labels: { id: 'notification_id' },
  patterns: [
    { name: 'Get notification (with its attempts)', sortKey: 'equals' },
    {
      name: 'List notifications, newest first',
      notes: 'recipient is a filter expression on whichever index answers',
    },
    {
      name: 'List notifications by status',
      index: 'gsi1',
      notes: 'channel, when also given, is a filter',
    },
    { name: 'List notifications by channel', index: 'gsi2' },
  ],
} satisfies AccessDoc<typeof notification>;
