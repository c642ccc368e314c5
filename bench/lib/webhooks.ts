import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { exceptionStore } from '#functions/adapters/exception-store';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { connectionSecretSettings, provideConfig, providerSettings } from '#functions/config';
import { startBackground, startServices } from '#local/background';
import { localConfig } from '#local/config';
import { ensureTable } from '#local/dynamodb-local';
import { createException } from '#shared/domain/exceptions/use-cases';
import { createEndpoint } from '#shared/domain/webhooks/endpoints';
import { systemClock } from '#shared/kernel/ids';
import { WORKER_MAX_CONCURRENCY } from '#shared/kernel/names';
import { stats } from './delivery-stats';
import { dbOn, measureFanOut, ownerOf } from './webhook-fanout';
import { EXCEPTION_INPUT } from './scenario';

/**
 * The webhooks part (issue 24): `BENCH_PARTS=webhooks npm run bench`, or `npx tsx bench/webhooks.ts`
 * alone. Three measures on DynamoDB Local:
 *
 * - fan-out (bench/lib/webhook-fanout.ts): one change to 20 subscribed endpoints, as the internal
 *   worker fans it out; messages/s and the write units per message.
 * - latency: the local runtime's own pieces (local/background.ts: DynamoDB Local's stream, the
 *   relay, the in-process queues, both workers, the real sender) and a loopback receiver;
 *   `BENCH_WEBHOOK_CHANGES` (100) exceptions created through the use case, one every
 *   `BENCH_WEBHOOK_INTERVAL_MS` (500); per change, from the committed write to the receiver.
 * - fairness (item 5): tenant B's endpoint answers at once; B's changes alone, beside a tenant whose
 *   endpoint answers at once too (the control: the same traffic), then beside tenant A's, whose
 *   endpoint holds every request `BENCH_WEBHOOK_HANG_MS` (10,000) before answering, each
 *   tenant `BENCH_WEBHOOK_FAIR_CHANGES` (60) changes at the same pace; B's p50 and p99 from the
 *   change to its receiver, and the ratio beside / alone (budget 1.2 on p50).
 */

const CHANGES = Number(process.env.BENCH_WEBHOOK_CHANGES ?? 100);
const FAIR_CHANGES = Number(process.env.BENCH_WEBHOOK_FAIR_CHANGES ?? 60);
const INTERVAL_MS = Number(process.env.BENCH_WEBHOOK_INTERVAL_MS ?? 500);
const HANG_MS = Number(process.env.BENCH_WEBHOOK_HANG_MS ?? 10_000);
const WAIT_MS = Number(process.env.BENCH_WEBHOOK_TIMEOUT_MS ?? 120_000);
export const FAIRNESS_BUDGET = 1.2;

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (msg: string) => process.stderr.write(`[bench webhooks] ${msg}\n`);

