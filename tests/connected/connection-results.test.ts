import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionResults } from '#functions/adapters/connection-results';
import { localConnectionSecrets } from '#functions/adapters/connection-secrets';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import { hubStore } from '#functions/adapters/hub-store';
import { healthKey } from '#functions/adapters/issue-store';
import { notificationStore } from '#functions/adapters/notification-store';
import { logger } from '#functions/observability';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import { EXPECTED_SYNC_MINUTES } from '#shared/domain/integrations/catalog';
import { computeHealth } from '#shared/domain/integrations/health';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { deliver } from '#shared/domain/notifications/delivery';
import type { SendResult } from '#shared/domain/notifications/ports';
import { createNotification, deliveryRequested } from '#shared/domain/notifications/use-cases';
import { newId, systemClock } from '#shared/kernel/ids';
import { connectChannel } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';

/**
 * Delivery results on connection health (docs/api.md section 9.3): the notification worker
 * records what the provider answered on the connection it used, and the health a connection
 * read computes follows it. Over DynamoDB Local with the real stores.
 */

let db: Db;
const secrets = localConnectionSecrets(undefined);
const BOT_TOKEN = `123456:${'b'.repeat(35)}`;

beforeAll(async () => {
  ({ db } = await freshDb());
});

const healthOf = async (tenantId: string, connectionId: string) =>
  computeHealth(
    await hubStore(db).health(tenantId, connectionId),
    EXPECTED_SYNC_MINUTES.notification,
    new Date(),
  );

const connectedTenant = async () => {
  const tenantId = `t-${newId().slice(-10)}`;
  const connection = await connectChannel(db, tenantId, 'telegram', {
    secret: { store: secrets, value: { bot_token: BOT_TOKEN } },
  });
  return { tenantId, connection };
};

/** Sends one telegram notification through a connected tenant (a new one by default); the provider answers `answer`. */
async function sendThrough(answer: SendResult, to?: Awaited<ReturnType<typeof connectedTenant>>) {
  const { tenantId, connection } = to ?? (await connectedTenant());
  const store = notificationStore(db);
  const n = await createNotification(
    { notifications: store, clock: systemClock, allowLoopback: false },
    principal('op-1'),
    tenantId,
    { channel: 'telegram', recipient: '4242', body: 'Stock is low' },
  );
  const outcome = await deliver(
    {
      store,
      connections: activeConnectionReader(connectionStore(db), secrets),
      results: connectionResults(db),
      providers: { send: async () => answer },
      clock: systemClock,
      maxAttempts: 5,
      backoff: DELIVERY_BACKOFF,
      leaseSeconds: 60,
    },
    deliveryRequested(systemClock, n),
    1,
  );
  return { tenantId, connection, outcome };
}

describe('the notification worker records its outcome on the connection', () => {
  it('a delivered notification makes the connection healthy', async () => {
    const { tenantId, connection, outcome } = await sendThrough({ ok: true });
    expect(outcome.result).toBe('delivered');
    const health = await healthOf(tenantId, connection.id);
    expect(health.state).toBe('healthy');
    expect(health.last_success_at).not.toBeNull();
  });

  it('a failing send degrades a healthy connection, with the reason code only', async () => {
    const first = await sendThrough({ ok: true });
    expect((await healthOf(first.tenantId, first.connection.id)).state).toBe('healthy');
    const { outcome } = await sendThrough({ ok: false, kind: 'transient', reason: 'timeout' }, first);
    expect(outcome.result).toBe('retrying');
    const health = await healthOf(first.tenantId, first.connection.id);
    expect(health).toMatchObject({ state: 'degraded', reason: 'last call failed: timeout' });
  });

  it('a permanent provider failure records a failure with its reason code', async () => {
    const { tenantId, connection, outcome } = await sendThrough({
      ok: false,
      kind: 'permanent',
      reason: 'provider_rejected',
    });
    expect(outcome.result).toBe('permanent_failure');
    const record = await hubStore(db).health(tenantId, connection.id);
    expect(record).toMatchObject({ last_success_at: null, last_failure_reason: 'provider_rejected' });
    expect((await healthOf(tenantId, connection.id)).state).not.toBe('healthy');
  });

  it('a retried send: the failure degrades, the next success makes it healthy again', async () => {
    const { tenantId, connection, outcome } = await sendThrough({
      ok: false,
      kind: 'transient',
      reason: 'timeout',
    });
    expect(outcome.result).toBe('retrying');
    const results = connectionResults(db);
    const later = (s: number) => new Date(Date.now() + s * 1000).toISOString();
    await results.record(tenantId, connection.id, { ok: true, at: later(1) });
    await results.record(tenantId, connection.id, { ok: false, at: later(2), reason: 'timeout' });
    expect((await healthOf(tenantId, connection.id)).state).toBe('degraded');
    await results.record(tenantId, connection.id, { ok: true, at: later(3) });
    expect((await healthOf(tenantId, connection.id)).state).toBe('healthy');
  });

  it('a reason that is not a short code is recorded as provider_error', async () => {
    const { tenantId, connection } = await sendThrough({
      ok: false,
      kind: 'permanent',
      reason: 'Bad Request: chat not found (token 123456:abc)',
    });
    const record = await hubStore(db).health(tenantId, connection.id);
    expect(record?.last_failure_reason).toBe('provider_error');
  });
});

const stored = async (tenantId: string, connectionId: string) =>
  (await db.doc.send(new GetCommand({ TableName: db.tableName, Key: healthKey(tenantId, connectionId) })))
    .Item;

