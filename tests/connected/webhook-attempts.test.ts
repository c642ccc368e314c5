import { describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { timerStore } from '#functions/adapters/timer-store';
import { deliverMessage, MAX_ATTEMPTS, nextWait } from '#shared/domain/webhooks/delivery';
import { deleteEndpoint, rotateSecret, updateEndpoint } from '#shared/domain/webhooks/endpoints';
import { resendMessage } from '#shared/domain/webhooks/messages';
import type { DeliveryDeps } from '#shared/domain/webhooks/delivery';
import type { StoredMessage, WebhookSender } from '#shared/domain/webhooks/ports';
import { newId } from '#shared/kernel/ids';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * One delivery attempt's outcomes on DynamoDB Local against a loopback receiver (docs/api.md,
 * "Event subscriptions"): what is skipped or failed without a request, the claim and its lease,
 * the secrets that sign, what counts as delivered, a resent message's new round, the endpoint's
 * run of failures, the retry timer, and an outcome that lost its race to a PATCH or a later claim.
 */

const h = webhookHarness();
const { clock, owner, oneMessage } = h;
const START = WEBHOOK_START;
const DAY_S = 86_400;

const messageOf = async (tenantId: string, id: string) => (await h.deps.log.messages.get(tenantId, id))!;
const endpointOf = async (tenantId: string, id: string) => (await h.deps.api.endpoints.get(tenantId, id))!;
const received = () => h.rx.received.length;

/** A sender that runs `during` once, in the middle of the real send (what happens meanwhile). */
function sendingWhile(during: () => Promise<void>): WebhookSender {
  const real = h.deps.delivery().sender;
  let ran = false;
  return {
    async send(url, message) {
      if (!ran) {
        ran = true;
        await during();
      }
      return real.send(url, message);
    },
  };
}

describe('nothing sent', () => {
  it('a queue message for a message that is not there is skipped', async () => {
    clock.set(START);
    const { event } = await oneMessage();
    const before = received();
    const gone = { ...event, payload: { ...event.payload, message_id: newId() } };
    expect(await deliverMessage(h.deps.delivery(), gone, 1)).toMatchObject({ result: 'skipped' });
    expect(received()).toBe(before);
  });

  it('before its time: the queue message comes back when the attempt is due', async () => {
    clock.set(START);
    const { event } = await oneMessage();
    h.rx.answer(500);
    await deliverMessage(h.deps.delivery({ random: () => 0 }), event, 1);
    clock.add(2.5);
    expect(await deliverMessage(h.deps.delivery(), event, 2)).toEqual({
      result: 'early',
      message_id: event.payload.message_id,
      delaySeconds: 3,
    });
  });

  it('while another attempt holds its claim the copy waits for the lease to end; the claim lasts the lease', async () => {
    clock.set(START);
    const { t, event } = await oneMessage();
    const id = event.payload.message_id as string;
    let lease: string | null = null;
    const deps = h.deps.delivery({
      leaseSeconds: 90,
      sender: sendingWhile(async () => {
        lease = (await messageOf(t.id, id)).lease_until;
        const before = received();
        // The clock stands: 90 s of lease left, and the second to be past it.
        expect(await deliverMessage(h.deps.delivery(), event, 2)).toEqual({
          result: 'deferred',
          message_id: id,
          delaySeconds: 91,
        });
        expect(received()).toBe(before);
      }),
    });
    expect(await deliverMessage(deps, event, 1)).toMatchObject({ result: 'delivered' });
    expect(lease).toBe(new Date(Date.parse(START) + 90_000).toISOString());
  });

  it('to an endpoint disabled or deleted meanwhile the message fails at once, with no request', async () => {
    clock.set(START);
    for (const end of ['disable', 'delete'] as const) {
      const { t, endpoint, event } = await oneMessage();
      if (end === 'disable')
        await updateEndpoint(h.deps.api, owner(t), t.id, endpoint.id, { enabled: false });
      else await deleteEndpoint(h.deps.api, owner(t), t.id, endpoint.id);
      const before = received();
      expect(await deliverMessage(h.deps.delivery(), event, 1)).toEqual({
        result: 'failed',
        message_id: event.payload.message_id,
        error_code: 'endpoint_disabled',
      });
      expect(received()).toBe(before);
      expect(await messageOf(t.id, event.payload.message_id as string)).toMatchObject({
        status: 'failed',
        next_attempt_at: null,
        lease_until: null,
        attempts: [],
      });
    }
  });
});

