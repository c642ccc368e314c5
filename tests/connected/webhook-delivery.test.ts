import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signAll } from '#functions/adapters/webhook';
import { timerStore } from '#functions/adapters/timer-store';
import { deliverMessage, MAX_ATTEMPTS, nextWait, RETRY_SCHEDULE_S } from '#shared/domain/webhooks/delivery';
import { createEndpoint, rotateSecret } from '#shared/domain/webhooks/endpoints';
import { fanOut } from '#shared/domain/webhooks/fan-out';
import { listMessages, testEndpoint } from '#shared/domain/webhooks/messages';
import { fireWebhookRetry } from '#shared/domain/webhooks/retry';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * Webhook fan-out and delivery on DynamoDB Local against a loopback receiver (docs/api.md,
 * "Event subscriptions"): one message per subscribed endpoint and change, written once; Standard
 * Webhooks signatures that the reference library verifies (also during a rotation); the retry
 * schedule, Retry-After, 410 and 5 days of failure; the log, resend and recover; and no secret
 * in a read, a log line, the audit log or the attempt log.
 */

const h = webhookHarness();
const { clock, shown, owner, setup, outboxOf, change, oneMessage } = h;
const START = WEBHOOK_START;

describe('fan-out', () => {
  it('one message per active subscribed endpoint, written once for a redelivered event', async () => {
    const { t, endpoints } = await setup(['exception.created'], 3);
    await createEndpoint(h.deps.api, owner(t), t.id, {
      url: h.rx.url,
      description: null,
      event_types: ['task.overdue'],
      enabled: true,
    });
    await createEndpoint(h.deps.api, owner(t), t.id, {
      url: h.rx.url,
      description: null,
      event_types: ['*'],
      enabled: false,
    });
    const event = change(t.id);
    expect(await fanOut(h.deps.fanOut, event)).toBe(3);
    expect(await fanOut(h.deps.fanOut, event)).toBe(0);
    const events = await outboxOf(t.id);
    expect(events.map((e) => e.payload.endpoint_id).sort()).toEqual(endpoints.map((e) => e.id).sort());
    const page = await listMessages(h.deps.log, t.id, endpoints[0]!.id, undefined, { limit: 50 });
    expect(page.items).toEqual([
      expect.objectContaining({ event_type: 'exception.created', status: 'pending', attempts: [] }),
    ]);
  });
});

