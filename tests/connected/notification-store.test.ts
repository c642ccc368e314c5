import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { backfillIndexKeys } from '#functions/adapters/index-backfill';
import type { Notification, ReviewItem } from '#shared/domain/notifications/ports';
import { newId } from '#shared/kernel/ids';
import { adapterConnection } from '#shared/table/entities/adapter-connection';
import { consumed } from '#shared/table/entities/consumed';
import { inboxItem } from '#shared/table/entities/inbox-item';
import { member } from '#shared/table/entities/member';
import { reviewItem, storedReviewItem } from '#shared/table/entities/review-item';
import type { Key } from '#shared/table/table';
import { freshDb } from '#tests/support/db';
import { audit, drain } from '#tests/support/fixtures';

/**
 * The notification store (functions/adapters/notification-store.ts) on its own over DynamoDB
 * Local: the consumer claim (one holder at a time, a lapsed lease taken over, a consumed key
 * never claimed again), what `delivered` and `failed` leave behind, list filters, review items
 * written before kinds existed, and resolving a review item only while it is open.
 */

let db: Db;
let store: ReturnType<typeof notificationStore>;
beforeAll(async () => {
  ({ db } = await freshDb());
  store = notificationStore(db);
});

const newTenant = () => `t-${newId().slice(-12)}`;
const iso = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

const notificationOf = (tenantId: string, o: Partial<Notification> = {}): Notification => {
  const id = newId();
  return {
    id,
    tenant_id: tenantId,
    channel: 'telegram',
    recipient: '4242',
    recipient_user_id: null,
    category: 'general',
    priority: 'normal',
    subject: null,
    body: 'Stock is low',
    metadata_json: '{}',
    status: 'queued',
    policy_reasons: [],
    idempotency_key: `notification:${tenantId}:${id}`,
    attempts: [],
    review_item_id: null,
    created_by: 'op-1',
    created_at: iso(0),
    updated_at: iso(0),
    queued_at: iso(0),
    delivered_at: null,
    deliver_after: null,
    dedupe_key: null,
    duplicate_of: null,
    digest_key: null,
    digest_id: null,
    ...o,
  };
};

const reviewOf = (n: Notification, o: Partial<ReviewItem> = {}): ReviewItem => ({
  id: newId(),
  tenant_id: n.tenant_id,
  notification_id: n.id,
  channel: n.channel,
  kind: 'notification',
  subject_id: n.id,
  reason: 'permanent_failure',
  detail: 'http_400',
  status: 'open',
  decision: null,
  note: null,
  decided_by: null,
  decided_at: null,
  created_at: iso(0),
  updated_at: iso(0),
  ...o,
});

const getItem = async (key: Key) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: true }))).Item;
const put = (item: Record<string, unknown>) =>
  db.doc.send(new PutCommand({ TableName: db.tableName, Item: item }));

const created = async (tenantId: string, o: Partial<Notification> = {}) => {
  const n = notificationOf(tenantId, o);
  await store.create(n, audit(tenantId, 'notification', n.id), null);
  return n;
};

describe('create and get', () => {
  it('reads back what it wrote; a second create of the same id throws and changes nothing', async () => {
    const t = newTenant();
    const n = await created(t);
    expect(await store.get(t, n.id)).toEqual(n);
    await expect(store.create({ ...n, body: 'other' }, audit(t, 'notification', n.id), null)).rejects.toThrow(
      'notification id collision',
    );
    expect((await store.get(t, n.id))?.body).toBe(n.body);
    expect(await store.get(t, 'nope')).toBeUndefined();
    expect(await store.get(newTenant(), n.id)).toBeUndefined();
  });
});

describe('claim', () => {
  it('one holder at a time; a lapsed lease is taken over; a consumed key is done', async () => {
    const t = newTenant();
    const n = await created(t);
    const key = n.idempotency_key;
    expect(await store.claim(n, key, iso(60_000), iso(0))).toBe('claimed');
    expect((await store.get(t, n.id))?.status).toBe('delivering');
    const held = await getItem(consumed.key({ idempotency_key: key }));
    expect(held).toMatchObject({ state: 'in_progress' });

    // Held and not lapsed: busy.
    expect(await store.claim(n, key, iso(120_000), iso(1_000))).toBe('busy');
    // Lapsed (its lease_until is before now): another worker takes it over.
    expect(await store.claim(n, key, iso(240_000), iso(61_000))).toBe('claimed');
    // Exactly at the lease end it is still held.
    const lease = (await getItem(consumed.key({ idempotency_key: key })))!.lease_until as string;
    expect(await store.claim(n, key, iso(300_000), lease)).toBe('busy');

    const at = iso(0);
    await store.delivered(
      { ...n, status: 'delivered', delivered_at: at, updated_at: at },
      audit(t, 'notification', n.id),
      key,
    );
    // Consumed: never claimed again, not even long after the lease.
    expect(await store.claim(n, key, iso(10_000_000), iso(9_000_000))).toBe('done');
    expect((await store.get(t, n.id))?.status).toBe('delivered');
  });

  it('a claim of a key another notification consumed leaves this notification untouched', async () => {
    const t = newTenant();
    const n = await created(t);
    const other = await created(t);
    expect(await store.claim(other, n.idempotency_key, iso(60_000), iso(0))).toBe('claimed');
    expect(await store.claim(n, n.idempotency_key, iso(60_000), iso(0))).toBe('busy');
    expect((await store.get(t, n.id))?.status).toBe('queued');
  });
});

