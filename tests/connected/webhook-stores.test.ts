import { describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { webhookEndpointStore } from '#functions/adapters/webhook-endpoint-store';
import { webhookMessageStore } from '#functions/adapters/webhook-message-store';
import { auditEvent } from '#shared/domain/audit';
import { openReviewItem } from '#shared/domain/review';
import { deliverMessage } from '#shared/domain/webhooks/delivery';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { recoverMessages } from '#shared/domain/webhooks/messages';
import { updateEndpoint } from '#shared/domain/webhooks/endpoints';
import { InvalidCursorError } from '#shared/kernel/errors';
import { newId } from '#shared/kernel/ids';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * The webhook stores on DynamoDB Local, where their conditions and cursors decide: an id
 * collision is not the endpoint limit, a review item rides with an endpoint's change, a list's
 * cursor serves only the list it came from, and the failed messages a recover reads are those
 * created since its time, oldest first, whenever their change occurred.
 */

const h = webhookHarness();
const { clock, owner, setup, change, outboxOf, oneMessage } = h;
const START = WEBHOOK_START;

/** A message of the endpoint ended `failed` in one attempt: delivered while the endpoint was disabled. */
async function failAll(tenantId: string, endpointId: string) {
  await updateEndpoint(h.deps.api, owner({ id: tenantId }), tenantId, endpointId, { enabled: false });
  for (const e of await outboxOf(tenantId)) await deliverMessage(h.deps.delivery(), e, 1);
  await updateEndpoint(h.deps.api, owner({ id: tenantId }), tenantId, endpointId, { enabled: true });
}

/** A tenant with one endpoint, as the endpoint store reads it back, at the start of the clock. */
async function oneEndpoint() {
  clock.set(START);
  const store = webhookEndpointStore(h.db);
  const {
    t,
    endpoints: [e],
  } = await setup();
  return { store, t, stored: (await store.get(t.id, e!.id))! };
}

describe('endpoint store', () => {
  it('an id taken already is a collision, not the limit', async () => {
    const { store, t, stored } = await oneEndpoint();
    const audit = auditEvent(clock, {
      tenant_id: t.id,
      event_type: 'webhook_endpoint.created',
      actor_id: null,
      entity_type: 'webhook_endpoint',
      entity_id: stored.id,
      summary: 'again',
    });
    await expect(store.create(stored, audit, 20)).rejects.toThrow('webhook endpoint id collision');
  });

  it('writes the review item that comes with a change, and no audit event when none does', async () => {
    const { store, t, stored } = await oneEndpoint();
    clock.add(60);
    const now = clock.now().toISOString();
    const review = openReviewItem(
      {
        id: newId(),
        tenant_id: t.id,
        kind: 'webhook_endpoint',
        subject_id: stored.id,
        notification_id: null,
        channel: null,
        reason: 'endpoint_disabled',
        detail: 'disabled by a test',
      },
      now,
    );
    const next = { ...stored, enabled: false, status: 'disabled' as const, updated_at: now };
    expect(await store.update(next, stored.updated_at, null, review)).toBe(true);
    expect(await store.get(t.id, stored.id)).toMatchObject({ status: 'disabled', updated_at: now });
    expect((await notificationStore(h.db).listReviewItems(t.id, {}, { limit: 5 })).items).toEqual([
      expect.objectContaining({ id: review.id, subject_id: stored.id }),
    ]);
    const audited = await auditStore(h.db).list(
      t.id,
      { entity_type: 'webhook_endpoint', entity_id: stored.id },
      { limit: 9 },
    );
    expect(audited.items.map((a) => a.event_type)).toEqual(['webhook_endpoint.created']);
  });

  it('marks an active endpoint failing once, leaving updated_at; never a disabled or a missing one', async () => {
    const { store, t, stored } = await oneEndpoint();
    const since = '2031-01-01T00:00:05.000Z';
    expect(await store.markFailing(t.id, stored.id, since)).toBe(true);
    expect(await store.get(t.id, stored.id)).toEqual({ ...stored, failing_since: since });
    expect(await store.markFailing(t.id, stored.id, '2031-01-01T00:00:09.000Z')).toBe(false);
    expect((await store.get(t.id, stored.id))!.failing_since).toBe(since);

    // The mark leaves updated_at, so the attempt's own outcome (read before it) still writes.
    expect(await store.update({ ...stored, failing_since: null }, stored.updated_at, null)).toBe(true);
    const disabled = { ...stored, enabled: false, status: 'disabled' as const, updated_at: since };
    expect(await store.update(disabled, stored.updated_at, null)).toBe(true);
    expect(await store.markFailing(t.id, stored.id, since)).toBe(false);
    expect((await store.get(t.id, stored.id))!.failing_since).toBeNull();
    expect(await store.markFailing(t.id, 'wep_missing', since)).toBe(false);
    expect(await store.get(t.id, 'wep_missing')).toBeUndefined();
    // Any other failure is the table's, and the caller hears of it.
    const elsewhere = webhookEndpointStore({ ...h.db, tableName: 'no-such-table' });
    await expect(elsewhere.markFailing(t.id, stored.id, since)).rejects.toThrow();
  });

  it("a list's cursor serves that tenant's list only", async () => {
    clock.set(START);
    const store = webhookEndpointStore(h.db);
    const { t } = await setup(['exception.created'], 2);
    const other = await setup(['exception.created'], 2);
    const first = await store.list(t.id, { limit: 1 });
    expect(first.next_cursor).not.toBeNull();
    expect((await store.list(t.id, { limit: 1, cursor: first.next_cursor! })).items).toHaveLength(1);
    await expect(store.list(other.t.id, { limit: 1, cursor: first.next_cursor! })).rejects.toBeInstanceOf(
      InvalidCursorError,
    );
  });
});

describe('message store', () => {
  it("a log's cursor serves that endpoint's log with that status filter only", async () => {
    clock.set(START);
    const store = webhookMessageStore(h.db);
    const {
      t,
      endpoints: [a, b],
    } = await setup(['exception.created'], 2);
    for (let i = 0; i < 2; i++) await fanOut(h.deps.fanOut, change(t.id));
    const { next_cursor: cursor } = await store.list(t.id, a!.id, 'pending', { limit: 1 });
    expect(cursor).not.toBeNull();
    expect((await store.list(t.id, a!.id, 'pending', { limit: 1, cursor: cursor! })).items).toHaveLength(1);
    for (const [endpointId, status] of [
      [b!.id, 'pending'],
      [a!.id, 'failed'],
      [a!.id, undefined],
    ] as const)
      await expect(
        store.list(t.id, endpointId, status, { limit: 1, cursor: cursor! }),
      ).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('reads the failed messages created since a time, oldest first, however long before their change occurred', async () => {
    clock.set(START);
    const store = webhookMessageStore(h.db);
    const {
      t,
      endpoints: [e],
    } = await setup();
    await fanOut(h.deps.fanOut, change(t.id));
    // A change recorded a second later and fanned out 10 minutes after it (a relay or worker behind).
    clock.add(1);
    const lagging = change(t.id);
    clock.add(600);
    await fanOut(h.deps.fanOut, lagging);
    const since = clock.now().toISOString();
    clock.add(1);
    await fanOut(h.deps.fanOut, change(t.id));
    await failAll(t.id, e!.id);
    const created = (
      await Promise.all((await outboxOf(t.id)).map((x) => store.get(t.id, String(x.payload.message_id))))
    )
      .map((m) => m!)
      .sort((x, y) => x.id.localeCompare(y.id));
    expect(created.map((m) => m.status)).toEqual(['failed', 'failed', 'failed']);

    const found = await store.failedSince(t.id, e!.id, since);
    expect(found.map((m) => m.created_at)).toEqual([since, new Date(Date.parse(since) + 1000).toISOString()]);
    expect(found.map((m) => m.id)).toEqual(created.slice(1).map((m) => m.id));
    // The recover reads the same: the lagging change's message is created after `since`.
    clock.add(60);
    expect(await recoverMessages(h.deps.log, owner(t), t.id, e!.id, since)).toEqual({ queued: 2 });
  });

  it('a message read back is the one stored', async () => {
    clock.set(START);
    const { t, event } = await oneMessage();
    const m = await webhookMessageStore(h.db).get(t.id, String(event.payload.message_id));
    expect(m).toMatchObject({ id: event.payload.message_id, status: 'pending', tenant_id: t.id });
  });
});
