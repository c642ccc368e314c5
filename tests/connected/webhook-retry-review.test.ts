import { describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import { endpointReviewStore } from '#functions/adapters/webhook-endpoint-review';
import { notificationStore } from '#functions/adapters/notification-store';
import { timerStore } from '#functions/adapters/timer-store';
import { deliverMessage } from '#shared/domain/webhooks/delivery';
import { queued } from '#shared/domain/webhooks/messages';
import type { StoredMessage } from '#shared/domain/webhooks/ports';
import { fireWebhookRetry } from '#shared/domain/webhooks/retry';
import { decideEndpointReview } from '#shared/domain/webhooks/review';
import { InvalidTransitionError } from '#shared/kernel/errors';
import { newId } from '#shared/kernel/ids';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * The `webhook_retry` timer's firing and the decision on a disabled endpoint's review item, on
 * DynamoDB Local against a loopback receiver (docs/decisions.md, "Webhook retries beyond the
 * queue"; docs/api.md, "Event subscriptions"): a timer whose message moved on queues nothing,
 * and `discard` leaves the endpoint disabled where `retry` re-enables it.
 */

const h = webhookHarness();
const { clock, owner, outboxOf, oneMessage } = h;

/** A message whose first attempt failed with a wait the queue could not carry: retrying, with its timer. */
async function retryingWithTimer() {
  clock.set(WEBHOOK_START);
  const { t, event } = await oneMessage();
  h.rx.answer(500);
  await deliverMessage(h.deps.delivery({ queueCarries: () => false }), event, 1);
  const [timer] = (await timerStore(h.db).list(t.id, { kind: 'webhook_retry' }, { limit: 10 })).items;
  const m = (await h.deps.log.messages.get(t.id, event.payload.message_id as string))!;
  expect(m).toMatchObject({ status: 'retrying', next_attempt_at: timer!.due_at });
  clock.set(timer!.due_at);
  return { t, event, timer: timer!, m };
}

const fire = (timer: Parameters<typeof fireWebhookRetry>[1], messages = h.deps.log.messages) =>
  fireWebhookRetry({ messages, clock }, timer);

describe('the webhook_retry timer', () => {
  it('queues the attempt of a message still waiting for it, once per firing', async () => {
    const { t, timer } = await retryingWithTimer();
    const before = (await outboxOf(t.id)).length;
    expect(await fire(timer)).toBe('written');
    const after = await outboxOf(t.id);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.payload).toEqual({ message_id: timer.subject_id, endpoint_id: expect.any(String) });
  });

  it('is stale for a message gone or due at another time; a requeued one at its time makes one attempt', async () => {
    const { t, timer, m } = await retryingWithTimer();
    const count = async () => (await outboxOf(t.id)).length;
    const before = await count();
    // Its message expired (TTL) or never was.
    expect(await fire({ ...timer, subject_id: newId() })).toBe('stale');
    // Its message waits for another time: this firing is not its attempt.
    expect(await fire({ ...timer, due_at: new Date(Date.parse(timer.due_at) + 1000).toISOString() })).toBe(
      'stale',
    );
    // A recover or resend put it back to pending at the very time the timer was due. A pending
    // message at the timer's time is also one whose early first copy waits on the timer, so the
    // firing queues it once more; the two copies make one attempt (the claim decides).
    const pending: StoredMessage = { ...m, status: 'pending', round_start: m.attempts.length };
    expect(await h.deps.log.messages.requeue(queued(clock, pending), m)).toBe(true);
    const queuedOnce = await count();
    expect(queuedOnce).toBe(before + 1);
    expect(await fire(timer)).toBe('written');
    expect(await count()).toBe(queuedOnce + 1);
    const copies = (await outboxOf(t.id)).slice(-2);
    h.rx.always(200);
    const sentBefore = h.rx.received.length;
    const outcomes = await Promise.all(copies.map((e) => deliverMessage(h.deps.delivery(), e, 1)));
    expect(outcomes.filter((o) => o.result === 'delivered')).toHaveLength(1);
    expect(h.rx.received.length - sentBefore).toBe(1);
  });

  it('is stale once the message was delivered', async () => {
    const { t, timer } = await retryingWithTimer();
    expect(await fire(timer)).toBe('written');
    const [again] = (await outboxOf(t.id)).filter((e) => e.payload.message_id === timer.subject_id).slice(-1);
    expect(await deliverMessage(h.deps.delivery(), again!, 1)).toMatchObject({ result: 'delivered' });
    const before = (await outboxOf(t.id)).length;
    expect(await fire(timer)).toBe('stale');
    expect((await outboxOf(t.id)).length).toBe(before);
  });

  it('is a duplicate when an attempt was recorded between its read and its write', async () => {
    const { t, timer } = await retryingWithTimer();
    const store = h.deps.log.messages;
    const racing = {
      ...store,
      async get(tenantId: string, id: string) {
        const read = (await store.get(tenantId, id))!;
        const attempt = { ...read.attempts[0]!, at: clock.now().toISOString() };
        await store.settle({
          message: { ...read, attempts: [...read.attempts, attempt] },
          claimedAttempts: read.attempts.length,
          timer: null,
          endpoint: null,
        });
        return read;
      },
    };
    const before = (await outboxOf(t.id)).length;
    expect(await fire(timer, racing)).toBe('duplicate');
    expect((await outboxOf(t.id)).length).toBe(before);
  });
});

describe('the review item of a disabled endpoint', () => {
  async function disabledBy410() {
    clock.set(WEBHOOK_START);
    const { t, endpoint, event } = await oneMessage();
    h.rx.answer(410);
    await deliverMessage(h.deps.delivery(), event, 1);
    const [review] = (await notificationStore(h.db).listReviewItems(t.id, {}, { limit: 9 })).items;
    return { t, endpoint, review: review! };
  }
  const deps = () => ({ endpoints: endpointReviewStore(h.db), clock });

  it('discard leaves the endpoint disabled, audited as the action on that endpoint', async () => {
    const { t, endpoint, review } = await disabledBy410();
    clock.add(60);
    expect(await decideEndpointReview(deps(), owner(t), review, { action: 'discard' })).toMatchObject({
      status: 'discarded',
    });
    expect(await h.deps.api.endpoints.get(t.id, endpoint.id)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'gone',
      enabled: false,
    });
    const [decided] = (
      await auditStore(h.db).list(t.id, { entity_type: 'review_item', entity_id: review.id }, { limit: 9 })
    ).items;
    expect(decided).toMatchObject({
      event_type: 'review_item.decided',
      summary: `discard webhook endpoint ${endpoint.id}`,
    });
  });

  it('a decision on an item decided meanwhile is refused, saying why', async () => {
    const { t, endpoint, review } = await disabledBy410();
    await decideEndpointReview(deps(), owner(t), review, { action: 'retry' });
    expect(await h.deps.api.endpoints.get(t.id, endpoint.id)).toMatchObject({
      enabled: true,
      status: 'active',
      disabled_reason: null,
    });
    const err = await decideEndpointReview(deps(), owner(t), review, { action: 'retry' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InvalidTransitionError);
    expect((err as Error).message).toBe('The review item changed meanwhile, or its endpoint was deleted.');
  });
});
