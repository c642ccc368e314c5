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

  it('is 409 while the message is pending or retrying', async () => {
    clock.set(START);
    const { t, endpoint, event } = await oneMessage();
    const id = event.payload.message_id as string;
    const still = 'The message is still being delivered.';
    await expect(resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id)).rejects.toThrow(still);
    h.rx.answer(500);
    expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({ result: 'retrying' });
    const err = await resendMessage(h.deps.log, owner(t), t.id, endpoint.id, id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toBe(still);
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
