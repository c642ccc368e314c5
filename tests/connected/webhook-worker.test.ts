import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import { Metrics } from '@aws-lambda-powertools/metrics';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { updateEndpoint } from '#shared/domain/webhooks/endpoints';
import { webhookFanOut, webhookHandlers } from '#functions/workers/webhooks';
import { RetryLater } from '#functions/workers/queue-worker';
import type { DeliveryDeps } from '#shared/domain/webhooks/delivery';
import { EVENT_KINDS, METRICS, WEBHOOK_NAMES } from '#shared/kernel/names';
import { captureLogLines } from '#tests/support/logs';
import { WEBHOOK_START, webhookHarness } from '#tests/support/webhook-harness';

/**
 * The workers' webhook kinds as the functions run them (functions/workers/webhooks.ts), on
 * DynamoDB Local against a loopback receiver: each attempt's metrics and `webhook.attempt` line,
 * a wait the queue carries as the message's visibility (and a RetryLater so that it comes back),
 * and the fan-out's count and line only when it wrote messages. SQS is aws-sdk-client-mock: it
 * records the visibility changes.
 */

const h = webhookHarness();
const { clock, owner, oneMessage, setup, change } = h;
const QUEUE = 'https://sqs.local/external';

const sqsMock = mockClient(SQSClient);
// A class-wide mock: restored so that it cannot reach the next file of a shared worker.
afterAll(() => sqsMock.restore());
afterEach(() => {
  sqsMock.reset();
  vi.restoreAllMocks();
});

const observe = () => {
  const metric = vi.spyOn(Metrics.prototype, 'addMetric');
  metric.mockClear();
  const lines = captureLogLines();
  return { metrics: () => metric.mock.calls.map(([name, , value]) => [name, value]), lines };
};
const record = (receiveCount = 1) =>
  ({
    receiptHandle: 'receipt-1',
    attributes: { ApproximateReceiveCount: String(receiveCount) },
  }) as unknown as SQSRecord;
const handler = (over: Partial<DeliveryDeps> = {}) =>
  webhookHandlers(h.deps.delivery(over), new SQSClient({}), QUEUE)[EVENT_KINDS.webhookDeliveryRequested];
const visibility = () => sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((c) => c.args[0].input);

describe('an attempt', () => {
  it('delivered: counted and logged with its message, endpoint and status; the message is done', async () => {
    clock.set(WEBHOOK_START);
    const { t, endpoint, event } = await oneMessage();
    const seen = observe();
    h.rx.answer(200);
    await handler()(event, record());
    expect(seen.metrics()).toEqual([[WEBHOOK_NAMES.delivered, 1]]);
    expect(seen.lines).toEqual([
      {
        level: 'info',
        message: 'webhook attempt',
        event: WEBHOOK_NAMES.attemptLog,
        tenant_id: t.id,
        endpoint_id: endpoint.id,
        message_id: event.payload.message_id,
        result: 'delivered',
        status_code: 200,
        error_code: null,
        delay_s: undefined,
        disabled: undefined,
      },
    ]);
    expect(visibility()).toEqual([]);
  });

  it('failed: counted as failed', async () => {
    clock.set(WEBHOOK_START);
    const { t, endpoint, event } = await oneMessage();
    await updateEndpoint(h.deps.api, owner(t), t.id, endpoint.id, { enabled: false });
    const seen = observe();
    await handler()(event, record());
    expect(seen.metrics()).toEqual([[WEBHOOK_NAMES.failed, 1]]);
    expect(seen.lines).toEqual([
      expect.objectContaining({ result: 'failed', error_code: 'endpoint_disabled', status_code: undefined }),
    ]);
  });

  it('410: failed, the endpoint disabled and a review item opened, each counted', async () => {
    clock.set(WEBHOOK_START);
    const { event } = await oneMessage();
    const seen = observe();
    h.rx.answer(410);
    await handler()(event, record());
    expect(seen.metrics()).toEqual([
      [WEBHOOK_NAMES.failed, 1],
      [WEBHOOK_NAMES.endpointDisabled, 1],
      [METRICS.reviewItemOpened, 1],
    ]);
    expect(seen.lines).toEqual([
      expect.objectContaining({ result: 'failed', status_code: 410, disabled: 'gone' }),
    ]);
  });

  it('a wait the queue carries: the message comes back after it, by its visibility', async () => {
    clock.set(WEBHOOK_START);
    const { event } = await oneMessage();
    const seen = observe();
    h.rx.answer(429, { 'retry-after': '120' });
    await expect(handler()(event, record(2))).rejects.toThrow(new RetryLater('retrying'));
    expect(visibility()).toEqual([{ QueueUrl: QUEUE, ReceiptHandle: 'receipt-1', VisibilityTimeout: 120 }]);
    expect(seen.metrics()).toEqual([]);
    expect(seen.lines).toEqual([
      expect.objectContaining({ result: 'retrying', status_code: 429, delay_s: 120 }),
    ]);

    // Redelivered before its time: back again when it is due, nothing sent.
    sqsMock.reset();
    clock.add(20);
    await expect(handler()(event, record(3))).rejects.toBeInstanceOf(RetryLater);
    expect(visibility()).toEqual([{ QueueUrl: QUEUE, ReceiptHandle: 'receipt-1', VisibilityTimeout: 100 }]);
  });

  it('a wait left to a timer: the message is done, its visibility untouched', async () => {
    clock.set(WEBHOOK_START);
    const { event } = await oneMessage();
    h.rx.answer(500);
    await handler({ queueCarries: () => false })(event, record());
    expect(visibility()).toEqual([]);
  });
});

describe('the fan-out', () => {
  it('counts and logs the messages it wrote, and says nothing when it wrote none', async () => {
    clock.set(WEBHOOK_START);
    const { t } = await setup(['exception.created'], 2);
    const seen = observe();
    const fan = webhookFanOut(h.deps.fanOut);
    const event = change(t.id);
    await fan(event);
    expect(seen.metrics()).toEqual([[WEBHOOK_NAMES.messagesFannedOut, 2]]);
    expect(seen.lines).toEqual([
      {
        level: 'info',
        message: 'webhook messages fanned out',
        event: WEBHOOK_NAMES.fannedOutLog,
        tenant_id: t.id,
        event_id: event.event_id,
        event_type: 'exception.created',
        messages: 2,
      },
    ]);
    await fan(event);
    expect(seen.metrics()).toHaveLength(1);
    expect(seen.lines).toHaveLength(1);
  });
});