describe('signing', () => {
  it('the secret before stops signing at the very end of the overlap', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    await rotateSecret(h.deps.api, owner(t), t.id, endpoint.id);
    clock.set((await endpointOf(t.id, endpoint.id)).previous_secret_until!);
    h.rx.received.length = 0;
    await deliverMessage(h.deps.delivery(), event, 1);
    expect(String(h.rx.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(1);
  });

  it('signs with the secrets storage has: the one before missing, the current alone; none, no send', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    await rotateSecret(h.deps.api, owner(t), t.id, endpoint.id);
    h.secrets.entries.delete(`${t.id}/webhook_endpoint/${endpoint.id}/v1`);
    h.rx.received.length = 0;
    expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({ result: 'delivered' });
    expect(String(h.rx.received[0]!.headers['webhook-signature']).split(' ')).toHaveLength(1);

    const next = await oneMessage();
    h.secrets.entries.delete(`${next.t.id}/webhook_endpoint/${next.endpoint.id}/v1`);
    await expect(deliverMessage(h.deps.delivery(), next.event, 1)).rejects.toThrow(
      `webhook endpoint ${next.endpoint.id} has no secret in storage`,
    );
    expect(h.rx.received).toHaveLength(1);
  });
});

describe('outcomes', () => {
  it('a 300 answer is no delivery: the message retries', async () => {
    clock.set(START);
    const { event } = await oneMessage();
    h.rx.answer(300);
    expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({
      result: 'retrying',
      status_code: 300,
      error_code: 'redirect_300',
    });
  });

  it('429 or 503 without a Retry-After follows the schedule', () => {
    expect(nextWait(1, 429, null, () => 0)).toBe(5);
    expect(nextWait(2, 503, null, () => 0)).toBe(300);
  });

  it('a resent message gets a whole new round of attempts', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    const id = event.payload.message_id as string;
    h.rx.always(500);
    for (let i = 0; i < MAX_ATTEMPTS; i++)
      clock.add((await deliverMessage(h.deps.delivery(), event, 1)).delaySeconds ?? 0);
    expect(await messageOf(t.id, id)).toMatchObject({ status: 'failed' });
    await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id);
    const again = (await h.outboxOf(t.id)).at(-1)!;
    // Past the failing endpoint's probe slot that the last attempt held.
    clock.add(10);
    expect(await deliverMessage(h.deps.delivery(), again, 1)).toMatchObject({ result: 'retrying' });
    h.rx.always(200);
  });

  it('a run of failures starts at its first attempt, is written once, and a delivery ends it', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    const healthy = await endpointOf(t.id, endpoint.id);
    h.rx.answer(200);
    await deliverMessage(h.deps.delivery(), event, 1);
    // A delivery to a healthy endpoint does not write it.
    expect(await endpointOf(t.id, endpoint.id)).toEqual(healthy);

    clock.add(60);
    const first = await oneMessage();
    h.rx.answer(500);
    await deliverMessage(h.deps.delivery(), first.event, 1);
    const failing = await endpointOf(first.t.id, first.endpoint.id);
    expect(failing).toMatchObject({ failing_since: clock.now().toISOString(), status: 'active' });
    clock.add(DAY_S);
    h.rx.answer(500);
    await deliverMessage(h.deps.delivery(), first.event, 2);
    expect(await endpointOf(first.t.id, first.endpoint.id)).toEqual(failing);
    clock.add(DAY_S);
    h.rx.answer(200);
    await deliverMessage(h.deps.delivery(), first.event, 3);
    expect(await endpointOf(first.t.id, first.endpoint.id)).toMatchObject({
      failing_since: null,
      updated_at: clock.now().toISOString(),
    });
  });

  it('a wait the queue carries arms no timer; a delivery none either; a longer one a webhook_retry', async () => {
    clock.set(START);
    const timersOf = async (tenantId: string) =>
      (await timerStore(h.db).list(tenantId, { kind: 'webhook_retry' }, { limit: 10 })).items;
    const carried = await oneMessage();
    h.rx.answer(500);
    expect(await deliverMessage(h.deps.delivery(), carried.event, 1)).toMatchObject({ delaySeconds: 5 });
    expect(await timersOf(carried.t.id)).toEqual([]);
    const delivered = await oneMessage();
    h.rx.answer(200);
    expect(
      await deliverMessage(h.deps.delivery({ queueCarries: () => false }), delivered.event, 1),
    ).toMatchObject({ result: 'delivered' });
    expect(await timersOf(delivered.t.id)).toEqual([]);
    const timed = await oneMessage();
    h.rx.answer(500);
    await deliverMessage(h.deps.delivery({ queueCarries: () => false }), timed.event, 1);
    expect(await timersOf(timed.t.id)).toEqual([
      expect.objectContaining({
        kind: 'webhook_retry',
        subject_type: 'webhook_message',
        subject_id: timed.event.payload.message_id,
      }),
    ]);
  });
});

