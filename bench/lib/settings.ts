import { loadavg } from 'node:os';

/**
 * What a bench run measures and against which budgets, from the environment (bench/run.ts's
 * header lists the variables).
 *
 * Cold init: at most 1.25x the SDK-only floor for an API group (the zod schemas, Powertools and
 * middy every group carries cost 20 to 25% in compile and run, measured) and for a queue worker,
 * which carries the contract's per-message validation and Powertools too (issue 28: about a
 * tenth, measured); 1.1x for the authorizer and the relay, which carry none of it. Write units:
 * at most 1.25x the floor the contract sets (bench/lib/units.ts). Delivery: the pipeline's share
 * of the engine's own transaction rate, at least 0.8 (bench/lib/ceiling.ts). Warm routes have no
 * ratio budget of their own: their floor is the bare wire requests (bench/lib/wire.ts), which no
 * SDK client reaches, so the overhead above it is read beside the peer's (PEER_GOALS).
 */
export const BUDGET = {
  bundle: 1.3,
  coldApi: 1.25,
  coldWorker: 1.25,
  coldOther: 1.1,
  writeUnits: 1.25,
  deliveryShare: 0.8,
};
/** A list's first page at the largest history: read units at most this times those at the smallest (bench/lib/lists.ts). */
export const LIST_BUDGET = 1.1;
/** Our cold init, and our warm overhead above the SDK floor, to the peer's (bench/lib/peer.ts). */
export const PEER_GOALS = { cold: 0.6, overhead: 0.5 };
export const coldBudget = (kind: string) =>
  kind === 'api' ? BUDGET.coldApi : kind === 'worker' ? BUDGET.coldWorker : BUDGET.coldOther;

export const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
export const COLD_MAX_RUNS = Number(process.env.BENCH_COLD_MAX_RUNS ?? 60);
export const COLD_PRECISION = Number(process.env.BENCH_COLD_PRECISION ?? 0.025);
export const PARTS = new Set(
  (process.env.BENCH_PARTS ?? 'routes,cold,levers,delivery,lists,peer,webhooks,fairness,console').split(','),
);
export const LIST_SIZES = (process.env.BENCH_LIST_SIZES ?? '1000,100000').split(',').map(Number);
export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
export const ONLY = process.env.BENCH_FUNCTIONS?.split(',').map((f) => f.trim());
export const PROFILE_DIR = process.env.BENCH_CPU_PROF;
export const WARMUP = 20;

const started = performance.now();
export const elapsedSeconds = () => (performance.now() - started) / 1000;
export const log = (msg: string) => process.stderr.write(`[bench ${elapsedSeconds().toFixed(1)}s] ${msg}\n`);
export const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
export const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
export const load1 = () => round(loadavg()[0]!, 1);
export const is2xx = (status: number) => status >= 200 && status < 300;
export const ok = (ratio: number | null, limit: number, atLeast = false) =>
  ratio === null ? 'n/a' : (atLeast ? ratio >= limit : ratio <= limit) ? 'ok' : 'OVER';

/**
 * Handlers log one line and flush EMF metrics per request, as in the cloud: keep that cost, drop
 * the text while `run` runs.
 */
export async function muted<T>(run: () => Promise<T>): Promise<T> {
  const realWrite = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return await run();
  } finally {
    process.stdout.write = realWrite;
  }
}
