import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bundle } from './bundle';
import { operationName, retarget, type WireCall } from './capture';

/**
 * Outside the repository, so linters and git never see generated bundles; one directory per run,
 * so two benches running at once (other worktrees) never load each other's bundles.
 */
export const BUILD_DIR = join(tmpdir(), `ops-platform-bench-${process.pid}`);

export type Handler = (event: unknown, context?: unknown) => Promise<unknown>;

/** Writes a bundle to BUILD_DIR and returns its path. */
export function writeBundle(name: string, bundle: Bundle, ext = '.cjs'): string {
  mkdirSync(BUILD_DIR, { recursive: true });
  const file = join(BUILD_DIR, `${name}${ext}`);
  writeFileSync(file, bundle.code);
  return file;
}

const requireHere = createRequire(import.meta.url);

/** Loads a CJS bundle in this process (its module-scope SDK client reads the current env). */
export const loadHandler = (file: string): Handler => (requireHere(file) as { handler: Handler }).handler;

export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

export const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * A ratio of paired timings (function / floor, measured back to back: A B A B ...), so drift from
 * other load hits both sides of each pair alike. The estimate is the median of the per-pair
 * ratios, its spread their interquartile range, and its precision the half-width of a 95%
 * bootstrap interval of that median, relative to it.
 */
export interface PairedRatio {
  ratio: number;
  /** 25th and 75th percentile of the per-pair ratios. */
  spread: [number, number];
  /** Half-width of the 95% bootstrap interval of the median, as a fraction of it (0.02 = ±2%). */
  precision: number;
  pairs: number;
}

/** A fixed-seed generator, so the same samples give the same interval. */
const seeded = (seed: number) => () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};

export function pairedRatio(fn: number[], floor: number[], resamples = 400): PairedRatio {
  const ratios = fn.map((f, i) => f / floor[i]!);
  const sorted = [...ratios].sort((a, b) => a - b);
  const ratio = median(ratios);
  const random = seeded(ratios.length);
  const medians: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const sample = ratios.map(() => ratios[Math.floor(random() * ratios.length)]!);
    medians.push(median(sample));
  }
  medians.sort((a, b) => a - b);
  const low = percentile(medians, 2.5);
  const high = percentile(medians, 97.5);
  return {
    ratio,
    spread: [percentile(sorted, 25), percentile(sorted, 75)],
    precision: (high - low) / 2 / ratio,
    pairs: ratios.length,
  };
}

const r2 = (n: number) => Math.round(n * 100) / 100;

/** `1.08 [1.02–1.14] ±1.9% n=24`: the ratio, its spread, its precision and the pairs behind it. */
export const formatRatio = (r: PairedRatio) =>
  `${r2(r.ratio)} [${r2(r.spread[0])}–${r2(r.spread[1])}] ±${(r.precision * 100).toFixed(1)}% n=${r.pairs}`;

export interface Capacity {
  read: number;
  write: number;
}

/** Read and write units of a set of ConsumedCapacity entries (table plus indexes). */
export function capacityOf(outputs: unknown[], calls: WireCall[]): Capacity {
  const total: Capacity = { read: 0, write: 0 };
  outputs.forEach((out, i) => {
    const op = operationName(calls[i]!.target);
    const isWrite = /Put|Update|Delete|Write/.test(op);
    const cc = (out as { ConsumedCapacity?: unknown }).ConsumedCapacity;
    for (const c of (Array.isArray(cc) ? cc : cc ? [cc] : []) as { CapacityUnits?: number }[]) {
      if (isWrite) total.write += c.CapacityUnits ?? 0;
      else total.read += c.CapacityUnits ?? 0;
    }
  });
  return total;
}

/**
 * The same wire requests, against the floor's table, asking for consumed capacity when told.
 * Then a TransactWriteItems is replayed one item per transaction: DynamoDB Local (3.x) reports a
 * transaction's capacity as the sum of its *distinct* per-item figures, so two items that cost
 * alike (an exception and its audit event, both 1 KB with two index entries) count once; one item
 * per call gives each its own figure, still at the transactional rate, and the sum is what
 * DynamoDB bills. The split replay's effect on the floor table is the transaction's.
 */
export const floorCalls = (calls: WireCall[], from: string, to: string, withCapacity = false): WireCall[] =>
  retarget(calls, from, to).flatMap((c) => {
    // The SDK fills TransactWriteItems' idempotency token itself; the replay gets its own.
    const { ClientRequestToken: _token, ...input } = c.input;
    if (!withCapacity || !c.target.startsWith('DynamoDB_')) return [{ ...c, input }];
    const counted = { ...input, ReturnConsumedCapacity: 'INDEXES' };
    const items = c.target.endsWith('.TransactWriteItems') ? (input.TransactItems as unknown[]) : undefined;
    if (!items || items.length < 2) return [{ ...c, input: counted }];
    return items.map((item) => ({ ...c, input: { ...counted, TransactItems: [item] } }));
  });

export interface RouteResult {
  label: string;
  operation: string;
  group: string;
  status: number;
  /** Operation names, in order, of one request. */
  calls: string[];
  capacity: Capacity;
  /** The write units the contract requires of this request (./units.ts). */
  writeFloor: number;
  handler: { p50: number; p99: number; samples: number };
  floor: { p50: number; p99: number };
  /** Handler / floor over the back-to-back pairs of samples. */
  ratio: PairedRatio;
  /** The handler's time above its floor: the median of the pairs' differences, ms (null: see floorError). */
  overheadP50: number | null;
  /** Set when the floor was not below the handler: a measurement error, and no overhead is given. */
  floorError: string | null;
  /** The same pairs in this process's CPU time, which leaves out the engine's: see wire.ts. */
  cpu: CpuOverhead;
}

export interface CpuOverhead {
  handlerP50: number;
  floorP50: number;
  overheadP50: number | null;
  ratio: PairedRatio;
  floorError: string | null;
}

/** overheadOf over CPU times, with the medians beside it. */
export const cpuOverheadOf = (handler: number[], floor: number[]): CpuOverhead => ({
  handlerP50: median(handler),
  floorP50: median(floor),
  ...overheadOf(handler, floor),
});

/**
 * The handler's overhead above its floor from back-to-back pairs (handler, floor): the median of
 * the per-pair differences and the paired ratio. A floor is the least work that sends the same
 * requests, so it cannot take longer than the handler that sent them: when its median, or the
 * median of the pairs' ratios, says it did, the measurement is wrong (the floor paid for
 * something the handler did not, or load hit one side only), and the check says so instead of
 * giving a number.
 */
export function overheadOf(
  handler: number[],
  floor: number[],
): { overheadP50: number | null; ratio: PairedRatio; floorError: string | null } {
  const ratio = pairedRatio(handler, floor);
  const h = median(handler);
  const f = median(floor);
  if (f < h && ratio.ratio > 1)
    return { overheadP50: median(handler.map((x, i) => x - floor[i]!)), ratio, floorError: null };
  return {
    overheadP50: null,
    ratio,
    floorError: `measurement error: the floor (p50 ${f.toFixed(2)} ms, paired ratio ${ratio.ratio.toFixed(2)}) is not below its handler (p50 ${h.toFixed(2)} ms)`,
  };
}
