import { type AccessDoc, entity } from '../entity';

/**
 * An in-app notification delivered to one member's inbox: `tenant_id`, `user_id`,
 * `notification_id`, `subject`, `body`, `created_at` and `read_at`.
 */
export const inboxItem = /* @__PURE__ */ entity('inbox_item', {
  table: { pk: 'TENANT#{tenant_id}#INBOX#{user_id}', sk: '{notification_id}' },
});

export const access = {
  entity: inboxItem,
  patterns: [{ name: "A member's in-app inbox, newest first" }],
} satisfies AccessDoc<typeof inboxItem>;
