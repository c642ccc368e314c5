import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { auditStore } from '#functions/adapters/audit-store';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { exportRequested } from '#shared/domain/accounting/events';
import type { ExportStatus, ExportStore, StoredExport } from '#shared/domain/accounting/ports';
import { auditEvent } from '#shared/domain/audit';
import { decidedReviewItem, openReviewItem } from '#shared/domain/review';
import { InvalidCursorError } from '#shared/kernel/errors';
import { newId, systemClock } from '#shared/kernel/ids';
import { accountingExport } from '#shared/table/entities/accounting-export';
import { outbox } from '#shared/table/entities/outbox';
import { freshDb } from '#tests/support/db';

/**
 * The accounting export's store (functions/adapters/accounting-store.ts) over DynamoDB Local: the
 * conditions that keep one run at a time and no call before a retry time (the lease), one booking
 * per document (the claims), and a run's result written only under its own lease.
 */

let db: Db;
let store: ExportStore;

beforeAll(async () => {
  ({ db } = await freshDb());
});
// Made per test, so what making it does is part of each test.
beforeEach(() => {
  store = accountingStore(db);
});

const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

function exportOf(tenantId: string, fields: Partial<StoredExport> = {}): StoredExport {
  const now = new Date().toISOString();
  return {
    id: newId(),
    tenant_id: tenantId,
    export_batch_id: `B-${newId()}`,
    integration_connection_id: null,
    status: 'queued',
    document_count: 1,
    items: [
      {
        index: 0,
        document_ref: 'INV-1',
        status: 'pending',
        error_code: null,
        retryable: null,
        external_id: null,
      },
    ],
    attempts: [],
    review_item_id: null,
    simulate_failure: null,
    created_by: 'u-1',
    created_at: now,
    updated_at: now,
    completed_at: null,
    documents: [{ number: 'INV-1', amount: '1.00', currency: 'EUR' }],
    fingerprint: 'f'.repeat(64),
    ...fields,
  };
}

const audit = (e: StoredExport, verb = 'queued') =>
  auditEvent(systemClock, {
    tenant_id: e.tenant_id,
    event_type: `accounting_export.${verb}`,
    actor_id: null,
    entity_type: 'accounting_export',
    entity_id: e.id,
    summary: verb,
  });

const audits = async (e: StoredExport) =>
  (
    await auditStore(db).list(
      e.tenant_id,
      { entity_type: 'accounting_export', entity_id: e.id },
      { limit: 10 },
    )
  ).items.map((a) => a.event_type);

/** An export as a run or a decision left it: written as is, past the store's conditions. */
async function stored(e: StoredExport) {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: accountingExport.item({ ...e }) }));
  return e;
}

const tenant = () => `t-${newId().slice(-10)}`;

/** The review item a failed run of `e` opens. */
const reviewOf = (e: StoredExport) =>
  openReviewItem(
    {
      id: newId(),
      tenant_id: e.tenant_id,
      kind: 'accounting_export',
      subject_id: e.id,
      notification_id: null,
      channel: null,
      reason: 'permanent_failure',
      detail: 'refused',
    },
    at(0),
  );

describe('create, get, list', () => {
  it('creates once per batch id; a second export under it answers the holder; the record reads back whole', async () => {
    const tenantId = tenant();
    const e = exportOf(tenantId);
    expect(await store.create(e, audit(e), exportRequested(systemClock, e))).toEqual({ created: true });
    const other = exportOf(tenantId, { export_batch_id: e.export_batch_id });
    expect(await store.create(other, audit(other), exportRequested(systemClock, other))).toEqual({
      created: false,
      existingId: e.id,
    });
    expect(await store.get(tenantId, other.id)).toBeUndefined();
    expect(await store.batchOwner(tenantId, e.export_batch_id)).toBe(e.id);
    expect(await store.batchOwner(tenantId, 'B-none')).toBeUndefined();
    expect(await store.get(tenantId, e.id)).toEqual({ ...e, lease_until: null });
    expect(await audits(e)).toEqual(['accounting_export.queued']);
  });

  it('an export id that is taken under another batch id is an error, not a claim', async () => {
    const tenantId = tenant();
    const e = exportOf(tenantId);
    await store.create(e, audit(e), exportRequested(systemClock, e));
    const again = exportOf(tenantId, { id: e.id });
    await expect(store.create(again, audit(again), exportRequested(systemClock, again))).rejects.toThrow(
      'accounting export id collision',
    );
  });

  it('lists the read records (no documents, fingerprint or lease), all or by status', async () => {
    const tenantId = tenant();
    const queued = exportOf(tenantId);
    const failed = exportOf(tenantId, { status: 'failed' });
    for (const e of [queued, failed]) await store.create(e, audit(e), exportRequested(systemClock, e));
    await stored({ ...failed, lease_until: at(0) });
    const { documents: _d, fingerprint: _f, ...read } = failed;
    expect((await store.list(tenantId, { status: 'failed' }, { limit: 10 })).items).toEqual([read]);
    expect((await store.list(tenantId, {}, { limit: 10 })).items.map((e) => e.id).sort()).toEqual(
      [queued.id, failed.id].sort(),
    );
  });
  it("pages with a cursor bound to its list: the tenant's and the filter's", async () => {
    const tenantId = tenant();
    const exports = [exportOf(tenantId, { status: 'failed' }), exportOf(tenantId, { status: 'failed' })];
    for (const e of exports) await store.create(e, audit(e), exportRequested(systemClock, e));
    const first = await store.list(tenantId, { status: 'failed' }, { limit: 1 });
    expect(first.next_cursor).not.toBeNull();
    const cursor = first.next_cursor!;
    const second = await store.list(tenantId, { status: 'failed' }, { limit: 1, cursor });
    expect([...first.items, ...second.items].map((e) => e.id).sort()).toEqual(
      exports.map((e) => e.id).sort(),
    );
    await expect(store.list(tenantId, {}, { limit: 1, cursor })).rejects.toBeInstanceOf(InvalidCursorError);
    await expect(store.list(tenant(), { status: 'failed' }, { limit: 1, cursor })).rejects.toBeInstanceOf(
      InvalidCursorError,
    );
  });
});

