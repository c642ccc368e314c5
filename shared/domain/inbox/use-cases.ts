import { NOTIFICATION_CATEGORIES } from '#shared/api/schemas/inbox';
import { NotFoundError } from '#shared/kernel/errors';
import type { Clock } from '#shared/kernel/ids';
import type { PageRequest } from '#shared/kernel/page';
import type { Principal } from '#shared/kernel/policy';
import type { InboxCategory, InboxFilter, InboxItem, InboxStore, InboxSummary } from './ports';

/**
 * The caller's own inbox in a tenant (docs/api.md section 7.1). The owner is always the caller:
 * no use case takes a user id, so another member's item is not found, never forbidden. Reading
 * is not audited (it changes nothing anyone else sees).
 */

export interface InboxDeps {
  inbox: InboxStore;
  clock: Clock;
}

const ownerOf = (caller: Principal, tenantId: string) => ({ tenant_id: tenantId, user_id: caller.user_id });

export const listInbox = (
  deps: InboxDeps,
  caller: Principal,
  tenantId: string,
  filter: InboxFilter,
  page: PageRequest,
) => deps.inbox.list(ownerOf(caller, tenantId), filter, page);

export async function inboxSummary(
  deps: InboxDeps,
  caller: Principal,
  tenantId: string,
): Promise<InboxSummary> {
  const counted = await deps.inbox.unreadByCategory(ownerOf(caller, tenantId));
  const byCategory = Object.fromEntries(NOTIFICATION_CATEGORIES.map((c) => [c, counted[c] ?? 0])) as Record<
    InboxCategory,
    number
  >;
  return { unread: Object.values(byCategory).reduce((a, b) => a + b, 0), unread_by_category: byCategory };
}

async function mark(
  deps: InboxDeps,
  caller: Principal,
  tenantId: string,
  notificationId: string,
  read: boolean,
): Promise<InboxItem> {
  const readAt = read ? deps.clock.now().toISOString() : null;
  const item = await deps.inbox.mark(ownerOf(caller, tenantId), notificationId, readAt);
  if (!item) throw new NotFoundError('No such notification in your inbox.');
  return item;
}

export const markInboxRead = (deps: InboxDeps, caller: Principal, tenantId: string, notificationId: string) =>
  mark(deps, caller, tenantId, notificationId, true);

export const markInboxUnread = (
  deps: InboxDeps,
  caller: Principal,
  tenantId: string,
  notificationId: string,
) => mark(deps, caller, tenantId, notificationId, false);

export async function readAllInbox(
  deps: InboxDeps,
  caller: Principal,
  tenantId: string,
  body: { category?: InboxCategory | undefined },
): Promise<{ updated: number }> {
  const at = deps.clock.now().toISOString();
  return { updated: await deps.inbox.readAll(ownerOf(caller, tenantId), body.category, at) };
}
