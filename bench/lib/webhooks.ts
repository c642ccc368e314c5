import { fork } from 'node:child_process';
import { join } from 'node:path';
import { providerSettings } from '#functions/config';
import { WORKER_MAX_CONCURRENCY } from '#shared/kernel/names';
import { stats } from './delivery-stats';
import { REPO_ROOT } from './functions';
import { measureFanOut } from './webhook-fanout';
import type { PhaseResult, PhaseSpec, PhaseTenant } from './webhook-phase';

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
 *   endpoint answers at once too (the control: the same traffic), and beside tenant A, whose
 *   endpoint holds every request `BENCH_WEBHOOK_HANG_MS` (10,000) before answering; each tenant
 *   makes `BENCH_WEBHOOK_FAIR_CHANGES` (60) changes at the same pace, B's p50 and p99 from the
 *   change to its receiver, and the ratio beside / alone (budget 1.2 on p50).
 *
 * Every latency and fairness phase runs in a process of its own on a fresh DynamoDB Local
 * (bench/lib/webhook-phase.ts), after the timed tenant's warm-up alone; the fairness phases run
 * in the order alone, healthy, hanging, then again backwards, half the changes each time, so a
 * drift of the machine's load over the part weighs on the three alike.
 */

const CHANGES = Number(process.env.BENCH_WEBHOOK_CHANGES ?? 100);
const FAIR_CHANGES = Number(process.env.BENCH_WEBHOOK_FAIR_CHANGES ?? 60);
const INTERVAL_MS = Number(process.env.BENCH_WEBHOOK_INTERVAL_MS ?? 500);
const HANG_MS = Number(process.env.BENCH_WEBHOOK_HANG_MS ?? 10_000);
const WAIT_MS = Number(process.env.BENCH_WEBHOOK_TIMEOUT_MS ?? 120_000);
const WARM_UP = 10;
/**
 * The neighbour's changes come half an interval after B's: tenants do not change records in
 * step. Changes at the same instant measure DynamoDB Local serialising two transactions at once,
 * which costs B the same beside a healthy tenant as beside the hanging one (x1.42 and x1.44 at
 * an offset of 0, 2026-11-27); `BENCH_WEBHOOK_NEIGHBOUR_OFFSET=0` measures that case.
 */
const NEIGHBOUR_OFFSET = Number(process.env.BENCH_WEBHOOK_NEIGHBOUR_OFFSET ?? 0.5);
export const FAIRNESS_BUDGET = 1.2;

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const log = (msg: string) => process.stderr.write(`[bench webhooks] ${msg}\n`);

/** One phase in a forked process (it inherits tsx's loader through execArgv). */
const phase = (spec: PhaseSpec) =>
  new Promise<PhaseResult>((resolve, reject) => {
    const child = fork(join(REPO_ROOT, 'bench', 'webhook-phase.ts'), [], {
      env: { ...process.env, BENCH_WEBHOOK_PHASE: JSON.stringify(spec) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    let answer: { ok: boolean; result?: PhaseResult; error?: string } | undefined;
    child.on('message', (m) => (answer = m as typeof answer));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (answer?.ok && answer.result) resolve(answer.result);
      else reject(new Error(`webhooks phase ${spec.name} failed (${code}): ${answer?.error ?? 'no answer'}`));
    });
  });

/** The webhooks part: fan-out, latency on the local runtime, and fairness beside a hanging endpoint. */
export async function measureWebhooks(endpoint: string): Promise<Record<string, unknown>> {
  log('fan-out: one change to 20 endpoints, again and again');
  const fanOutResult = await measureFanOut(endpoint);
  log(
    `fan-out: ${fanOutResult.messagesPerSecond} messages/s, ${fanOutResult.writeUnitsPerMessage} WCU/message`,
  );

  const spec = (name: string, tenants: PhaseTenant[], timed: string, changes: number): PhaseSpec => ({
    name,
    tenants,
    timed,
    changes,
    warmUp: WARM_UP,
    intervalMs: INTERVAL_MS,
    neighbourOffset: NEIGHBOUR_OFFSET,
    waitMs: WAIT_MS,
  });
  const c = { id: 'bench-latency', holdMs: 0 };
  const b = { id: 'bench-fast', holdMs: 0 };
  const healthy = { id: 'bench-healthy', holdMs: 0 };
  const a = { id: 'bench-hanging', holdMs: HANG_MS };

  log(`latency: ${CHANGES} changes, one every ${INTERVAL_MS} ms`);
  const latency = stats((await phase(spec('latency', [c], c.id, CHANGES))).latenciesMs);
  log(`latency: p50 ${latency.p50} ms, p99 ${latency.p99} ms`);

  const half = Math.ceil(FAIR_CHANGES / 2);
  const fairness = {
    alone: [b],
    healthy: [healthy, b],
    hanging: [a, b],
  } as const;
  const order = ['alone', 'healthy', 'hanging', 'hanging', 'healthy', 'alone'] as const;
  const samples = { alone: [] as number[], healthy: [] as number[], hanging: [] as number[] };
  let hangingRequests = 0;
  for (const name of order) {
    log(
      `fairness: tenant B ${name === 'alone' ? 'alone' : `beside the ${name} tenant`}, ${half} changes each`,
    );
    const r = await phase(spec(name, [...fairness[name]], b.id, half));
    samples[name].push(...r.latenciesMs);
    hangingRequests += r.heldRequests;
  }
  const alone = stats(samples.alone);
  const control = stats(samples.healthy);
  const beside = stats(samples.hanging);
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
      hangingRequests,
    },
    method:
      'DynamoDB Local; exceptions created through the use case (one TransactWriteItems with the outbox event); ' +
      'the local runtime background (local/background.ts): DynamoDB Local stream -> relay -> internal queue -> ' +
      'internal worker fan-out -> external queue (batches of 10, WORKER_MAX_CONCURRENCY batches at once) -> ' +
      'external worker -> the real webhook sender -> loopback receivers. Latency: from the use case returning ' +
      "(the change committed) to the receiver reading the body. Paced: one change per tenant every interval, the neighbour's neighbourOffset of an interval after B's. " +
      'Each latency and fairness phase in a process of its own on a fresh DynamoDB Local, after 10 changes of the ' +
      'timed tenant alone; fairness phases alone, healthy, hanging, hanging, healthy, alone, half the changes each.',
  };
}
