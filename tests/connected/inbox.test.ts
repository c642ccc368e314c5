import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { inboxStore } from '#functions/adapters/inbox-store';
import { notificationStore } from '#functions/adapters/notification-store';
import {
  inboxSummary,
  listInbox,
  markInboxRead,
  markInboxUnread,
  readAllInbox,
} from '#shared/domain/inbox/use-cases';
import { newId, systemClock } from '#shared/kernel/ids';
import { storedInboxItem } from '#shared/table/entities/inbox-item';
import { countingQueries, freshDb, loadItems } from '#tests/support/db';
import { audit, drain, principal } from '#tests/support/fixtures';

/**
 * The in-app inbox (docs/api.md section 7.1) over DynamoDB Local: only the recipient reads an
 * item, unread and category are key conditions (a page of 3 unread among 300 read reads the 3
 * alone), the summary counts the unread index, and read, unread and read-all move items in and
 * out of it.
 */

let db: Db;
const T = 'acme';
const alice = principal('alice', { [T]: 'operator' });
const deps = () => ({ inbox: inboxStore(db), clock: systemClock });

const item = (user: string, over: { category?: string; read_at?: string | null } = {}) => {
  const read_at = over.read_at ?? null;
  return storedInboxItem({
    tenant_id: T,
    user_id: user,
    notification_id: newId(),
    subject: 'Subject',
    body: 'Body',
    category: over.category ?? 'general',
    priority: 'normal',
    created_at: new Date().toISOString(),
    read_at,
    read_state: read_at === null ? 'unread' : 'read',
  });
};
const idsOf = (items: Record<string, unknown>[]) => items.map((i) => i.notification_id as string).reverse();

beforeAll(async () => {
  ({ db } = await freshDb());
});

