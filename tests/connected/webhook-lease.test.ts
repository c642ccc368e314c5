import { describe, expect, it } from 'vitest';
import { deliverMessage } from '#shared/domain/webhooks/delivery';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * A copy that finds a live claim on its message (docs/decisions.md, "One attempt per queue
 * message, claimed first"). The claim may be its own: written, but its answer lost to a timeout,
 * so the copy failed and came back while the lease still runs. It must look again after the
 * lease, not be dropped: dropped, the message would stay pending with no copy left to send it.
 */

const h = webhookHarness();

describe('a copy that meets a live claim', () => {
  it('waits for the lease to end and then sends, where the claim that holds it was its own and lost', async () => {
    h.clock.set(WEBHOOK_START);
    const { t, event } = await h.oneMessage();
    const id = event.payload.message_id as string;
    const base = h.deps.delivery({});
    // The claim is written, then the call "times out": the copy fails before any request.
    const lost = {
      ...base,
      messages: {
        ...base.messages,
        claim: async (...args: Parameters<typeof base.messages.claim>) => {
          await base.messages.claim(...args);
          throw new Error('socket timeout after the write');
        },
      },
    };
    h.rx.answer(200);
    await expect(deliverMessage(lost, event, 1)).rejects.toThrow('socket timeout');
    const claimed = await h.deps.log.messages.get(t.id, id);
    expect(claimed).toMatchObject({ status: 'pending', attempts: [] });
    expect(claimed!.lease_until).not.toBeNull();

    // The copy comes back 30 s later (the local queue's visibility), inside the 60 s lease.
    h.clock.add(30);
    const leaseLeft = (Date.parse(claimed!.lease_until!) - h.clock.now().getTime()) / 1000;
    expect(await deliverMessage(base, event, 2)).toEqual({
      result: 'deferred',
      message_id: id,
      delaySeconds: Math.ceil(leaseLeft) + 1,
    });
    expect(h.rx.received).toHaveLength(0);

    // After the lease it sends, once.
    h.clock.add(leaseLeft + 1);
    expect(await deliverMessage(base, event, 3)).toMatchObject({ result: 'delivered' });
    expect(h.rx.received).toHaveLength(1);
    expect(await h.deps.log.messages.get(t.id, id)).toMatchObject({ status: 'delivered' });
  });
});