describe('delivered', () => {
  it('marks the key consumed with a retention TTL of about 15 days', async () => {
    const t = newTenant();
    const n = await created(t);
    await store.claim(n, n.idempotency_key, iso(60_000), iso(0));
    const at = iso(0);
    await store.delivered(
      { ...n, status: 'delivered', delivered_at: at },
      audit(t, 'notification', n.id),
      n.idempotency_key,
    );
    const done = await getItem(consumed.key({ idempotency_key: n.idempotency_key }));
    expect(done).toMatchObject({ state: 'done', done_at: at });
    const days = ((done!.ttl as number) - Date.now() / 1000) / 86_400;
    expect(days).toBeGreaterThan(14.9);
    expect(days).toBeLessThan(15.1);
    // No inbox item for a channel other than in_app.
    expect(
      await getItem(inboxItem.key({ tenant_id: t, user_id: n.recipient, notification_id: n.id })),
    ).toBeUndefined();
  });

  it('an in_app delivery puts the message in the member inbox, unread', async () => {
    const t = newTenant();
    const n = await created(t, { channel: 'in_app', recipient: 'user-7', subject: 'Hi' });
    await store.claim(n, n.idempotency_key, iso(60_000), iso(0));
    const at = iso(0);
    await store.delivered(
      { ...n, status: 'delivered', delivered_at: at },
      audit(t, 'notification', n.id),
      n.idempotency_key,
    );
    expect(
      await getItem(inboxItem.key({ tenant_id: t, user_id: 'user-7', notification_id: n.id })),
    ).toMatchObject({
      tenant_id: t,
      user_id: 'user-7',
      notification_id: n.id,
      subject: 'Hi',
      body: n.body,
      created_at: at,
      read_at: null,
    });
  });
});

describe('failed', () => {
  it('releases the claim (the next attempt can claim) and opens the review item when given', async () => {
    const t = newTenant();
    const n = await created(t);
    await store.claim(n, n.idempotency_key, iso(60_000), iso(0));
    const review = reviewOf(n);
    await store.failed(
      { ...n, status: 'dead_lettered', review_item_id: review.id },
      audit(t, 'notification', n.id),
      n.idempotency_key,
      review,
    );
    expect(await getItem(consumed.key({ idempotency_key: n.idempotency_key }))).toBeUndefined();
    expect(await store.getReviewItem(t, review.id)).toEqual(review);
    expect((await store.get(t, n.id))?.status).toBe('dead_lettered');
    expect(await store.claim(n, n.idempotency_key, iso(60_000), iso(0))).toBe('claimed');
  });

  it('without a review item writes none; a review id taken already cancels the whole write', async () => {
    const t = newTenant();
    const n = await created(t);
    await store.claim(n, n.idempotency_key, iso(60_000), iso(0));
    await store.failed({ ...n, status: 'queued' }, audit(t, 'notification', n.id), n.idempotency_key, null);
    expect(await drain((cursor) => store.listReviewItems(t, {}, { limit: 10, cursor }))).toEqual([]);

    const review = reviewOf(n);
    await put(reviewItem.item(review));
    await store.claim(n, n.idempotency_key, iso(60_000), iso(0));
    await expect(
      store.failed(
        { ...n, status: 'dead_lettered' },
        audit(t, 'notification', n.id),
        n.idempotency_key,
        review,
      ),
    ).rejects.toThrow('failure write failed a condition');
    expect((await store.get(t, n.id))?.status).toBe('delivering');
  });
});