describe('lease: one run at a time, and none before the retry time', () => {
  const LEASE = { none: null, passed: -1000, ahead: 60_000 } as const;
  const cases: [ExportStatus, keyof typeof LEASE, boolean][] = [
    ['queued', 'none', true],
    ['retrying', 'passed', true],
    ['retrying', 'ahead', false],
    // A retry written before retry times were kept.
    ['retrying', 'none', true],
    ['exporting', 'passed', true],
    ['exporting', 'ahead', false],
    ['exported', 'passed', false],
    ['failed', 'passed', false],
    ['gated', 'none', false],
  ];
  it.each(cases)('%s, lease_until %s: leased %s', async (status, lease, leased) => {
    const leaseUntil = LEASE[lease] === null ? null : at(LEASE[lease]);
    const e = await stored(exportOf(tenant(), { status, lease_until: leaseUntil }));
    const until = at(60_000);
    const now = at(0);
    expect(await store.lease(e, until, now)).toBe(leased);
    const after = (await store.get(e.tenant_id, e.id))!;
    if (leased) {
      expect(after).toMatchObject({ status: 'exporting', lease_until: until, updated_at: now });
      expect((await store.list(e.tenant_id, { status: 'exporting' }, { limit: 10 })).items).toHaveLength(1);
      if (status !== 'exporting')
        expect((await store.list(e.tenant_id, { status }, { limit: 10 })).items).toHaveLength(0);
    } else expect(after).toEqual({ ...e, lease_until: leaseUntil });
  });

  it('a store failure is thrown, not taken for a lease held elsewhere', async () => {
    const broken = accountingStore({ ...db, tableName: 'no-such-table' });
    await expect(broken.lease(exportOf(tenant()), at(60_000), at(0))).rejects.toThrow();
  });
});

describe('finish: the run writes its result only under its own lease', () => {
  it('another lease: nothing is written; its own: the export with its retry time, the audit, review and outbox', async () => {
    const tenantId = tenant();
    const lease = at(60_000);
    const e = await stored(exportOf(tenantId, { status: 'exporting', lease_until: lease }));
    const retryAt = at(30_000);
    const next: StoredExport = { ...e, status: 'retrying', lease_until: retryAt };
    expect(await store.finish(next, at(59_000), audit(e, 'retrying'), null, null)).toBe(false);
    expect(await store.get(tenantId, e.id)).toEqual(e);
    expect(await audits(e)).toEqual([]);

    const review = reviewOf(e);
    const event = exportRequested(systemClock, e);
    expect(await store.finish(next, lease, audit(e, 'retrying'), review, event)).toBe(true);
    const written = await db.doc.send(
      new GetCommand({ TableName: db.tableName, Key: outbox.key({ event_id: event.event_id }) }),
    );
    expect(written.Item).toMatchObject({ event_id: event.event_id, payload: { export_id: e.id } });
    expect(await store.get(tenantId, e.id)).toEqual(next);
    expect(await audits(e)).toEqual(['accounting_export.retrying']);
    expect(await notificationStore(db).getReviewItem(tenantId, review.id)).toMatchObject({
      subject_id: e.id,
      status: 'open',
    });
    // Not exporting any more: a second finish under the same lease is refused.
    expect(await store.finish(next, lease, audit(e, 'retrying'), null, null)).toBe(false);
  });
});

