import { spawn } from 'node:child_process';
import { basename, join } from 'node:path';
import { type Bundle, bundleFloor, bundleFunction, type Variant } from './bundle';
import type { WireCall } from './capture';
import { type BenchFunction, REPO_ROOT } from './functions';
import { formatRatio, median, type PairedRatio, pairedRatio, writeBundle } from './measure';
import { coldAnswerOk } from './requests';
import { COLD_MAX_RUNS, COLD_PRECISION, COLD_RUNS, log, PROFILE_DIR } from './settings';

/**
 * Cold init in fresh Node processes (bench/cold-runner.mjs): a function and its SDK-only floor
 * started as back-to-back pairs, so drift from other load hits both sides of each pair alike.
 */

export interface Built {
  fn: BenchFunction;
  bundle: Bundle;
  floor: Bundle;
  file: string;
  floorFile: string;
}

export interface ColdStats {
  load: number;
  first: number;
  init: number;
  total: number;
  cpu: number;
}

export interface ColdResult {
  fn: ColdStats;
  floor: ColdStats;
  ratio: PairedRatio;
  cpuRatio: PairedRatio;
}

/** One process of a series: a bundle, the event it serves, its environment. */
export interface ColdProcess {
  key: string;
  file: string;
  event: unknown;
  env: Record<string, string>;
  /** The event of the n-th pair instead, where each must write a record of its own. */
  eventAt?: (pair: number) => unknown;
  /** An API handler: the answers it must give (2xx, or its cold request's own status). */
  answers?: (status: number) => boolean;
}

/** The event a function's cold process serves and the wire calls it made, for its floor to repeat. */
export type ColdEvents = Map<string, { event: unknown; calls: WireCall[] }>;

const runner = join(REPO_ROOT, 'bench', 'cold-runner.mjs');

/**
 * One cold start. The handler's log lines are dropped while measuring (as /dev/null, they cost no
 * pipe), and kept only to explain a failed run.
 */
const coldOnce = (file: string, event: unknown, env: Record<string, string>, keepLog = false) =>
  new Promise<{ load: number; first: number; total: number; cpu: number; status: number; log: string }>(
    (resolve, reject) => {
      const profile = PROFILE_DIR
        ? ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', join(PROFILE_DIR, basename(file))]
        : [];
      const child = spawn(process.execPath, [...profile, runner], {
        env: { PATH: process.env.PATH ?? '', ...env, BENCH_COLD: JSON.stringify({ file, event }) },
        stdio: ['ignore', keepLog ? 'pipe' : 'ignore', 'pipe'],
      });
      let err = '';
      let out = '';
      child.stdout?.on('data', (d: Buffer) => {
        out += d.toString();
      });
      child.stderr?.on('data', (d: Buffer) => {
        err += d.toString();
      });
      child.on('exit', (code) => {
        const line = err.split('\n').find((l) => l.startsWith('BENCH '));
        if (code !== 0 || !line)
          reject(new Error(`cold run of ${file} failed (${code}): ${err.slice(-2000)}`));
        else resolve({ ...JSON.parse(line.slice(6)), log: out + err.replace(line, '') });
      });
    },
  );

/** `runs` rounds of the processes, interleaved (A B C A B C ...); the medians per process. */
export async function coldSeries(processes: ColdProcess[], runs = COLD_RUNS) {
  const out = new Map<
    string,
    { load: number[]; first: number[]; init: number[]; total: number[]; cpu: number[] }
  >();
  for (const p of processes) out.set(p.key, { load: [], first: [], init: [], total: [], cpu: [] });
  for (let i = 0; i < runs; i++) {
    for (const p of processes) {
      const r = await coldOnce(p.file, p.event, p.env);
      if (p.answers && !p.answers(r.status)) {
        const again = await coldOnce(p.file, p.event, p.env, true);
        throw new Error(`cold run of ${p.file} answered ${r.status}; once more, it logged:\n${again.log}`);
      }
      const s = out.get(p.key)!;
      s.load.push(r.load);
      s.first.push(r.first);
      s.init.push(r.load + r.first);
      s.total.push(r.total);
      s.cpu.push(r.cpu);
    }
  }
  return new Map(
    [...out].map(([k, s]) => [
      k,
      {
        load: median(s.load),
        first: median(s.first),
        init: median(s.init),
        total: median(s.total),
        cpu: median(s.cpu),
      } satisfies ColdStats,
    ]),
  );
}

