import type { Context, SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueueWorker, type KindHandlers } from '#functions/workers/queue-worker';
import { webhookHandlers } from '#functions/workers/webhooks';
import { type DeliveryDeps, deliverMessage, SLOW_AFTER_MS } from '#shared/domain/webhooks/delivery';
import type { StoredEndpoint, StoredMessage } from '#shared/domain/webhooks/ports';
import { kindsOn } from '#shared/kernel/events';
import { EVENT_KINDS } from '#shared/kernel/names';

/**
 * Per-tenant fairness on the external worker (docs/decisions.md, "Fairness"): the records of one
 * batch are attempted at once, so a tenant whose endpoint hangs until the sender's deadline does
 * not hold back another tenant's message that came in the same batch. Fake timers stand for the
 * hang; nothing waits for wall time.
 */

const HANG_MS = 10_000;
const AT = '2031-05-01T09:00:00.000Z';

const endpoint = (tenant: string, url: string): StoredEndpoint => ({
  id: `ep-${tenant}`,
  tenant_id: tenant,
  url,
  description: null,
  event_types: ['exception.created'],
  enabled: true,
  status: 'active',
  disabled_reason: null,
  secret_rotated_at: null,
  created_at: AT,
  updated_at: AT,
  secret_version: 1,
  previous_secret_until: null,
  failing_since: null,
});

const message = (tenant: string): StoredMessage => ({
  id: `msg-${tenant}`,
  endpoint_id: `ep-${tenant}`,
  event_type: 'exception.created',
  status: 'pending',
  attempts: [],
  next_attempt_at: AT,
  created_at: AT,
  tenant_id: tenant,
  body: '{}',
  ttl: 0,
  round_start: 0,
  lease_until: null,
});

const record = (tenant: string): SQSRecord =>
  ({
    messageId: `q-${tenant}`,
    receiptHandle: `r-${tenant}`,
    body: JSON.stringify({
      event_id: `ev-${tenant}`,
      kind: EVENT_KINDS.webhookDeliveryRequested,
      tenant_id: tenant,
      idempotency_key: `k-${tenant}`,
      occurred_at: AT,
      payload: { message_id: `msg-${tenant}`, endpoint_id: `ep-${tenant}` },
    }),
    attributes: { ApproximateReceiveCount: '1' },
  }) as unknown as SQSRecord;

/** The delivery's ports in memory: settled messages (and endpoint changes) are kept. */
function depsFor(
  endpoints: StoredEndpoint[],
  messages: Map<string, StoredMessage>,
  settledAt: Map<string, number>,
  send: DeliveryDeps['sender']['send'],
  marks: unknown[][] = [],
  changes: (StoredEndpoint | null)[] = [],
): DeliveryDeps {
  return {
    endpoints: {
      get: async (_t, id) => endpoints.find((e) => e.id === id),
      markFailing: async (...args) => {
        marks.push([...args, Date.now()]);
        return true;
      },
    },
    messages: {
      get: async (_t, id) => messages.get(id),
      claim: async () => true,
      settle: async ({ message: m, endpoint: change }) => {
        messages.set(m.id, m);
        settledAt.set(m.tenant_id, Date.now());
        changes.push(change?.next ?? null);
        return true;
      },
      list: () => Promise.reject(new Error('unused')),
      failedSince: () => Promise.reject(new Error('unused')),
      createAll: () => Promise.reject(new Error('unused')),
      requeue: () => Promise.reject(new Error('unused')),
    },
    secrets: { read: async () => 'whsec_c2VjcmV0' },
    sender: { send },
    clock: { now: () => new Date() },
    leaseSeconds: 60,
    queueCarries: () => true,
    armTimer: () => Promise.reject(new Error('no wait in this test')),
    probeSeconds: 6,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse(AT) });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a batch holding a hanging endpoint and a fast one', () => {
  it("delivers the fast tenant's message before the hang ends", async () => {
    const endpoints = [
      endpoint('slow', 'https://slow.example/hooks'),
      endpoint('fast', 'https://fast.example/hooks'),
    ];
    const messages = new Map([message('slow'), message('fast')].map((m) => [m.id, m]));
    const sentAt = new Map<string, number>();
    const settledAt = new Map<string, number>();
    const deps = depsFor(
      endpoints,
      messages,
      settledAt,
      (url) =>
        new Promise((resolve) => {
          const start = Date.now();
          sentAt.set(url, start);
          const answer = () =>
            resolve({
              status_code: 200,
              error_code: null,
              duration_ms: Date.now() - start,
              retry_after_s: null,
            });
          if (url.startsWith('https://slow.')) setTimeout(answer, HANG_MS);
          else answer();
        }),
    );
    const others = Object.fromEntries(
      kindsOn('external').map((kind) => [kind, () => Promise.reject(new Error(`no ${kind} here`))]),
    ) as unknown as KindHandlers<'external'>;
    const worker = createQueueWorker('external', { ...others, ...webhookHandlers(deps, {} as never, '') });

    // The hanging tenant's record first: sent one after the other, it would hold the fast one back.
    const batch = worker({ Records: [record('slow'), record('fast')] }, {} as Context);
    await vi.advanceTimersByTimeAsync(HANG_MS - 1);
    expect(messages.get('msg-fast')!.status).toBe('delivered');
    expect(settledAt.get('fast')).toBe(Date.parse(AT));
    expect(messages.get('msg-slow')!.status).toBe('pending');

    await vi.advanceTimersByTimeAsync(1);
    expect(await batch).toEqual({ batchItemFailures: [] });
    expect(messages.get('msg-slow')!.status).toBe('delivered');
    expect(settledAt.get('slow')).toBe(Date.parse(AT) + HANG_MS);
  });
});

