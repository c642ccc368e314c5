import { describe, expect, it } from 'vitest';
import { auditStore } from '#functions/adapters/audit-store';
import { deliverMessage } from '#shared/domain/webhooks/delivery';
import { createEndpoint, updateEndpoint } from '#shared/domain/webhooks/endpoints';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { listMessages, recoverMessages, resendMessage, testEndpoint } from '#shared/domain/webhooks/messages';
import { ConflictError, NotFoundError, ValidationError } from '#shared/kernel/errors';
import { newId } from '#shared/kernel/ids';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * The fan-out's choice of subscribers and the delivery log's requests (test send, resend,
 * recover) on DynamoDB Local (docs/api.md, "Event subscriptions"): which changes make messages,
 * what a message and its delivery event carry, and what each request refuses and audits.
 */

const h = webhookHarness();
const { clock, owner, setup, outboxOf, change, oneMessage } = h;
const START = WEBHOOK_START;
const DAY_S = 86_400;

async function audited(tenantId: string, entityType: string, entityId: string) {
  const filter = { entity_type: entityType, entity_id: entityId };
  const { items } = await auditStore(h.db).list(tenantId, filter, { limit: 50 });
  return items.map((a) => ({
    event_type: a.event_type,
    summary: a.summary,
    metadata: a.metadata_json === null ? null : (JSON.parse(a.metadata_json) as unknown),
  }));
}

/** A message of the endpoint ended `failed` in one attempt: delivered while the endpoint was disabled. */
async function failedMessage() {
  const { t, endpoint, event } = await oneMessage();
  await updateEndpoint(h.deps.api, owner(t), t.id, endpoint.id, { enabled: false });
  expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({ result: 'failed' });
  await updateEndpoint(h.deps.api, owner(t), t.id, endpoint.id, { enabled: true });
  return { t, endpoint, event, id: event.payload.message_id as string };
}

describe('fan-out', () => {
  it('an endpoint with several types gets a message for each of them', async () => {
    clock.set(START);
    const { t } = await setup(['task.overdue', 'exception.created']);
    expect(await fanOut(h.deps.fanOut, change(t.id, 'exception.created'))).toBe(1);
    expect(await fanOut(h.deps.fanOut, change(t.id, 'task.overdue'))).toBe(1);
  });

  it('makes no message for webhook.test from a change, for an unknown type, or where nobody subscribes', async () => {
    clock.set(START);
    const { t } = await setup(['*']);
    const event = change(t.id);
    for (const type of ['webhook.test', 'exception.exploded'])
      expect(await fanOut(h.deps.fanOut, { ...event, payload: { ...event.payload, event_type: type } })).toBe(
        0,
      );
    expect(await outboxOf(t.id)).toEqual([]);
    const nobody = await setup(['task.overdue']);
    expect(await fanOut(h.deps.fanOut, change(nobody.t.id))).toBe(0);
    expect(await outboxOf(nobody.t.id)).toEqual([]);
  });

  it('a message is kept 30 days; its delivery event is keyed by the message and its attempts so far', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    const id = event.payload.message_id as string;
    expect((await h.deps.log.messages.get(t.id, id))!.ttl).toBe(Date.parse(START) / 1000 + 30 * DAY_S);
    expect(event).toMatchObject({
      idempotency_key: `webhook-delivery:${t.id}:${id}:0`,
      payload: { message_id: id, endpoint_id: endpoint.id },
    });
    await deliverMessage(h.deps.delivery(), event, 1);
    await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id);
    const [again] = (await outboxOf(t.id)).filter((e) => e.event_id !== event.event_id);
    expect(again!.idempotency_key).toBe(`webhook-delivery:${t.id}:${id}:1`);
  });
});

describe('test send', () => {
  it('queues webhook.test with its data now, answers its id and audits it on the endpoint', async () => {
    clock.set(START);
    const {
      t,
      endpoints: [endpoint],
    } = await setup(['task.overdue']);
    const out = await testEndpoint(h.deps.log, owner(t), t.id, endpoint!.id);
    const m = (await h.deps.log.messages.get(t.id, out.message_id))!;
    expect(out).toEqual({ message_id: m.id });
    expect(JSON.parse(m.body)).toEqual({
      type: 'webhook.test',
      timestamp: START,
      data: { endpoint_id: endpoint!.id, message: 'A test message from ops-platform.', sent_at: START },
    });
    expect(await audited(t.id, 'webhook_endpoint', endpoint!.id)).toContainEqual({
      event_type: 'webhook_endpoint.tested',
      summary: 'webhook_endpoint tested',
      metadata: { message_id: m.id },
    });
  });
});