const statsOf = (xs: ColdStats[]): ColdStats => {
  const med = (k: keyof ColdStats) => median(xs.map((x) => x[k]));
  return { load: med('load'), first: med('first'), init: med('init'), total: med('total'), cpu: med('cpu') };
};

/**
 * A B A B ...: the process `a` paired with `b` right after it; more pairs until the ratio of
 * load + first request is known within the precision asked for, or the cap. Beside it the same
 * pairs' CPU time ratio, which hardly moves when other processes compete for the cores.
 */
export async function pairedCold(a: ColdProcess, b: ColdProcess): Promise<ColdResult> {
  const series = { a: [] as ColdStats[], b: [] as ColdStats[] };
  let ratio = pairedRatio([1], [1]);
  while (series.a.length < COLD_MAX_RUNS) {
    const n = series.a.length;
    const round = await coldSeries(
      [a, b].map((p) => (p.eventAt ? { ...p, event: p.eventAt(n) } : p)),
      1,
    );
    series.a.push(round.get(a.key)!);
    series.b.push(round.get(b.key)!);
    if (series.a.length < COLD_RUNS) continue;
    ratio = pairedRatio(
      series.a.map((x) => x.init),
      series.b.map((x) => x.init),
    );
    if (ratio.precision <= COLD_PRECISION) break;
  }
  const cpuRatio = pairedRatio(
    series.a.map((x) => x.cpu),
    series.b.map((x) => x.cpu),
  );
  return { fn: statsOf(series.a), floor: statsOf(series.b), ratio, cpuRatio };
}

/** Every function with a cold event against its SDK-only floor. */
export async function measureCold(
  built: Built[],
  coldEvents: ColdEvents,
  envOf: (name: string) => Record<string, string>,
): Promise<Record<string, ColdResult>> {
  const cold: Record<string, ColdResult> = {};
  for (const b of built) {
    const ev = coldEvents.get(b.fn.name);
    if (!ev) continue;
    const env = envOf(b.fn.name);
    cold[b.fn.name] = await pairedCold(
      {
        key: 'fn',
        file: b.file,
        event: ev.event,
        env,
        answers: b.fn.kind === 'api' ? (s: number) => coldAnswerOk(b.fn.group!, s) : undefined,
      },
      { key: 'floor', file: b.floorFile, event: { calls: ev.calls }, env },
    );
    log(
      `cold: ${b.fn.name} ${formatRatio(cold[b.fn.name]!.ratio)}; CPU ${formatRatio(cold[b.fn.name]!.cpuRatio)}`,
    );
  }
  return cold;
}

/** ESM against CJS, and source maps on with --enable-source-maps, on one representative function. */
export async function measureLevers(
  rep: Built,
  repEvent: { event: unknown; calls: WireCall[] },
  env: Record<string, string>,
): Promise<Record<string, Record<string, number>>> {
  log(`cold levers on ${rep.fn.name}: ESM, source maps`);
  const variant = async (v: Variant, ext: string, floorToo = false) => {
    const bundle = await bundleFunction(rep.fn.entry, v);
    const file = writeBundle(`${rep.fn.name}.${v.format}${v.sourcemap ? '.map' : ''}`, bundle, ext);
    const floorFile = floorToo
      ? writeBundle(`${rep.fn.name}.floor.${v.format}`, await bundleFloor(bundle.sdkImports, v), ext)
      : undefined;
    return { bundle, file, floorFile };
  };
  const esm = await variant({ format: 'esm' }, '.mjs', true);
  const maps = await variant({ format: 'cjs', sourcemap: true }, '.cjs');
  const answers = rep.fn.kind === 'api' ? (s: number) => coldAnswerOk(rep.fn.group!, s) : undefined;
  const series = await coldSeries([
    { key: 'cjs', file: rep.file, event: repEvent.event, env, answers },
    { key: 'esm', file: esm.file, event: repEvent.event, env, answers },
    {
      key: 'cjs+maps',
      file: maps.file,
      event: repEvent.event,
      env: { ...env, NODE_OPTIONS: '--enable-source-maps' },
      answers,
    },
    { key: 'floor cjs', file: rep.floorFile, event: { calls: repEvent.calls }, env },
    { key: 'floor esm', file: esm.floorFile!, event: { calls: repEvent.calls }, env },
  ]);
  const levers: Record<string, Record<string, number>> = Object.fromEntries(
    [...series].map(([k, v]) => [k, { ...v, bytes: 0 }]),
  );
  levers.esm!.bytes = esm.bundle.bytes;
  levers.cjs!.bytes = rep.bundle.bytes;
  levers['cjs+maps']!.bytes = maps.bundle.bytes;
  return levers;
}
