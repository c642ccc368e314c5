import { describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import { endpointReviewStore } from '#functions/adapters/webhook-endpoint-review';
import { notificationStore } from '#functions/adapters/notification-store';
import { webhookFanOut, webhookHandlers } from '#functions/workers/webhooks';
import { deliverMessage, MAX_ATTEMPTS } from '#shared/domain/webhooks/delivery';
import { rotateSecret } from '#shared/domain/webhooks/endpoints';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { listMessages, recoverMessages, resendMessage } from '#shared/domain/webhooks/messages';
import { decideEndpointReview } from '#shared/domain/webhooks/review';
import { EVENT_KINDS } from '#shared/kernel/names';
import { NotFoundError, ValidationError } from '#shared/kernel/errors';
import { captureLogLines } from '#tests/support/logs';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * Webhook endpoints disabled and their delivery log on DynamoDB Local against a loopback receiver
 * (docs/api.md, "Event subscriptions"): 410 and 5 days of failure disable with notice and a
 * review item; the status filter, resend and recover; and no secret in a read, a log line, the
 * audit log or the attempt log. The fan-out, signatures and retries: webhook-delivery.test.ts.
 */

const h = webhookHarness();
const { clock, shown, owner, setup, outboxOf, change, oneMessage } = h;
const START = WEBHOOK_START;

describe('disabling', () => {
  it('410 disables at once, with webhook_endpoint.disabled and a webhook_endpoint review item', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    h.rx.answer(410);
    expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({
      result: 'failed',
      disabled: 'gone',
    });
    expect(await h.deps.api.endpoints.get(t.id, endpoint.id)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'gone',
    });
    const events = (
      await auditStore(h.db).list(
        t.id,
        { entity_type: 'webhook_endpoint', entity_id: endpoint.id },
        { limit: 9 },
      )
    ).items;
    expect(events.map((e) => e.event_type)).toContain('webhook_endpoint.disabled');
    const reviews = (await notificationStore(h.db).listReviewItems(t.id, {}, { limit: 9 })).items;
    expect(reviews).toEqual([
      expect.objectContaining({
        kind: 'webhook_endpoint',
        subject_id: endpoint.id,
        reason: 'endpoint_disabled',
      }),
    ]);
    // The one review queue: retry re-enables the endpoint; a second decision is refused.
    const review = { endpoints: endpointReviewStore(h.db), clock };
    expect(await decideEndpointReview(review, owner(t), reviews[0]!, { action: 'retry' })).toMatchObject({
      status: 'retried',
    });
    expect(await h.deps.api.endpoints.get(t.id, endpoint.id)).toMatchObject({
      status: 'active',
      failing_since: null,
    });
    await expect(
      decideEndpointReview(review, owner(t), reviews[0]!, { action: 'discard' }),
    ).rejects.toThrow();
  });

  it('an endpoint whose attempts all failed for 5 days is disabled', async () => {
    clock.set(START);
    const {
      t,
      endpoints: [endpoint],
    } = await setup();
    h.rx.always(500);
    for (const day of [0, 2, 4, 5]) {
      clock.set(new Date(Date.parse(START) + day * 86_400_000).toISOString());
      await fanOut(h.deps.fanOut, change(t.id));
      const events = await outboxOf(t.id);
      const latest = events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at)).at(-1)!;
      const out = await deliverMessage(h.deps.delivery(), latest, 1);
      expect(out.disabled).toBe(day === 5 ? 'failing' : undefined);
    }
    h.rx.always(200);
    expect(await h.deps.api.endpoints.get(t.id, endpoint!.id)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'failing',
    });
  });
});

describe('log, resend, recover', () => {
  it('filters by status, resends one, recovers failed ones since a time, refuses other endpoints and > 30 days', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    const other = await setup();
    h.rx.always(400);
    for (let i = 0; i < MAX_ATTEMPTS; i++)
      clock.add((await deliverMessage(h.deps.delivery(), event, 1)).delaySeconds ?? 0);
    h.rx.always(200);
    // A minute on, not back to the start: the endpoint is failing, and its last attempt's probe
    // slot holds until the sender's deadline after it (a clock set back would find it still held).
    clock.add(60);
    const failed = await listMessages(h.deps.log, t.id, endpoint.id, 'failed', { limit: 10 });
    expect(failed.items.map((m) => m.id)).toEqual([event.payload.message_id]);
    expect((await listMessages(h.deps.log, t.id, endpoint.id, 'delivered', { limit: 10 })).items).toEqual([]);
    const id = event.payload.message_id as string;
    await expect(
      resendMessage(h.deps.log, owner(other.t), other.t.id, other.endpoints[0]!.id, id),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      recoverMessages(
        h.deps.log,
        owner(t),
        t.id,
        endpoint.id,
        new Date(Date.parse(START) - 31 * 86_400_000).toISOString(),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(
      await recoverMessages(
        h.deps.log,
        owner(t),
        t.id,
        endpoint.id,
        new Date(Date.parse(START) - 3600_000).toISOString(),
      ),
    ).toEqual({ queued: 1 });
    const [requeued] = (await outboxOf(t.id)).filter((e) => e.event_id !== event.event_id);
    expect(await deliverMessage(h.deps.delivery(), requeued!, 1)).toMatchObject({ result: 'delivered' });
    expect(await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id)).toEqual({ message_id: id });
    const m = await h.deps.log.messages.get(t.id, id);
    expect(m).toMatchObject({ status: 'pending', round_start: MAX_ATTEMPTS + 1 });
    // Each request that queued messages wrote its audit event.
    const audited = await auditStore(h.db).list(t.id, {}, { limit: 50 });
    expect(audited.items.map((a) => a.event_type)).toEqual(
      expect.arrayContaining(['webhook_endpoint.recovered', 'webhook_message.resent']),
    );
  });
});

describe('secrets', () => {
  it('appear in no read, log line, audit event or attempt of a whole run', async () => {
    clock.set(START);
    const lines = captureLogLines();
    const {
      t,
      endpoints: [endpoint],
    } = await setup(['*']);
    const { secret } = await rotateSecret(h.deps.api, owner(t), t.id, endpoint!.id);
    shown.push(secret);
    await webhookFanOut(h.deps.fanOut)(change(t.id));
    const handle = webhookHandlers(h.deps.delivery(), {} as never, '')[EVENT_KINDS.webhookDeliveryRequested];
    for (const e of await outboxOf(t.id))
      await handle(e, { attributes: { ApproximateReceiveCount: '1' }, receiptHandle: 'r' } as never);
    const reads = JSON.stringify([
      await h.deps.api.endpoints.list(t.id, { limit: 50 }).then((p) => p.items),
      await listMessages(h.deps.log, t.id, endpoint!.id, undefined, { limit: 50 }),
    ]);
    const auditLog = JSON.stringify(await auditStore(h.db).list(t.id, {}, { limit: 100 }));
    expect(lines.length).toBeGreaterThan(0);
    for (const s of shown) {
      const key = s.slice(6);
      for (const text of [reads.replace(/"secret_version":\d+/g, ''), JSON.stringify(lines), auditLog]) {
        expect(text).not.toContain(key);
      }
    }
  });
});
