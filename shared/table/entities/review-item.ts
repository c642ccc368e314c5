import { type AccessDoc, entity } from '../entity';

/**
 * A failed or gated job held for a person's decision (retry or discard): a notification, or a
 * workflow rule action (whose item also keeps, unread by the API, the planned action to retry).
 */
export const reviewItem = /* @__PURE__ */ entity('review_item', {
  table: { pk: 'TENANT#{tenant_id}#REVIEW', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#REVIEW#STATUS#{status}', sk: '{id}' },
});

/** The review item record the stores read back (ReviewItemRead's fields, in order). */
export const REVIEW_ITEM_FIELDS = [
  'id',
  'tenant_id',
  'notification_id',
  'channel',
  'reason',
  'detail',
  'status',
  'decision',
  'note',
  'decided_by',
  'decided_at',
  'created_at',
  'updated_at',
  'kind',
  'subject_id',
] as const;

export const access = {
  entity: reviewItem,
  labels: { id: 'review_item_id' },
  patterns: [
    { name: 'Get review item', sortKey: 'equals' },
    {
      name: 'List review items, newest first',
      notes: 'kind is a filter expression on whichever index answers',
    },
    { name: 'List review items by status', index: 'gsi1' },
  ],
} satisfies AccessDoc<typeof reviewItem>;
