import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { exceptionStore } from '#functions/adapters/exception-store';
import { webhookEndpointStore, webhookSecrets } from '#functions/adapters/webhook-endpoint-store';
import { connectionSecretSettings, provideConfig } from '#functions/config';
import { startBackground, startServices } from '#local/background';
import { localConfig } from '#local/config';
import { ensureTable, startDynamoLocal } from '#local/dynamodb-local';
import { createException } from '#shared/domain/exceptions/use-cases';
import { createEndpoint } from '#shared/domain/webhooks/endpoints';
import { systemClock } from '#shared/kernel/ids';
import { dbOn, ownerOf } from './webhook-fanout';
import { EXCEPTION_INPUT } from './scenario';

/**
 * One phase of the webhooks part's latency and fairness measures (bench/lib/webhooks.ts), run in a
 * process of its own (bench/webhook-phase.ts) on a DynamoDB Local of its own. Measured on
 * 2026-11-27: DynamoDB Local slows as a run's earlier tables and their streams stay in its memory
 * (tenant B alone: p50 51 ms on a fresh engine, 124 ms after the fan-out measure's 2,000
 * messages, 213 ms after the latency measure too), so phases sharing one engine measured the
 * order they ran in, not the neighbour beside them. The functions bind their table at load, so a
 * fresh table needs a fresh process too.
 */

export interface PhaseTenant {
  id: string;
  /** How long its endpoint holds each request before answering (0: at once). */
  holdMs: number;
}

export interface PhaseSpec {
  name: string;
  tenants: PhaseTenant[];
  /** The tenant whose changes are timed. */
  timed: string;
  changes: number;
  warmUp: number;
  intervalMs: number;
  /** Where in each interval the other tenants' changes come, as a share of it (0: with the timed one's). */
  neighbourOffset: number;
  waitMs: number;
}

export interface PhaseResult {
  name: string;
  /** The timed tenant's changes, from the committed write to its receiver reading the body, in order. */
  latenciesMs: number[];
  /** Requests that reached endpoints that hold (their attempts while the phase ran). */
  heldRequests: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loopback receiver: answers at once, or after `holdMs`; notes when each change's message first came. */
async function receiver(holdMs: number) {
  const arrived = new Map<string, number>();
  let requests = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      requests++;
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
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Runs one phase: its tenants each make a change every interval; the timed tenant's latencies. */
export async function runPhase(spec: PhaseSpec): Promise<PhaseResult> {
  const dynamo = await startDynamoLocal({});
  const tableName = `bench-webhooks-${randomBytes(3).toString('hex')}`;
  const { endpoint } = dynamo;
  await ensureTable(endpoint, tableName);
  // The test suite's deadlines for DynamoDB Local (tests/support/runtime.ts): on a loaded machine
  // it can take seconds to answer, which the cloud's 1.5 s would count as a hang.
  const settings = {
    OPS_LOCAL_QUIET: '1',
    OPS_SDK_REQUEST_TIMEOUT_MS: '30000',
    OPS_SDK_CONNECTION_TIMEOUT_MS: '10000',
  };
  process.env.OPS_LOCAL_QUIET = '1';
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
  process.stdout.write = (() => true) as typeof process.stdout.write;
  const background = await startBackground(services, { endpoint, tableName, settings });
  const db = dbOn(endpoint, tableName);
  const receivers = new Map<string, Awaited<ReturnType<typeof receiver>>>();
  try {
    const endpoints = {
      endpoints: webhookEndpointStore(db),
      secrets: webhookSecrets(connectionSecretsFor(connectionSecretSettings())),
      clock: systemClock,
      allowLoopback: true,
    };
    const exceptions = { exceptions: exceptionStore(db), clock: systemClock };
    for (const t of spec.tenants) {
      const r = await receiver(t.holdMs);
      receivers.set(t.id, r);
      await createEndpoint(endpoints, ownerOf(t.id), t.id, {
        url: r.url,
        description: null,
        event_types: ['exception.created'],
        enabled: true,
      });
    }
    const timed = receivers.get(spec.timed)!;
    const changed = new Map<string, number>();
    const change = async (tenantId: string) => {
      const x = await createException(exceptions, ownerOf(tenantId), tenantId, EXCEPTION_INPUT);
      changed.set(x.id, performance.now());
      return x.id;
    };
    /**
     * `count` rounds one interval apart: the timed tenant's change at the round's start, each other
     * tenant's `neighbourOffset` of an interval later. Returns the timed tenant's change ids.
     */
    const paced = async (count: number, tenants: string[]) => {
      const schedule = tenants
        .flatMap((t) =>
          Array.from({ length: count }, (_, i) => ({
            t,
            at: (i + (t === spec.timed ? 0 : spec.neighbourOffset)) * spec.intervalMs,
          })),
        )
        .sort((x, y) => x.at - y.at);
      const ids: string[] = [];
      const writes: Promise<unknown>[] = [];
      const t0 = performance.now();
      for (const { t, at } of schedule) {
        const wait = t0 + at - performance.now();
        if (wait > 0) await sleep(wait);
        writes.push(change(t).then((id) => t === spec.timed && ids.push(id)));
      }
      await Promise.all(writes);
      return ids;
    };
    const arrivedAll = async (ids: string[]) => {
      const since = performance.now();
      while (ids.some((id) => !timed.arrived.has(id))) {
        if (performance.now() - since > spec.waitMs)
          throw new Error(
            `webhooks ${spec.name}: ${ids.filter((id) => !timed.arrived.has(id)).length} messages not received`,
          );
        await sleep(10);
      }
      return ids.map((id) => timed.arrived.get(id)! - changed.get(id)!);
    };
    // The timed tenant warms the functions, clients and connections up alone first.
    await arrivedAll(await paced(spec.warmUp, [spec.timed]));
    const latenciesMs = await arrivedAll(
      await paced(
        spec.changes,
        spec.tenants.map((t) => t.id),
      ),
    );
    const heldRequests = spec.tenants
      .filter((t) => t.holdMs > 0)
      .reduce((n, t) => n + receivers.get(t.id)!.requests(), 0);
    return { name: spec.name, latenciesMs, heldRequests };
  } finally {
    await background.stop();
    for (const r of receivers.values()) await r.close();
    db.doc.destroy();
    await dynamo.stop();
  }
}
