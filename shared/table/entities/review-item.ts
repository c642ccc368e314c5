import { type AccessDoc, entity, record } from '../entity';

/**
 * A failed or gated job held for a person's decision (retry or discard): a notification, or a
 * workflow rule action (whose item also keeps, unread by the API, the planned action to retry).
 */
export const reviewItem = /* @__PURE__ */ entity('review_item', {
  table: { pk: 'TENANT#{tenant_id}#REVIEW', sk: '{id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#REVIEW#STATUS#{status}', sk: '{id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#REVIEW#KIND#{kind_key}', sk: '{id}' },
  gsi3: { pk: 'REVIEW#OPEN#{open_kind}', sk: '{tenant_id}#{id}' },
});

/**
 * The key values of a review item: its record, its kind as `kind_key` (items written before kinds
 * are notification items) for the kind index (gsi2), and while it is open its kind as `open_kind`,
 * so that only open items carry the sparse gsi3 keys the operator's metrics count (docs/api.md
 * section 9.6) and a tenant's open items of one kind are a key condition too. Deciding or
 * resolving an item rewrites it without them.
 */
export const reviewKeys = <R extends { status: string; kind?: string | null | undefined }>(review: R) => ({
  ...review,
  kind_key: review.kind ?? 'notification',
  open_kind: review.status === 'open' ? (review.kind ?? 'notification') : null,
});

/**
 * The item every store writes for a review item, of any kind: its record with the keys of
 * `reviewKeys`, so that no kind's open items are missing from the operator's count.
 */
export const storedReviewItem = <
  R extends { tenant_id: string; id: string; status: string; kind?: string | null | undefined },
>(
  review: R,
  extra: Record<string, unknown> = {},
) => reviewItem.item({ ...review, ...extra }, reviewKeys(review));

/** The review item record, in the order the API returns it (ReviewItemRead derives from it); a
 * `workflow_action` item also keeps, as `job`, the run its retry replays (or, on an item opened
 * for one action before items were per run, the planned action to retry). */
export const reviewItemRecord = /* @__PURE__ */ record(reviewItem, {
  id: 'string',
  tenant_id: 'string',
  /** Null on a workflow_action item. */
  notification_id: 'string|null',
  /** The channel of the notification (or of a failed notify action); null for a task action. */
  channel: 'enum|null',
  reason: 'enum',
  detail: 'string',
  status: 'enum',
  decision: 'enum|null',
  note: 'string|null',
  decided_by: 'string|null',
  decided_at: 'datetime|null',
  created_at: 'datetime',
  updated_at: 'datetime',
  kind: 'enum',
  /**
   * The job held: the notification id, the run's id of a failed workflow run
   * (`<rule_id>:<event_id>:<action_index>` on an item opened for one action before items were per
   * run), or `<connection_id>:<issue_code>` of an integration issue.
   */
  subject_id: 'string',
  job: { type: 'json?', hidden: true },
});

export const access = {
  entity: reviewItem,
  labels: { id: 'review_item_id', kind_key: 'kind' },
  patterns: [
    { name: 'Get review item', sortKey: 'equals' },
    { name: 'List review items, newest first' },
    { name: 'List review items by status', index: 'gsi1' },
    {
      name: 'List review items by kind',
      index: 'gsi2',
      notes: 'with status open: gsi3 below, the tenant as the sort key prefix; with another status, a filter',
    },
    {
      name: "Count open review items of every tenant by kind (operator metrics); a tenant's open items of one kind",
      index: 'gsi3',
      notes: "sparse: only open items carry gsi3pk/gsi3sk; one tenant's: begins_with(gsi3sk, '<tenant_id>#')",
    },
  ],
} satisfies AccessDoc<typeof reviewItem>;