describe('the write policy: a change, or a success older than a minute', () => {
  it('writes a repeated success only once a minute, a change at once, never an older result', async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    const id = newId();
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    // A fresh adapter per write: the process memo must not hide what the condition does.
    const record = (r: Parameters<ReturnType<typeof connectionResults>['record']>[2]) =>
      connectionResults(db).record(tenantId, id, r);

    await record({ ok: true, at: at(0) });
    await record({ ok: true, at: at(30) });
    expect((await stored(tenantId, id))?.last_success_at).toBe(at(0));
    await record({ ok: true, at: at(61) });
    expect((await stored(tenantId, id))?.last_success_at).toBe(at(61));

    await record({ ok: false, at: at(62), reason: 'timeout' });
    await record({ ok: false, at: at(63), reason: 'timeout' });
    expect((await stored(tenantId, id))?.last_failure_at).toBe(at(62));
    await record({ ok: false, at: at(64), reason: 'network_error' });
    expect(await stored(tenantId, id)).toMatchObject({
      last_failure_at: at(64),
      last_failure_reason: 'network_error',
    });

    // A success right after the failure is a change: written although the last one is 4s old.
    await record({ ok: true, at: at(65) });
    expect((await stored(tenantId, id))?.last_success_at).toBe(at(65));
    // An older result arriving late changes nothing.
    await record({ ok: true, at: at(1) });
    await record({ ok: false, at: at(2), reason: 'auth_failed' });
    expect(await stored(tenantId, id)).toMatchObject({
      last_success_at: at(65),
      last_failure_at: at(64),
      last_failure_reason: 'network_error',
    });
  });

  it('one adapter skips a repeated success within the minute without a call', async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    const id = newId();
    let calls = 0;
    const counting: Db = {
      ...db,
      doc: { send: (c: never) => (calls++, db.doc.send(c)) } as unknown as Db['doc'],
    };
    const counted = connectionResults(counting);
    const now = Date.now();
    await counted.record(tenantId, id, { ok: true, at: new Date(now).toISOString() });
    await counted.record(tenantId, id, { ok: true, at: new Date(now + 10_000).toISOString() });
    expect(calls).toBe(1);
    await counted.record(tenantId, id, {
      ok: false,
      at: new Date(now + 11_000).toISOString(),
      reason: 'timeout',
    });
    await counted.record(tenantId, id, { ok: true, at: new Date(now + 12_000).toISOString() });
    expect(calls).toBe(3);
  });
});

/**
 * The process memo: which success a burst of deliveries does not write again. `send` counts the
 * adapter's calls and, where a test says so, fails one the way a throttled table does.
 */
describe('the process memo', () => {
  afterEach(() => vi.restoreAllMocks());

  const counted = (fail: (n: number) => boolean = () => false) => {
    const calls = { n: 0 };
    const doc = {
      send: (c: never) =>
        fail(++calls.n)
          ? Promise.reject(
              new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }),
            )
          : db.doc.send(c),
    } as unknown as Db['doc'];
    return { results: connectionResults({ ...db, doc }), calls };
  };
  const t0 = Date.now();
  const at = (s: number) => new Date(t0 + s * 1000).toISOString();

  it('is kept per connection: a success of one connection does not hide the next of another', async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    const [a, b] = [newId(), newId()];
    const { results, calls } = counted();
    await results.record(tenantId, a, { ok: true, at: at(0) });
    await results.record(tenantId, b, { ok: true, at: at(1) });
    expect((await stored(tenantId, b))?.last_success_at).toBe(at(1));
    // And it holds both: a's next success within the minute is still not written.
    await results.record(tenantId, a, { ok: true, at: at(2) });
    expect(calls.n).toBe(2);
    expect((await stored(tenantId, a))?.last_success_at).toBe(at(0));
  });

  it("holds a success for less than the minute: at the minute the table's condition decides", async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    const id = newId();
    const { results, calls } = counted();
    await results.record(tenantId, id, { ok: true, at: at(0) });
    await results.record(tenantId, id, { ok: true, at: at(59.999) });
    expect(calls.n).toBe(1);
    await results.record(tenantId, id, { ok: true, at: at(60) });
    expect(calls.n).toBe(2);
    // Exactly a minute is not older than a minute: the condition refuses it.
    expect((await stored(tenantId, id))?.last_success_at).toBe(at(0));
  });

  it('remembers a success the table refused as already recorded (another process wrote it)', async () => {
    const tenantId = `t-${newId().slice(-10)}`;
    const id = newId();
    await connectionResults(db).record(tenantId, id, { ok: true, at: at(0) });
    const { results, calls } = counted();
    await results.record(tenantId, id, { ok: true, at: at(10) });
    await results.record(tenantId, id, { ok: true, at: at(20) });
    expect(calls.n).toBe(1);
    expect((await stored(tenantId, id))?.last_success_at).toBe(at(0));
  });

  it('a write that failed is logged (ids and error name) and not remembered: the next success writes', async () => {
    const warned: unknown[][] = [];
    vi.spyOn(logger, 'warn').mockImplementation(((...args: unknown[]) => {
      warned.push(args);
    }) as typeof logger.warn);
    const tenantId = `t-${newId().slice(-10)}`;
    const id = newId();
    const { results, calls } = counted((n) => n === 1);
    await results.record(tenantId, id, { ok: true, at: at(0) });
    expect(await stored(tenantId, id)).toBeUndefined();
    expect(warned).toEqual([
      [
        'connection result not recorded',
        { tenant_id: tenantId, connection_id: id, error: 'ProvisionedThroughputExceededException' },
      ],
    ]);
    await results.record(tenantId, id, { ok: true, at: at(1) });
    expect(calls.n).toBe(2);
    expect((await stored(tenantId, id))?.last_success_at).toBe(at(1));
    expect(warned).toHaveLength(1);
  });
});