/** A loopback receiver: answers at once, or after `holdMs`; notes when each change's message first came. */
async function receiver(holdMs = 0) {
  const arrived = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const at = performance.now();
      try {
        const id = (JSON.parse(body) as { data?: { id?: string } }).data?.id;
        if (id && !arrived.has(id)) arrived.set(id, at);
      } catch {
        // Not a message of this bench: nothing to time.
      }
      const answer = () => {
        if (!res.destroyed) res.writeHead(200).end();
      };
      if (holdMs) setTimeout(answer, holdMs).unref();
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrived,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The webhooks part: fan-out, latency on the local runtime, and fairness beside a hanging endpoint. */
export async function measureWebhooks(endpoint: string): Promise<Record<string, unknown>> {
  log('fan-out: one change to 20 endpoints, again and again');
  const fanOutResult = await measureFanOut(endpoint);
  log(
    `fan-out: ${fanOutResult.messagesPerSecond} messages/s, ${fanOutResult.writeUnitsPerMessage} WCU/message`,
  );

  const tableName = `bench-webhooks-${randomBytes(3).toString('hex')}`;
  await ensureTable(endpoint, tableName);
  const quiet = process.env.OPS_LOCAL_QUIET;
  process.env.OPS_LOCAL_QUIET = '1';
  // The test suite's deadlines for DynamoDB Local (tests/support/runtime.ts): on this loaded
  // machine it can take seconds to answer, which the cloud's 1.5 s would count as a hang.
  const settings = {
    OPS_LOCAL_QUIET: '1',
    OPS_SDK_REQUEST_TIMEOUT_MS: '30000',
    OPS_SDK_CONNECTION_TIMEOUT_MS: '10000',
  };
  const services = await startServices(settings);
  provideConfig(
    localConfig({
      endpoint,
      tableName,
      cursorSecret: randomBytes(32).toString('base64url'),
      settings,
      ...services,
    }),
  );
  // Handlers log a line and flush EMF metrics per record, as in the cloud: keep the cost, drop the text.
  const realWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  const background = await startBackground(services, { endpoint, tableName, settings });
  const db = dbOn(endpoint, tableName);
  const endpoints = {
    endpoints: webhookEndpointStore(db),
    secrets: webhookSecrets(connectionSecretsFor(connectionSecretSettings())),
    clock: systemClock,
    allowLoopback: true,
  };
  const exceptions = { exceptions: exceptionStore(db), clock: systemClock };
  const fast = await receiver();
  const hung = await receiver(HANG_MS);
  const changed = new Map<string, number>();

  const subscribe = async (tenantId: string, url: string) => {
    await createEndpoint(endpoints, ownerOf(tenantId), tenantId, {
      url,
      description: null,
      event_types: ['exception.created'],
      enabled: true,
    });
  };
  const change = async (tenantId: string) => {
    const x = await createException(exceptions, ownerOf(tenantId), tenantId, EXCEPTION_INPUT);
    changed.set(x.id, performance.now());
    return x.id;
  };
  /** `count` rounds one `interval` apart, each making one change per tenant; B's change ids. */
  const paced = async (count: number, tenants: string[], timed: string) => {
    const ids: string[] = [];
    const writes: Promise<unknown>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      const wait = t0 + i * INTERVAL_MS - performance.now();
      if (wait > 0) await sleep(wait);
      for (const t of tenants) writes.push(change(t).then((id) => t === timed && ids.push(id)));
    }
    await Promise.all(writes);
    return ids;
  };
  const arrivedAll = async (ids: string[]) => {
    const since = performance.now();
    while (ids.some((id) => !fast.arrived.has(id))) {
      if (performance.now() - since > WAIT_MS)
        throw new Error(
          `webhooks: ${ids.filter((id) => !fast.arrived.has(id)).length} messages not received`,
        );
      await sleep(10);
    }
    return stats(ids.map((id) => fast.arrived.get(id)! - changed.get(id)!));
  };

  try {
    const c = 'bench-latency';
    const a = 'bench-hanging';
    const b = 'bench-fast';
    const healthy = 'bench-healthy';
    await subscribe(c, fast.url);
    await subscribe(healthy, fast.url);
    await subscribe(a, hung.url);
    await subscribe(b, fast.url);
    log('warm-up: 10 changes');
    await arrivedAll(await paced(10, [c], c));

    log(`latency: ${CHANGES} changes, one every ${INTERVAL_MS} ms`);
    const latency = await arrivedAll(await paced(CHANGES, [c], c));
    log(`latency: p50 ${latency.p50} ms, p99 ${latency.p99} ms`);

    log(`fairness: tenant B alone, ${FAIR_CHANGES} changes`);
    const alone = await arrivedAll(await paced(FAIR_CHANGES, [b], b));
    // The control: the same traffic beside B, to an endpoint that answers at once. What B loses
    // there is the machine's shared capacity, not the hang's doing.
    log(`fairness: tenant B beside a tenant whose endpoint answers at once, ${FAIR_CHANGES} changes each`);
    const control = await arrivedAll(await paced(FAIR_CHANGES, [healthy, b], b));
    log(`fairness: tenant B beside tenant A, whose endpoint holds each request ${HANG_MS} ms`);
    const beside = await arrivedAll(await paced(FAIR_CHANGES, [a, b], b));
    const ratio = { p50: round(beside.p50 / alone.p50), p99: round(beside.p99 / alone.p99) };
    const controlRatio = { p50: round(control.p50 / alone.p50), p99: round(control.p99 / alone.p99) };
    log(
      `fairness: B p50 ${alone.p50} alone, ${control.p50} beside a healthy tenant, ${beside.p50} ms beside the hanging one (x${ratio.p50}); ` +
        `p99 ${alone.p99}, ${control.p99}, ${beside.p99} ms`,
    );
    return {
      summary:
        `fan-out ${fanOutResult.messagesPerSecond} messages/s, ${fanOutResult.writeUnitsPerMessage} WCU/message; ` +
        `change -> receiver p50 ${latency.p50} ms p99 ${latency.p99} ms; ` +
        `fairness p50 ratio ${ratio.p50} (budget ${FAIRNESS_BUDGET}; beside a healthy tenant ${controlRatio.p50}), p99 ratio ${ratio.p99}`,
      fanOut: fanOutResult,
      latency: { changes: CHANGES, intervalMs: INTERVAL_MS, changeToReceiverMs: latency },
      fairness: {
        changesPerTenant: FAIR_CHANGES,
        intervalMs: INTERVAL_MS,
        hangMs: HANG_MS,
        senderTimeoutMs: providerSettings().timeoutMs,
        workerConcurrency: WORKER_MAX_CONCURRENCY,
        aloneMs: alone,
        besideHealthyMs: control,
        besideMs: beside,
        ratio,
        controlRatio,
        budget: FAIRNESS_BUDGET,
        ok: ratio.p50 <= FAIRNESS_BUDGET,
        hangingAttempts: hung.arrived.size,
      },
      method:
        'DynamoDB Local; exceptions created through the use case (one TransactWriteItems with the outbox event); ' +
        'the local runtime background (local/background.ts): DynamoDB Local stream -> relay -> internal queue -> ' +
        'internal worker fan-out -> external queue (batches of 10, WORKER_MAX_CONCURRENCY batches at once) -> ' +
        'external worker -> the real webhook sender -> loopback receivers. Latency: from the use case returning ' +
        '(the change committed) to the receiver reading the body. Paced: one change per tenant every interval.',
    };
  } finally {
    await background.stop();
    await fast.close();
    await hung.close();
    db.doc.destroy();
    process.stdout.write = realWrite;
    if (quiet === undefined) delete process.env.OPS_LOCAL_QUIET;
    else process.env.OPS_LOCAL_QUIET = quiet;
  }
}