describe('disabling', () => {
  const reviewOf = async (tenantId: string) =>
    (await notificationStore(h.db).listReviewItems(tenantId, {}, { limit: 9 })).items;
  const disabledEvent = async (tenantId: string, id: string) =>
    (
      await auditStore(h.db).list(tenantId, { entity_type: 'webhook_endpoint', entity_id: id }, { limit: 9 })
    ).items.find((a) => a.event_type === 'webhook_endpoint.disabled');

  it('410 and 5 days of failure each say why, in the review item and the audit event', async () => {
    clock.set(START);
    const gone = await oneMessage();
    h.rx.answer(410);
    await deliverMessage(h.deps.delivery(), gone.event, 1);
    expect(await reviewOf(gone.t.id)).toEqual([
      expect.objectContaining({
        detail: 'The endpoint answered 410 Gone; re-enable it with PATCH {"enabled": true}.',
      }),
    ]);
    expect(JSON.parse((await disabledEvent(gone.t.id, gone.endpoint.id))!.metadata_json!)).toEqual({
      reason: 'gone',
    });

    const failing = await oneMessage();
    h.rx.answer(500);
    await deliverMessage(h.deps.delivery(), failing.event, 1);
    clock.add(5 * DAY_S);
    h.rx.answer(500);
    expect(await deliverMessage(h.deps.delivery(), failing.event, 2)).toMatchObject({ disabled: 'failing' });
    expect(await reviewOf(failing.t.id)).toEqual([
      expect.objectContaining({
        detail: 'Every attempt failed for 5 days; re-enable it with PATCH {"enabled": true}.',
      }),
    ]);
    expect(JSON.parse((await disabledEvent(failing.t.id, failing.endpoint.id))!.metadata_json!)).toEqual({
      reason: 'failing',
    });
  });

  it('an endpoint changed during the attempt keeps the change: the attempt is recorded, nothing disabled', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    h.rx.answer(410);
    const deps = h.deps.delivery({
      sender: sendingWhile(async () => {
        clock.add(1);
        await updateEndpoint(h.deps.api, owner(t), t.id, endpoint.id, { description: 'renamed meanwhile' });
      }),
    });
    const out = await deliverMessage(deps, event, 1);
    expect(out).toMatchObject({ result: 'failed', status_code: 410 });
    expect(out).not.toHaveProperty('disabled');
    expect(await endpointOf(t.id, endpoint.id)).toMatchObject({
      status: 'active',
      description: 'renamed meanwhile',
    });
    expect(await messageOf(t.id, event.payload.message_id as string)).toMatchObject({
      status: 'failed',
      attempts: [expect.objectContaining({ status_code: 410 })],
    });
    expect(await reviewOf(t.id)).toEqual([]);
  });
});

describe('an attempt that outlived its lease', () => {
  it('loses its outcome to the attempt that claimed after it', async () => {
    clock.set(START);
    const { t, event } = await oneMessage();
    const id = event.payload.message_id as string;
    let later: Awaited<ReturnType<typeof deliverMessage>> | undefined;
    const deps: DeliveryDeps = h.deps.delivery({
      sender: sendingWhile(async () => {
        clock.add(61);
        later = await deliverMessage(h.deps.delivery(), event, 2);
      }),
    });
    h.rx.received.length = 0;
    expect(await deliverMessage(deps, event, 1)).toEqual({ result: 'skipped', message_id: id });
    expect(later).toMatchObject({ result: 'delivered' });
    expect(h.rx.received).toHaveLength(2);
    const m: StoredMessage = await messageOf(t.id, id);
    expect(m).toMatchObject({
      status: 'delivered',
      attempts: [expect.objectContaining({ status_code: 200 })],
    });
  });
});