describe('the in-app inbox', () => {
  it('an in_app delivery lands unread in the recipient inbox, and only the recipient sees it', async () => {
    const store = notificationStore(db);
    const now = new Date().toISOString();
    const n = {
      id: newId(),
      tenant_id: T,
      channel: 'in_app' as const,
      recipient: 'carol',
      recipient_user_id: 'carol',
      category: 'tasks' as const,
      priority: 'critical' as const,
      subject: 'Hello',
      body: 'A message for Carol',
      metadata_json: '{}',
      status: 'queued' as const,
      policy_reasons: [],
      idempotency_key: `k-${newId()}`,
      attempts: [],
      review_item_id: null,
      created_by: 'alice',
      created_at: now,
      updated_at: now,
      queued_at: now,
      delivered_at: null,
    };
    await store.create(n, audit(T, 'notification', n.id), null);
    expect(await store.claim(n, n.idempotency_key, new Date(Date.now() + 60_000).toISOString(), now)).toBe(
      'claimed',
    );
    await store.delivered(
      { ...n, status: 'delivered', delivered_at: now },
      audit(T, 'notification', n.id),
      n.idempotency_key,
    );

    const carol = principal('carol', { [T]: 'accountant' });
    const page = await listInbox(deps(), carol, T, { unread: true }, { limit: 10 });
    expect(page.items).toEqual([
      {
        notification_id: n.id,
        subject: 'Hello',
        body: 'A message for Carol',
        category: 'tasks',
        priority: 'critical',
        created_at: now,
        read_at: null,
      },
    ]);
    expect((await inboxSummary(deps(), carol, T)).unread).toBe(1);
    // Another member: not in their list, not in their count, and 404 when named.
    expect((await listInbox(deps(), alice, T, {}, { limit: 10 })).items).toEqual([]);
    expect((await inboxSummary(deps(), alice, T)).unread).toBe(0);
    await expect(markInboxRead(deps(), alice, T, n.id)).rejects.toMatchObject({ status: 404 });
    // Nor in another tenant of the recipient's.
    await expect(markInboxRead(deps(), carol, 'globex', n.id)).rejects.toMatchObject({ status: 404 });
    expect((await listInbox(deps(), carol, T, { unread: true }, { limit: 10 })).items).toHaveLength(1);
  });

  it('read and unread move an item out of and back into the unread lists and count', async () => {
    const [a, b] = [item('dave', { category: 'tasks' }), item('dave', { category: 'tasks' })];
    await loadItems(db, [a, b]);
    const dave = principal('dave', { [T]: 'operator' });
    const id = a.notification_id as string;
    const read = await markInboxRead(deps(), dave, T, id);
    expect(read.read_at).toEqual(expect.any(String));
    // Reading again keeps the first read_at.
    expect((await markInboxRead(deps(), dave, T, id)).read_at).toBe(read.read_at);
    expect(await inboxSummary(deps(), dave, T)).toMatchObject({
      unread: 1,
      unread_by_category: { tasks: 1, general: 0 },
    });
    const unreadTasks = await listInbox(deps(), dave, T, { unread: true, category: 'tasks' }, { limit: 10 });
    expect(unreadTasks.items.map((i) => i.notification_id)).toEqual([b.notification_id]);
    expect(
      (await listInbox(deps(), dave, T, { unread: false }, { limit: 10 })).items.map(
        (i) => i.notification_id,
      ),
    ).toEqual([id]);
    expect((await markInboxUnread(deps(), dave, T, id)).read_at).toBeNull();
    expect((await inboxSummary(deps(), dave, T)).unread_by_category.tasks).toBe(2);
    expect((await listInbox(deps(), dave, T, { category: 'tasks' }, { limit: 10 })).items).toHaveLength(2);
  });

  it('read-all marks every unread item read, or those of one category, and answers how many', async () => {
    const erin = principal('erin', { [T]: 'operator' });
    await loadItems(db, [
      ...Array.from({ length: 30 }, () => item('erin', { category: 'exceptions' })),
      ...Array.from({ length: 4 }, () => item('erin', { category: 'security' })),
      item('erin', { read_at: new Date().toISOString() }),
      item('frank'),
    ]);
    expect(await readAllInbox(deps(), erin, T, { category: 'security' })).toEqual({ updated: 4 });
    expect(await inboxSummary(deps(), erin, T)).toMatchObject({
      unread: 30,
      unread_by_category: { security: 0, exceptions: 30 },
    });
    expect(await readAllInbox(deps(), erin, T, {})).toEqual({ updated: 30 });
    expect(await readAllInbox(deps(), erin, T, {})).toEqual({ updated: 0 });
    expect((await inboxSummary(deps(), erin, T)).unread).toBe(0);
    expect(
      await drain((cursor) => listInbox(deps(), erin, T, { unread: true }, { limit: 7, cursor })),
    ).toEqual([]);
    expect(await drain((cursor) => listInbox(deps(), erin, T, {}, { limit: 7, cursor }))).toHaveLength(35);
    // Frank's item is untouched.
    expect((await inboxSummary(deps(), principal('frank', { [T]: 'operator' }), T)).unread).toBe(1);
  });

  it('3 unread among 300 read: the first page holds the 3 with no cursor, one Query reading only them', async () => {
    const gina = principal('gina', { [T]: 'operator' });
    const unread = [
      item('gina', { category: 'accounting' }),
      item('gina', { category: 'accounting' }),
      item('gina', { category: 'accounting' }),
    ];
    const read = Array.from({ length: 300 }, () =>
      item('gina', { category: 'accounting', read_at: new Date().toISOString() }),
    );
    await loadItems(db, [...unread, ...read]);
    for (const filter of [{ unread: true }, { unread: true, category: 'accounting' as const }]) {
      const counted = countingQueries(db);
      const page = await listInbox({ inbox: inboxStore(counted.db), clock: systemClock }, gina, T, filter, {
        limit: 20,
      });
      expect(page.items.map((i) => i.notification_id)).toEqual(idsOf(unread));
      expect(page.next_cursor).toBeNull();
      expect(counted.queries).toEqual([{ scanned: 3, index: filter.category ? 'gsi3' : 'gsi1' }]);
    }
    const counted = countingQueries(db);
    expect((await inboxSummary({ inbox: inboxStore(counted.db), clock: systemClock }, gina, T)).unread).toBe(
      3,
    );
    expect(counted.queries).toEqual([{ scanned: 3, index: 'gsi1' }]);
  });
});