describe('lists', () => {
  it('filters notifications by status, channel and recipient, alone and together', async () => {
    const t = newTenant();
    const a = await created(t, { channel: 'telegram', recipient: '1', status: 'queued' });
    const b = await created(t, { channel: 'telegram', recipient: '2', status: 'delivered' });
    const c = await created(t, { channel: 'email', recipient: '1', status: 'queued' });
    const ids = async (filter: Parameters<typeof store.list>[1]) =>
      (await drain((cursor) => store.list(t, filter, { limit: 1, cursor }))).map((n) => n.id).sort();
    expect(await ids({})).toEqual([a.id, b.id, c.id].sort());
    expect(await ids({ status: 'queued' })).toEqual([a.id, c.id].sort());
    expect(await ids({ status: 'queued', channel: 'email' })).toEqual([c.id]);
    expect(await ids({ status: 'queued', recipient: '1', channel: 'telegram' })).toEqual([a.id]);
    expect(await ids({ channel: 'telegram' })).toEqual([a.id, b.id].sort());
    expect(await ids({ channel: 'telegram', recipient: '2' })).toEqual([b.id]);
    expect(await ids({ recipient: '1' })).toEqual([a.id, c.id].sort());
  });

  it('review items: by status and kind; an item written before kinds is a notification item', async () => {
    const t = newTenant();
    const n = await created(t);
    const open = reviewOf(n);
    const decided = reviewOf(n, { status: 'discarded', decision: 'discard' });
    const workflow = reviewOf(n, { kind: 'workflow_action', notification_id: null, subject_id: 'r:e:0' });
    for (const r of [open, decided, workflow]) await put(storedReviewItem(r));
    // As written before kinds: no kind, no subject_id, and so no kind index entry until the backfill.
    const legacy = reviewOf(n);
    const { kind: _kind, subject_id: _subject, ...legacyFields } = legacy;
    await put(reviewItem.item(legacyFields as ReviewItem));

    expect(await store.getReviewItem(t, legacy.id)).toEqual(legacy);
    const ids = async (filter: Parameters<typeof store.listReviewItems>[1]) =>
      (await drain((cursor) => store.listReviewItems(t, filter, { limit: 1, cursor })))
        .map((r) => r.id)
        .sort();
    expect(await ids({})).toEqual([open.id, decided.id, workflow.id, legacy.id].sort());
    expect(await ids({ status: 'open' })).toEqual([open.id, workflow.id, legacy.id].sort());
    expect(await ids({ kind: 'notification' })).toEqual([open.id, decided.id].sort());
    await backfillIndexKeys(db);
    expect(await ids({ kind: 'notification' })).toEqual([open.id, decided.id, legacy.id].sort());
    expect(await ids({ kind: 'notification', status: 'discarded' })).toEqual([decided.id]);
    expect(await ids({ status: 'open', kind: 'workflow_action' })).toEqual([workflow.id]);
    expect(await store.getReviewItem(t, 'nope')).toBeUndefined();
  });
});

describe('channel state and membership', () => {
  it('reads the connection status of the channel, and whether a user is a member', async () => {
    const t = newTenant();
    expect(await store.channelState(t, 'telegram')).toBeUndefined();
    await put(adapterConnection.item({ tenant_id: t, adapter_key: 'telegram', status: 'disabled' }));
    expect(await store.channelState(t, 'telegram')).toBe('disabled');
    expect(await store.channelState(t, 'email')).toBeUndefined();

    expect(await store.isMember(t, 'u-1')).toBe(false);
    await put(member.item({ tenant_id: t, user_id: 'u-1', role: 'operator' }));
    expect(await store.isMember(t, 'u-1')).toBe(true);
    expect(await store.isMember(t, 'u-2')).toBe(false);
  });
});

describe('decide', () => {
  it('writes only while the notification has the expected status and the item is open', async () => {
    const t = newTenant();
    const n = await created(t, { status: 'dead_lettered' });
    const review = reviewOf(n);
    await put(reviewItem.item(review));
    const decided = { ...review, status: 'discarded' as const, decision: 'discard' as const };
    // Wrong expected status: nothing written.
    expect(
      await store.decide({ ...n, status: 'discarded' }, 'queued', decided, audit(t, 'review'), null),
    ).toBe(false);
    expect((await store.getReviewItem(t, review.id))?.status).toBe('open');
    expect(
      await store.decide({ ...n, status: 'discarded' }, 'dead_lettered', decided, audit(t, 'review'), null),
    ).toBe(true);
    expect((await store.get(t, n.id))?.status).toBe('discarded');
    expect((await store.getReviewItem(t, review.id))?.status).toBe('discarded');
    // Decided already: a second decision is refused.
    expect(
      await store.decide({ ...n, status: 'discarded' }, 'discarded', decided, audit(t, 'review'), null),
    ).toBe(false);
  });
});

describe('resolveReview', () => {
  it('resolves an open item; leaves a decided one and a missing one alone', async () => {
    const t = newTenant();
    const n = await created(t);
    const open = reviewOf(n);
    const decided = reviewOf(n, { status: 'retried', decision: 'retry' });
    await put(reviewItem.item(open));
    await put(reviewItem.item(decided));
    const at = iso(0);
    await store.resolveReview(t, open.id, at);
    expect(await store.getReviewItem(t, open.id)).toEqual({ ...open, status: 'resolved', updated_at: at });
    // No longer counted as open (its open_kind key is gone).
    expect((await getItem(reviewItem.key({ tenant_id: t, id: open.id })))?.gsi3pk).toBeUndefined();
    await store.resolveReview(t, decided.id, at);
    expect(await store.getReviewItem(t, decided.id)).toEqual(decided);
    await expect(store.resolveReview(t, 'nope', at)).resolves.toBeUndefined();
  });
});
