import type * as z from 'zod/mini';
import type { InboxListQuery, NotificationCategory } from '#shared/api/schemas/inbox';
import type { InboxItemRead, InboxSummaryRead } from '#shared/api/schemas/responses';
import type { Page, PageRequest } from '#shared/kernel/page';

/**
 * The in-app inbox (docs/api.md section 7.1): a member's own in-app notifications in a tenant.
 * The delivery worker writes an item when it delivers an in_app notification (DeliveryStore in
 * ../notifications/ports.ts); these ports read and mark them.
 */

export type InboxItem = z.output<typeof InboxItemRead>;
export type InboxSummary = z.output<typeof InboxSummaryRead>;
export type InboxCategory = z.output<typeof NotificationCategory>;
export type InboxFilter = Omit<z.output<typeof InboxListQuery>, 'limit' | 'cursor'>;

/** Whose inbox: the member's own, in one tenant. */
export interface InboxOwner {
  tenant_id: string;
  user_id: string;
}

export interface InboxStore {
  list(owner: InboxOwner, filter: InboxFilter, page: PageRequest): Promise<Page<InboxItem>>;
  /** The owner's unread items, by category (the store counts its unread index). */
  unreadByCategory(owner: InboxOwner): Promise<Partial<Record<InboxCategory, number>>>;
  /**
   * Sets `read_at` (null: unread again) unless it is already read (or unread); answers the item
   * as stored after, or undefined when the owner has no such item.
   */
  mark(owner: InboxOwner, notificationId: string, readAt: string | null): Promise<InboxItem | undefined>;
  /** Marks every unread item read (or those of one category); answers how many it changed. */
  readAll(owner: InboxOwner, category: InboxCategory | undefined, readAt: string): Promise<number>;
}
