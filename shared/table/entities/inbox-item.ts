import { type AccessDoc, entity, record } from '../entity';

/**
 * An in-app notification delivered to one member's inbox (docs/api.md section 7.1): `tenant_id`,
 * `user_id`, `notification_id`, `subject`, `body`, `category`, `priority`, `created_at` and
 * `read_at`. The partition is the member's own, so no other member's item can be read through it.
 * While unread, the item also carries the keys of two sparse indexes, the unread items (gsi1) and
 * the unread items of its category (gsi3); its category's index (gsi2) it carries always. Reading
 * an item removes the sparse keys, so "unread" is a key condition however much was read before.
 */
export const inboxItem = /* @__PURE__ */ entity('inbox_item', {
  table: { pk: 'TENANT#{tenant_id}#INBOX#{user_id}', sk: '{notification_id}' },
  gsi1: { pk: 'TENANT#{tenant_id}#INBOX#{user_id}#UNREAD', sk: '{unread_id}' },
  gsi2: { pk: 'TENANT#{tenant_id}#INBOX#{user_id}#CATEGORY#{category}', sk: '{notification_id}' },
  gsi3: { pk: 'TENANT#{tenant_id}#INBOX#{user_id}#UNREAD#{unread_category}', sk: '{notification_id}' },
});

/**
 * The inbox item record, in the order the API returns it (InboxItemRead derives from it). Whose
 * inbox and the read state the "read" filter tests are kept beside it, never returned.
 */
export const inboxItemRecord = /* @__PURE__ */ record(inboxItem, {
  tenant_id: { type: 'string', hidden: true },
  user_id: { type: 'string', hidden: true },
  notification_id: 'string',
  subject: 'string|null',
  body: 'string',
  category: 'enum',
  priority: 'enum',
  created_at: 'datetime',
  /** Null while unread. */
  read_at: 'datetime|null',
  read_state: { type: 'enum', hidden: true },
});

/**
 * The item every store writes for an inbox item: its record, with the sparse unread keys while
 * `read_at` is null.
 */
export const storedInboxItem = <
  R extends {
    tenant_id: string;
    user_id: string;
    notification_id: string;
    category: string;
    read_at: string | null;
  },
>(
  item: R,
) =>
  inboxItem.item(item, {
    ...item,
    unread_id: item.read_at === null ? item.notification_id : null,
    unread_category: item.read_at === null ? item.category : null,
  });

export const access = {
  entity: inboxItem,
  labels: { unread_id: 'notification_id', unread_category: 'category' },
  patterns: [
    { name: "A member's in-app inbox, newest first" },
    {
      name: "A member's unread in-app notifications, newest first (and their count)",
      index: 'gsi1',
      notes: 'sparse: only unread items carry gsi1 keys',
    },
    { name: "A member's in-app notifications of one category, newest first", index: 'gsi2' },
    {
      name: "A member's unread in-app notifications of one category, newest first",
      index: 'gsi3',
      notes: 'sparse: only unread items carry gsi3 keys',
    },
  ],
} satisfies AccessDoc<typeof inboxItem>;