describe('an attempt that has no answer after SLOW_AFTER_MS', () => {
  /** A sender whose endpoint answers `status` after `holdMs`, telling the slow signal as the real one does. */
  const holding =
    (holdMs: number, status: number | null): DeliveryDeps['sender']['send'] =>
    (_url, _message, slow) =>
      new Promise((resolve) => {
        const start = Date.now();
        const slowTimer = slow && setTimeout(slow.onSlow, slow.afterMs);
        setTimeout(() => {
          clearTimeout(slowTimer);
          resolve({
            status_code: status,
            error_code: status === null ? 'timeout' : null,
            duration_ms: Date.now() - start,
            retry_after_s: null,
          });
        }, holdMs);
      });
  const event = (tenant: string) => JSON.parse(record(tenant).body) as Parameters<typeof deliverMessage>[1];
  /** One endpoint of `tenant` (as given, else active) with one message, its sender `send`. */
  const single = (
    tenant: string,
    send: DeliveryDeps['sender']['send'],
    marks: unknown[][] = [],
    changes: (StoredEndpoint | null)[] = [],
    stored: StoredEndpoint = endpoint(tenant, `https://${tenant}.example/hooks`),
  ) => depsFor([stored], new Map([[`msg-${tenant}`, message(tenant)]]), new Map(), send, marks, changes);

  it("marks its endpoint failing from the attempt's start at that second, and an answer clears it", async () => {
    const marks: unknown[][] = [];
    const changes: (StoredEndpoint | null)[] = [];
    const deps = single('slow', holding(HANG_MS, 200), marks, changes);
    const outcome = deliverMessage(deps, event('slow'), 1);
    await vi.advanceTimersByTimeAsync(SLOW_AFTER_MS - 1);
    expect(marks).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(marks).toEqual([['slow', 'ep-slow', AT, Date.parse(AT) + SLOW_AFTER_MS]]);
    await vi.advanceTimersByTimeAsync(HANG_MS);
    expect((await outcome).result).toBe('delivered');
    expect(changes).toEqual([expect.objectContaining({ id: 'ep-slow', failing_since: null })]);
  });

  it('keeps the mark at the same time when the attempt then fails', async () => {
    const changes: (StoredEndpoint | null)[] = [];
    const deps = single('slow', holding(5_000, null), [], changes);
    const outcome = deliverMessage(deps, event('slow'), 1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await outcome).result).toBe('retrying');
    expect(changes).toEqual([expect.objectContaining({ id: 'ep-slow', failing_since: AT })]);
  });

  it('delivers as usual when the mark cannot be written, and then has no mark to clear', async () => {
    const changes: (StoredEndpoint | null)[] = [];
    const deps = single('slow', holding(HANG_MS, 200), [], changes);
    deps.endpoints.markFailing = () => Promise.reject(new Error('table unavailable'));
    const outcome = deliverMessage(deps, event('slow'), 1);
    await vi.advanceTimersByTimeAsync(HANG_MS);
    expect((await outcome).result).toBe('delivered');
    expect(changes).toEqual([null]);
  });

  it('marks nothing for an answer in time, or for an endpoint already failing', async () => {
    const marks: unknown[][] = [];
    const changes: (StoredEndpoint | null)[] = [];
    const failing = { ...endpoint('slow', 'https://slow.example/hooks'), failing_since: AT };
    const fast = single('fast', holding(SLOW_AFTER_MS - 1, 200), marks, changes);
    const first = deliverMessage(fast, event('fast'), 1);
    await vi.advanceTimersByTimeAsync(SLOW_AFTER_MS);
    expect((await first).result).toBe('delivered');
    const already = single('slow', holding(HANG_MS, 500), marks, changes, failing);
    const second = deliverMessage(already, event('slow'), 1);
    await vi.advanceTimersByTimeAsync(HANG_MS);
    expect((await second).result).toBe('retrying');
    expect(marks).toEqual([]);
    // The answer in time changes no endpoint; the failing one stays as it was (no write).
    expect(changes).toEqual([null, null]);
  });
});