describe('decide: a review decision is written once, on the export it was made on', () => {
  it('refused when the export moved on; written with its outbox event while failed and open; refused after', async () => {
    const tenantId = tenant();
    const lease = at(60_000);
    const e = await stored(exportOf(tenantId, { status: 'exporting', lease_until: lease }));
    const review = reviewOf(e);
    const failed: StoredExport = { ...e, status: 'failed', review_item_id: review.id };
    expect(await store.finish(failed, lease, audit(e, 'failed'), review, null)).toBe(true);
    const retried = decidedReviewItem(review, { action: 'retry' }, 'mgr-1', at(0));
    const queued: StoredExport = { ...failed, status: 'queued' };
    const event = exportRequested(systemClock, e);
    expect(await store.decide(queued, 'gated', retried, audit(e, 'decided'), event)).toBe(false);
    expect(await store.get(tenantId, e.id)).toEqual(failed);
    expect(await store.decide(queued, 'failed', retried, audit(e, 'decided'), event)).toBe(true);
    expect(await store.get(tenantId, e.id)).toEqual(queued);
    expect(await notificationStore(db).getReviewItem(tenantId, review.id)).toMatchObject({
      status: 'retried',
    });
    const written = await db.doc.send(
      new GetCommand({ TableName: db.tableName, Key: outbox.key({ event_id: event.event_id }) }),
    );
    expect(written.Item).toMatchObject({ event_id: event.event_id });
    expect(
      await store.decide({ ...failed, status: 'discarded' }, 'queued', retried, audit(e, 'x'), null),
    ).toBe(false);
  });
});

describe('bookings: one claim per document', () => {
  it('claims a free document; a live claim is busy, an expired one is claimed again; a booked one says so', async () => {
    const tenantId = tenant();
    const exportId = newId();
    const claim = (lease: string, key = 'k-0') =>
      store.claimBooking(
        tenantId,
        exportId,
        { index: 0, state: 'sending', idempotency_key: key, claimed_at: at(0), lease_until: lease },
        at(0),
      );
    expect(await claim(at(-1))).toBe('claimed');
    expect(await claim(at(60_000), 'k-1')).toBe('claimed');
    expect(await claim(at(60_000), 'k-2')).toBe('busy');
    expect(await store.bookings(tenantId, exportId)).toEqual([
      expect.objectContaining({ index: 0, state: 'sending', idempotency_key: 'k-1' }),
    ]);

    const booked = {
      index: 0,
      state: 'booked',
      idempotency_key: 'k-1',
      external_id: 'x-1',
      booked_at: at(0),
    };
    await store.record(tenantId, exportId, booked as never);
    expect(await claim(at(60_000))).toBe('booked');
    // A release is for a refused call's claim only: a booking stays.
    await store.release(tenantId, exportId, 0);
    expect(await store.bookings(tenantId, exportId)).toEqual([booked]);
  });

  it('reads each state with its own fields, and releases a claim whose call was refused', async () => {
    const tenantId = tenant();
    const exportId = newId();
    const sending = {
      index: 1,
      state: 'sending' as const,
      idempotency_key: 'k-1',
      claimed_at: at(0),
      lease_until: at(0),
    };
    const booked = {
      index: 0,
      state: 'booked' as const,
      idempotency_key: 'k-0',
      external_id: 'x-0',
      booked_at: at(0),
    };
    await store.record(tenantId, exportId, booked);
    await store.record(tenantId, exportId, sending);
    const all = await store.bookings(tenantId, exportId);
    expect(all.sort((a, b) => a.index - b.index)).toEqual([booked, sending]);
    await store.release(tenantId, exportId, 1);
    expect(await store.bookings(tenantId, exportId)).toEqual([booked]);
  });

  it('a store failure of a claim or a release is thrown', async () => {
    const broken = accountingStore({ ...db, tableName: 'no-such-table' });
    const claim = {
      index: 0,
      state: 'sending' as const,
      idempotency_key: 'k',
      claimed_at: at(0),
      lease_until: at(0),
    };
    await expect(broken.claimBooking(tenant(), newId(), claim, at(0))).rejects.toThrow();
    await expect(broken.release(tenant(), newId(), 0)).rejects.toThrow();
    // A claim refused by a throttle, not by its condition: thrown, though the document is free.
    const mock = mockClient(db.doc);
    try {
      mock.on(PutCommand).rejects(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
      mock.on(GetCommand).resolves({});
      await expect(store.claimBooking(tenant(), newId(), claim, at(0))).rejects.toThrow('throttled');
    } finally {
      mock.restore();
    }
  });
});
