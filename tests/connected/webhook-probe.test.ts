import { describe, expect, it } from 'vitest';
import { timerStore } from '#functions/adapters/timer-store';
import { DEFERRED_WAIT_S, deliverMessage } from '#shared/domain/webhooks/delivery';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * A failing endpoint takes one attempt at a time (docs/decisions.md, "Fairness"): while an
 * attempt holds its probe slot, its other messages wait without an attempt (deferred on the
 * queue, or as the retry timer), so that one tenant's hanging endpoint cannot fill every worker.
 * A healthy endpoint has no slot; a delivery ends the failing run and frees it at once.
 */

const h = webhookHarness();

describe('the probe slot of a failing endpoint', () => {
  it('defers other messages while an attempt holds it, and is gone once the endpoint delivers', async () => {
    h.clock.set(WEBHOOK_START);
    const { t, endpoints } = await h.setup();
    const endpointId = endpoints[0]!.id;
    for (let i = 0; i < 4; i++) await fanOut(h.deps.fanOut, h.change(t.id));
    const [first, second, third, fourth] = await h.outboxOf(t.id);
    const delivery = h.deps.delivery({ probeSeconds: 3 });
    h.rx.received.length = 0;

    // Healthy: no slot. The failure starts the endpoint's failing run.
    h.rx.answer(500);
    expect(await deliverMessage(delivery, first!, 1)).toMatchObject({ result: 'retrying' });
    expect((await h.deps.api.endpoints.get(t.id, endpointId))!.failing_since).toBe(WEBHOOK_START);

    // Failing: the next attempt takes the slot; the one after waits for it, without a request.
    h.rx.answer(500);
    expect(await deliverMessage(delivery, second!, 1)).toMatchObject({ result: 'retrying' });
    expect(await deliverMessage(delivery, third!, 1)).toEqual({
      result: 'deferred',
      message_id: third!.payload.message_id,
      delaySeconds: DEFERRED_WAIT_S,
    });
    expect(h.rx.received).toHaveLength(2);
    const waiting = await h.deps.log.messages.get(t.id, third!.payload.message_id as string);
    expect(waiting).toMatchObject({ status: 'pending', attempts: [], lease_until: null });

    // The slot runs out after the sender's deadline: the waiting message is the next probe, and
    // its delivery ends the failing run, so the next message goes at once.
    h.clock.add(4);
    h.rx.answer(200);
    expect(await deliverMessage(delivery, third!, 2)).toMatchObject({ result: 'delivered' });
    expect((await h.deps.api.endpoints.get(t.id, endpointId))!.failing_since).toBeNull();
    h.rx.answer(200);
    expect(await deliverMessage(delivery, fourth!, 1)).toMatchObject({ result: 'delivered' });
    expect(h.rx.received).toHaveLength(4);
    expect(await h.deps.api.endpoints.get(t.id, endpointId)).not.toHaveProperty('probe_until');
  });

  it('defers by the retry timer when the queue message has no receives to spare', async () => {
    h.clock.set(WEBHOOK_START);
    const { t } = await h.setup();
    for (let i = 0; i < 3; i++) await fanOut(h.deps.fanOut, h.change(t.id));
    const [first, second, third] = await h.outboxOf(t.id);
    const delivery = h.deps.delivery({ probeSeconds: 3, queueCarries: (receives) => receives < 4 });
    h.rx.answer(500);
    await deliverMessage(delivery, first!, 1);
    h.rx.answer(500);
    await deliverMessage(delivery, second!, 1);
    expect(await deliverMessage(delivery, third!, 4)).toEqual({
      result: 'deferred',
      message_id: third!.payload.message_id,
    });
    const timers = (await timerStore(h.db).list(t.id, { kind: 'webhook_retry' }, { limit: 10 })).items;
    expect(timers).toEqual([
      expect.objectContaining({ subject_id: third!.payload.message_id, due_at: WEBHOOK_START }),
    ]);
  });
});
