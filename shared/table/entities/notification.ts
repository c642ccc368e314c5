import { type AccessDoc, entity } from '../entity';

/** A notification, with its delivery attempts. */
export const notification = /* @__PURE__ */ entity('notification', {
  table: { pk: 'TENANT#{tenant_id}#NOTIFICATION', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#NOTIFICATION#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#NOTIFICATION#CHANNEL#{channel}', sk: '{id}' },
});

/** The notification record the stores read back (NotificationRead's fields, in order). */
export const NOTIFICATION_FIELDS = [
  'id',
  'tenant_id',
  'channel',
  'recipient',
  'subject',
  'body',
  'metadata_json',
  'status',
  'policy_reasons',
  'idempotency_key',
  'attempts',
  'review_item_id',
  'created_by',
  'created_at',
  'updated_at',
  'queued_at',
  'delivered_at',
] as const;

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