describe('signatures (Standard Webhooks)', () => {
  it("match the specification's test vector", () => {
    const at = new Date(1614265330 * 1000);
    expect(
      signAll(
        ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        at,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verify with the reference library, with both secrets during a rotation; a changed byte fails', async () => {
    clock.set(new Date().toISOString());
    const { t, endpoint, event } = await oneMessage();
    h.rx.received.length = 0;
    expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({
      result: 'delivered',
      status_code: 200,
    });
    const [first] = h.rx.received.splice(0);
    const body = JSON.parse(first!.body) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(body).toMatchObject({ type: 'exception.created', data: { tenant_id: t.id, severity: 'warning' } });
    expect(
      new Webhook(endpoint.secret).verify(first!.body, first!.headers as Record<string, string>),
    ).toBeTruthy();
    expect(first!.headers['webhook-id']).toBe(event.payload.message_id);

    const { secret } = await rotateSecret(h.deps.api, owner(t), t.id, endpoint.id);
    shown.push(secret);
    await testEndpoint(h.deps.log, owner(t), t.id, endpoint.id);
    const [test] = (await outboxOf(t.id)).filter((e) => e.payload.message_id !== event.payload.message_id);
    await deliverMessage(h.deps.delivery(), test!, 1);
    const [rotated] = h.rx.received.splice(0);
    const headers = rotated!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(endpoint.secret).verify(rotated!.body, headers)).toMatchObject({
      type: 'webhook.test',
    });
    expect(new Webhook(secret).verify(rotated!.body, headers)).toMatchObject({ type: 'webhook.test' });
    const tampered = rotated!.body.replace('webhook.test', 'webhook.tesT');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow();
    expect(() => new Webhook(endpoint.secret).verify(tampered, headers)).toThrow();

    // After 24 hours only the new secret signs.
    clock.add(24 * 3600 + 1);
    await testEndpoint(h.deps.log, owner(t), t.id, endpoint.id);
    const done = new Set([event.payload.message_id, test!.payload.message_id]);
    const [later] = (await outboxOf(t.id)).filter((e) => !done.has(e.payload.message_id as string));
    await deliverMessage(h.deps.delivery(), later!, 1);
    const [after] = h.rx.received.splice(0);
    expect((after!.headers['webhook-signature'] as string).split(' ')).toHaveLength(1);
    expect(() => new Webhook(endpoint.secret).verify(after!.body, after!.headers as never)).toThrow();
  });
});

describe('retries', () => {
  it('the schedule: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with up to 10% jitter, then failed', () => {
    expect(RETRY_SCHEDULE_S).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(RETRY_SCHEDULE_S.map((_, i) => nextWait(i + 1, 500, null, () => 0.999))).toEqual(
      RETRY_SCHEDULE_S.map((s) => Math.round(s * 1.0999)),
    );
    expect(nextWait(1, 500, null, () => 0)).toBe(5);
    expect(nextWait(MAX_ATTEMPTS, 500, null)).toBeNull();
    expect(nextWait(1, 429, 120)).toBe(120);
    expect(nextWait(1, 503, 999_999)).toBe(12 * 3600);
    expect(nextWait(1, 500, 120, () => 0)).toBe(5);
  });

  it('a failed attempt retries after the wait; a wait the queue cannot carry is a webhook_retry timer', async () => {
    clock.set(START);
    const { t, event } = await oneMessage();
    h.rx.answer(500);
    const out = await deliverMessage(h.deps.delivery({ queueCarries: () => false }), event, 1);
    expect(out).toMatchObject({ result: 'retrying', status_code: 500 });
    expect(out.delaySeconds).toBeUndefined();
    const m = await h.deps.log.messages.get(t.id, event.payload.message_id as string);
    expect(m).toMatchObject({
      status: 'retrying',
      attempts: [expect.objectContaining({ status_code: 500, error_code: 'http_500' })],
    });
    expect(Date.parse(m!.next_attempt_at!) - Date.parse(START)).toBe(Math.round(5 * 1.05) * 1000);
    // The same queue message again (a redelivery) sends nothing before its time.
    expect(await deliverMessage(h.deps.delivery(), event, 2)).toMatchObject({ result: 'early' });
    const [timer] = (await timerStore(h.db).list(t.id, { kind: 'webhook_retry' }, { limit: 10 })).items;
    expect(timer).toMatchObject({ subject_id: m!.id, due_at: m!.next_attempt_at });
    clock.add(6);
    expect(await fireWebhookRetry({ messages: h.deps.log.messages, clock }, timer!)).toBe('written');
    const [again] = (await outboxOf(t.id)).filter((e) => e.event_id !== event.event_id);
    h.rx.answer(200);
    expect(await deliverMessage(h.deps.delivery(), again!, 1)).toMatchObject({ result: 'delivered' });
    expect(await deliverMessage(h.deps.delivery(), event, 3)).toMatchObject({ result: 'skipped' });
  });

  it('honours Retry-After on 429 through the queue message visibility', async () => {
    clock.set(START);
    const { event } = await oneMessage();
    h.rx.answer(429, { 'retry-after': '120' });
    expect(await deliverMessage(h.deps.delivery(), event, 1)).toMatchObject({
      result: 'retrying',
      delaySeconds: 120,
    });
  });

  it('ends failed after the last attempt of the schedule', async () => {
    clock.set(START);
    const { t, event } = await oneMessage();
    h.rx.always(500);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const out = await deliverMessage(h.deps.delivery(), event, 1);
      expect(out.result).toBe(i < MAX_ATTEMPTS - 1 ? 'retrying' : 'failed');
      clock.add(out.delaySeconds ?? 0);
    }
    h.rx.always(200);
    const m = await h.deps.log.messages.get(t.id, event.payload.message_id as string);
    expect(m).toMatchObject({ status: 'failed', next_attempt_at: null });
    expect(m!.attempts).toHaveLength(MAX_ATTEMPTS);
  });
});