describe('resend', () => {
  it('is 404 for a message not there or of another endpoint, and for an endpoint not there', async () => {
    clock.set(START);
    const { t, endpoint, id } = await failedMessage();
    // Another endpoint's message is not this endpoint's, even in the same tenant.
    await createEndpoint(h.deps.api, owner(t), t.id, {
      url: h.rx.url,
      description: null,
      event_types: ['exception.created'],
      enabled: true,
    });
    await fanOut(h.deps.fanOut, change(t.id));
    const sibling = (await outboxOf(t.id)).find((e) => e.payload.endpoint_id !== endpoint.id);
    await expect(
      resendMessage(h.deps.log, owner(t), t.id, endpoint.id, sibling!.payload.message_id as string),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(resendMessage(h.deps.log, owner(t), t.id, endpoint.id, newId())).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(resendMessage(h.deps.log, owner(t), t.id, newId(), id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(listMessages(h.deps.log, t.id, newId(), undefined, { limit: 5 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('sends a pending or retrying message now, with a fresh retry schedule (202, as for any message)', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    const id = event.payload.message_id as string;
    expect(await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id)).toEqual({ message_id: id });
    h.rx.answer(500);
    expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({ result: 'retrying' });
    expect(await h.deps.log.messages.get(t.id, id)).toMatchObject({ status: 'retrying', round_start: 0 });

    clock.add(1);
    expect(await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id)).toEqual({ message_id: id });
    expect(await h.deps.log.messages.get(t.id, id)).toMatchObject({
      status: 'pending',
      next_attempt_at: clock.now().toISOString(),
      round_start: 1,
    });
    const copies = (await outboxOf(t.id)).filter((e) => e.payload.message_id === id);
    const resent = copies.at(-1)!;
    // Sent at once, not at the retry time the failed attempt set (5 s on).
    expect(await deliverMessage(h.deps.delivery(), resent, 1)).toMatchObject({ result: 'delivered' });
    // The copy that waited for the retry finds the message delivered.
    clock.add(10);
    expect(await deliverMessage(h.deps.delivery(), event, 2)).toMatchObject({ result: 'skipped' });
    expect((await h.deps.log.messages.get(t.id, id))!.attempts.map((a) => a.status_code)).toEqual([500, 200]);
  });

  it('of a message whose attempt is in flight waits for it: never two attempts at once, the resend kept', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    const id = event.payload.message_id as string;
    let inFlight = 0;
    let most = 0;
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const real = h.deps.delivery().sender;
    const counted = (hold: boolean): typeof real => ({
      async send(...args) {
        most = Math.max(most, ++inFlight);
        try {
          if (!hold) return await real.send(...args);
          entered();
          await held;
          return { status_code: 500, duration_ms: 1, error_code: null, retry_after_s: null };
        } finally {
          inFlight--;
        }
      },
    });

    const first = deliverMessage(h.deps.delivery({ sender: counted(true) }), event, 1);
    await started;
    clock.add(1);
    expect(await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id)).toEqual({ message_id: id });
    const resent = (await outboxOf(t.id)).filter((e) => e.payload.message_id === id).at(-1)!;
    // The resend's copy meets the live claim: it waits on the queue, sending nothing.
    const waiting = await deliverMessage(h.deps.delivery({ sender: counted(false) }), resent, 1);
    expect(waiting).toMatchObject({ result: 'deferred' });
    expect(waiting.delaySeconds).toBeGreaterThan(0);

    release();
    // The attempt in flight joins the log; its failure does not put the resend off to a retry time.
    expect(await first).toMatchObject({ result: 'resent', status_code: 500 });
    const afterFirst = await h.deps.log.messages.get(t.id, id);
    expect(afterFirst).toMatchObject({ status: 'pending', round_start: 1, lease_until: null });
    expect(afterFirst!.attempts).toHaveLength(1);

    clock.add(waiting.delaySeconds!);
    expect(await deliverMessage(h.deps.delivery({ sender: counted(false) }), resent, 2)).toMatchObject({
      result: 'delivered',
    });
    expect(most).toBe(1);
    expect((await h.deps.log.messages.get(t.id, id))!.attempts.map((a) => a.status_code)).toEqual([500, 200]);
  });

  it('is audited on the message with its endpoint', async () => {
    clock.set(START);
    const { t, endpoint, id } = await failedMessage();
    expect(await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id)).toEqual({ message_id: id });
    expect(await audited(t.id, 'webhook_message', id)).toEqual([
      {
        event_type: 'webhook_message.resent',
        summary: 'webhook_message resent',
        metadata: { endpoint_id: endpoint.id },
      },
    ]);
  });

  it('that lost a race to another resend is 409', async () => {
    clock.set(START);
    const { t, endpoint, id } = await failedMessage();
    const store = h.deps.log.messages;
    const racing = {
      ...h.deps.log,
      messages: {
        ...store,
        async get(tenantId: string, messageId: string) {
          const read = await store.get(tenantId, messageId);
          await resendMessage(h.deps.log, owner(t), tenantId, endpoint.id, messageId);
          return read;
        },
      },
    };
    await expect(resendMessage(racing, owner(t), t.id, endpoint.id, id)).rejects.toThrow(
      new ConflictError('The message changed meanwhile; read it again.'),
    );
    expect(await audited(t.id, 'webhook_message', id)).toHaveLength(1);
  });
});

describe('recover', () => {
  it('reaches back exactly 30 days, not a millisecond more, and audits what it found', async () => {
    clock.set(START);
    const { t, endpoint } = await failedMessage();
    clock.add(30 * DAY_S - 3600);
    const since = new Date(Date.parse(START) - 3600_000).toISOString();
    const tooOld = new Date(Date.parse(since) - 1).toISOString();
    const err = await recoverMessages(h.deps.log, owner(t), t.id, endpoint.id, tooOld).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      { path: 'since', code: 'too_old', message: 'must be at most 30 days back' },
    ]);
    // A future `since` is 422 too, and queues nothing: the failed message is still there for the next call.
    for (const future of [new Date(clock.now().getTime() + 1).toISOString(), '2999-01-01T00:00:00Z']) {
      const ahead = await recoverMessages(h.deps.log, owner(t), t.id, endpoint.id, future).catch(
        (e: unknown) => e,
      );
      expect(ahead).toBeInstanceOf(ValidationError);
      expect((ahead as ValidationError).errors).toEqual([
        { path: 'since', code: 'in_future', message: 'must not be in the future' },
      ]);
    }
    expect(await recoverMessages(h.deps.log, owner(t), t.id, endpoint.id, since)).toEqual({ queued: 1 });
    expect(await audited(t.id, 'webhook_endpoint', endpoint.id)).toContainEqual({
      event_type: 'webhook_endpoint.recovered',
      summary: 'webhook_endpoint recovered',
      metadata: { since, failed: 1 },
    });
  });
});
