/**
 * `npm run bench`: performance evidence with each figure beside its floor, measured in the same
 * run, on DynamoDB Local (no network). Prints one table and writes bench/results.json.
 *
 *   BENCH_COLD_RUNS (default 15)      pairs of fresh processes (function, floor) at least, per
 *                                     cold-start ratio; more, up to BENCH_COLD_MAX_RUNS (default
 *                                     60), until the ratio is known within ±BENCH_COLD_PRECISION
 *                                     (default 0.025, so two runs agree within 5%)
 *   BENCH_SAMPLES (default 200)       warm samples per route (login: a fifth, scrypt is slow)
 *   BENCH_PARTS (default all)         comma list of routes, cold, levers, delivery, lists: the parts to run
 *   BENCH_LIST_SIZES (default 1000,100000) the non-matching histories the lists part loads per list;
 *                                     `BENCH_PARTS=lists BENCH_FUNCTIONS=api-exceptions` runs it alone
 *   BENCH_FUNCTIONS (default all)     comma list of function names (api-tasks,authorizer,relay,...):
 *                                     only these are bundled and measured, e.g.
 *                                     `BENCH_PARTS=cold BENCH_FUNCTIONS=api-tasks,api-workflows`
 *                                     (the delivery part needs relay and worker-internal)
 *   BENCH_CPU_PROF (unset)            a directory: every cold process writes a V8 CPU profile
 *                                     there (<dir>/<bundle file>/, the function's and its floor's
 *                                     apart), to attribute load + first request to modules. The
 *                                     bundles are then built unminified so the profile names them
 *                                     (esbuild's `// path` comments mark each module), and profiling
 *                                     slows them: the ratios of such a run are not the budget's.
 *
 * Each cold start serves one representative request that must answer 2xx (bench/lib/scenario.ts
 * coldRequest); the bench stops if one does not. The load average is printed with the results,
 * since every timing depends on it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { ensureTable, startDynamoLocal } from '#local/dynamodb-local';
import { LocalQueues } from '#local/queues';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { type Bundle, bundleFloor, bundleFunction, type Variant } from './lib/bundle';
import { operationName, recordCalls, type WireCall } from './lib/capture';
import { type BenchFunction, discoverFunctions, REPO_ROOT } from './lib/functions';
import {
  BUILD_DIR,
  floorCalls,
  formatRatio,
  type Handler,
  loadHandler,
  measureRoute,
  median,
  type PairedRatio,
  pairedRatio,
  percentile,
  type RouteResult,
  writeBundle,
} from './lib/measure';
import { measureDelivery } from './lib/delivery';
import { LIST_BUDGET, measureLists } from './lib/lists';
import { costPerMillion, PRICING_ASSUMPTIONS } from './lib/pricing';
import { apiEvent, authorizerEvent, coldRequest, context, keyRoutes } from './lib/requests';
import { copyTable, lambdaEnv, seed } from './lib/scenario';

/**
 * Cold init: at most 1.25x the SDK-only floor for an API group (the zod schemas, Powertools and
 * middy every group carries cost 20 to 25% in compile and run, measured), 1.1x for the
 * authorizer, the relay and the workers, which carry none of it (issue 28).
 */
const BUDGET = { bundle: 1.3, coldApi: 1.25, coldOther: 1.1, warmP50: 1.15 };
const coldBudget = (kind: string) => (kind === 'api' ? BUDGET.coldApi : BUDGET.coldOther);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 15);
const COLD_MAX_RUNS = Number(process.env.BENCH_COLD_MAX_RUNS ?? 60);
const COLD_PRECISION = Number(process.env.BENCH_COLD_PRECISION ?? 0.025);
const PARTS = new Set((process.env.BENCH_PARTS ?? 'routes,cold,levers,delivery,lists').split(','));
const LIST_SIZES = (process.env.BENCH_LIST_SIZES ?? '1000,100000').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const ONLY = process.env.BENCH_FUNCTIONS?.split(',').map((f) => f.trim());
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const WARMUP = 20;
const started = performance.now();
const log = (msg: string) =>
  process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;

interface Built {
  fn: BenchFunction;
  bundle: Bundle;
  floor: Bundle;
  file: string;
  floorFile: string;
}

// 1. Bundles ------------------------------------------------------------------------------------
const discovered = discoverFunctions();
const unknown = ONLY?.filter((name) => !discovered.some((f) => f.name === name)) ?? [];
if (unknown.length)
  throw new Error(
    `BENCH_FUNCTIONS: no function ${unknown.join(', ')} (${discovered.map((f) => f.name).join(', ')})`,
  );
const functions = ONLY ? discovered.filter((f) => ONLY.includes(f.name)) : discovered;
const load1 = () => round(loadavg()[0]!, 1);
const loadAtStart = load1();
log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
log(`bundling ${functions.map((f) => f.name).join(', ')}`);
const built: Built[] = [];
for (const fn of functions) {
  const bundle = await bundleFunction(fn.entry);
  const floor = await bundleFloor(bundle.sdkImports);
  built.push({
    fn,
    bundle,
    floor,
    file: writeBundle(fn.name, bundle),
    floorFile: writeBundle(`${fn.name}.floor`, floor),
  });
}

// 2. Data ---------------------------------------------------------------------------------------
log('starting DynamoDB Local');
const dynamo = await startDynamoLocal();
const suffix = randomBytes(3).toString('hex');
const tableA = `bench-a-${suffix}`;
const tableB = `bench-b-${suffix}`;
await ensureTable(dynamo.endpoint, tableA);
await ensureTable(dynamo.endpoint, tableB);
log('seeding');
// The open exceptions are the status changes' targets: only the routes part needs them.
const fx = await seed(dynamo.endpoint, tableA, {
  exceptions: 25,
  openForChanges: PARTS.has('routes') ? WARMUP + SAMPLES : 0,
});
await copyTable(dynamo.endpoint, tableA, tableB);

// The queues GET /ops/metrics reads (their depth), served in this process as on the local runtime.
const queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: 5, msPerSecond: 1000 });
await queues.listen();
queues.create(QUEUES.internal, dlqName(QUEUES.internal));
queues.create(QUEUES.external, dlqName(QUEUES.external));
const queueEnv = {
  AWS_ENDPOINT_URL_SQS: queues.endpoint,
  INTERNAL_QUEUE_URL: queues.url(QUEUES.internal),
  EXTERNAL_QUEUE_URL: queues.url(QUEUES.external),
  INTERNAL_DLQ_URL: queues.url(dlqName(QUEUES.internal)),
  EXTERNAL_DLQ_URL: queues.url(dlqName(QUEUES.external)),
};
const envOf = (name: string) => ({ ...lambdaEnv(name, dynamo.endpoint, fx), ...queueEnv });

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpus: cpus().length,
  budgets: BUDGET,
};
const is2xx = (status: number) => status >= 200 && status < 300;

try {
  // 3. Warm latency, round trips, request units (in-process) ----------------------------------
  Object.assign(process.env, envOf('api'));
  const recorder = recordCalls();
  const handlers = new Map<string, Handler>();
  const floors = new Map<string, Handler>();
  for (const b of built) {
    handlers.set(b.fn.name, loadHandler(b.file));
    floors.set(b.fn.name, loadHandler(b.floorFile));
  }
  // Handlers log one line and flush EMF metrics per request, as in the cloud: keep that cost,
  // drop the text.
  const realWrite = process.stdout.write.bind(process.stdout);
  const mute = () => {
    process.stdout.write = (() => true) as typeof process.stdout.write;
  };
  const unmute = () => {
    process.stdout.write = realWrite;
  };

  const routes: RouteResult[] = [];
  for (const route of PARTS.has('routes') ? keyRoutes() : []) {
    const name = `api-${route.group}`;
    const handler = handlers.get(name);
    if (!handler) continue;
    const samples = route.operation === 'auth.login' ? Math.max(20, Math.round(SAMPLES / 5)) : SAMPLES;
    log(`warm: ${route.label} (${samples} samples)`);
    mute();
    try {
      routes.push(
        await measureRoute({
          route,
          handler,
          floor: floors.get(name)!,
          recorder,
          fx,
          floorTable: tableB,
          warmup: route.operation === 'auth.login' ? 3 : WARMUP,
          samples,
          functionName: name,
        }),
      );
    } finally {
      unmute();
    }
  }

  // Authorizer, on a cache miss (the steady state: session already touched within 5 minutes).
  const authorizer = PARTS.has('routes') ? built.find((b) => b.fn.kind === 'authorizer') : undefined;
  let authorizerResult: Record<string, unknown> | undefined;
  if (authorizer) {
    log('warm: authorizer');
    const h = handlers.get(authorizer.fn.name)!;
    const f = floors.get(authorizer.fn.name)!;
    await h(authorizerEvent(fx.accessToken));
    recorder.take();
    const hs: number[] = [];
    const fs: number[] = [];
    let calls: WireCall[] = [];
    let capacity = { read: 0, write: 0 };
    for (let i = 0; i < WARMUP + SAMPLES; i++) {
      const t0 = performance.now();
      await h(authorizerEvent(fx.accessToken));
      const t1 = performance.now();
      const made = recorder.take();
      if (i === 0) calls = made;
      const replay = floorCalls(made, tableA, tableB, i === 0);
      const t2 = performance.now();
      const out = (await f({ calls: replay })) as unknown[];
      const t3 = performance.now();
      recorder.take();
      if (i === 0) {
        const { capacityOf } = await import('./lib/measure');
        capacity = capacityOf(out, replay);
      }
      if (i >= WARMUP) {
        hs.push(t1 - t0);
        fs.push(t3 - t2);
      }
    }
    hs.sort((a, b) => a - b);
    fs.sort((a, b) => a - b);
    authorizerResult = {
      calls: calls.map((c) => operationName(c.target)),
      capacity,
      handler: { p50: percentile(hs, 50), p99: percentile(hs, 99) },
      floor: { p50: percentile(fs, 50), p99: percentile(fs, 99) },
    };
  }

  // Cold-request wire calls per function, for the floor to repeat in its cold processes.
  const coldEvents = new Map<string, { event: unknown; calls: WireCall[] }>();
  mute();
  try {
    for (const b of built) {
      let event: unknown;
      if (b.fn.kind === 'api') event = apiEvent(coldRequest(b.fn.group!, fx));
      else if (b.fn.kind === 'authorizer') event = authorizerEvent(fx.accessToken);
      else continue;
      recorder.take();
      // The handler parses the body in place: the cold processes get the event as it was sent.
      const res = (await handlers.get(b.fn.name)!(structuredClone(event), context(b.fn.name))) as {
        statusCode?: number;
      };
      if (b.fn.kind === 'api' && !is2xx(res.statusCode ?? 0))
        throw new Error(`cold request of ${b.fn.name} answered ${res.statusCode}: ${JSON.stringify(res)}`);
      coldEvents.set(b.fn.name, { event, calls: recorder.take() });
    }
  } finally {
    unmute();
  }
  recorder.stop();

  // 4. Cold init: fresh processes ---------------------------------------------------------------
  const runner = join(REPO_ROOT, 'bench', 'cold-runner.mjs');
  // The handler's log lines are dropped while measuring (as /dev/null, they cost no pipe), and
  // kept only to explain a failed run.
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
  const coldSeries = async (
    pairs: { key: string; file: string; event: unknown; env: Record<string, string>; http?: boolean }[],
    runs = COLD_RUNS,
  ) => {
    const out = new Map<
      string,
      { load: number[]; first: number[]; init: number[]; total: number[]; cpu: number[] }
    >();
    for (const p of pairs) out.set(p.key, { load: [], first: [], init: [], total: [], cpu: [] });
    // Interleaved, so drift (thermal, other load) hits every series alike.
    for (let i = 0; i < runs; i++) {
      for (const p of pairs) {
        const r = await coldOnce(p.file, p.event, p.env);
        if (p.http && !is2xx(r.status)) {
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
        },
      ]),
    );
  };

  type ColdStats = { load: number; first: number; init: number; total: number; cpu: number };
  const cold: Record<string, { fn: ColdStats; floor: ColdStats; ratio: PairedRatio; cpuRatio: PairedRatio }> =
    {};
  for (const b of PARTS.has('cold') ? built : []) {
    const ev = coldEvents.get(b.fn.name);
    if (!ev) continue;
    const env = envOf(b.fn.name);
    const pairs = [
      { key: 'fn', file: b.file, event: ev.event, env, http: b.fn.kind === 'api' },
      { key: 'floor', file: b.floorFile, event: { calls: ev.calls }, env },
    ];
    // A B A B ...: each function process is paired with the floor process right after it; more
    // pairs until the ratio is known within the precision asked for, or the cap.
    const fnInit: number[] = [];
    const floorInit: number[] = [];
    const series = { fn: [] as ColdStats[], floor: [] as ColdStats[] };
    let ratio = pairedRatio([1], [1]);
    while (fnInit.length < COLD_MAX_RUNS) {
      const round = await coldSeries(pairs, 1);
      const f = round.get('fn')!;
      const fl = round.get('floor')!;
      series.fn.push(f);
      series.floor.push(fl);
      fnInit.push(f.init);
      floorInit.push(fl.init);
      if (fnInit.length < COLD_RUNS) continue;
      ratio = pairedRatio(fnInit, floorInit);
      if (ratio.precision <= COLD_PRECISION) break;
    }
    const med = (xs: ColdStats[], k: keyof ColdStats) => median(xs.map((x) => x[k]));
    const stats = (xs: ColdStats[]): ColdStats => ({
      load: med(xs, 'load'),
      first: med(xs, 'first'),
      init: med(xs, 'init'),
      total: med(xs, 'total'),
      cpu: med(xs, 'cpu'),
    });
    // The same pairs in CPU time: what the function itself costs, whatever else runs.
    const cpuRatio = pairedRatio(
      series.fn.map((x) => x.cpu),
      series.floor.map((x) => x.cpu),
    );
    cold[b.fn.name] = { fn: stats(series.fn), floor: stats(series.floor), ratio, cpuRatio };
    log(`cold: ${b.fn.name} ${formatRatio(ratio)}; CPU ${formatRatio(cpuRatio)}`);
  }

  // Levers: ESM vs CJS, source maps on with --enable-source-maps (one representative function).
  const rep = built.find((b) => b.fn.group === 'exceptions') ?? built[0]!;
  let levers: Record<string, Record<string, number>> | undefined;
  const repEvent = coldEvents.get(rep.fn.name);
  if (repEvent && PARTS.has('levers')) {
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
    const env = envOf(rep.fn.name);
    const series = await coldSeries([
      { key: 'cjs', file: rep.file, event: repEvent.event, env, http: rep.fn.kind === 'api' },
      { key: 'esm', file: esm.file, event: repEvent.event, env, http: rep.fn.kind === 'api' },
      {
        key: 'cjs+maps',
        file: maps.file,
        event: repEvent.event,
        env: { ...env, NODE_OPTIONS: '--enable-source-maps' },
        http: rep.fn.kind === 'api',
      },
      { key: 'floor cjs', file: rep.floorFile, event: { calls: repEvent.calls }, env },
      { key: 'floor esm', file: esm.floorFile!, event: { calls: repEvent.calls }, env },
    ]);
    levers = Object.fromEntries([...series].map(([k, v]) => [k, { ...v, bytes: 0 }]));
    levers.esm!.bytes = esm.bundle.bytes;
    levers.cjs!.bytes = rep.bundle.bytes;
    levers['cjs+maps']!.bytes = maps.bundle.bytes;
  }

  // 5. Delivery pipeline ----------------------------------------------------------------------
  const relayBuilt = built.some((b) => b.fn.kind === 'relay') && PARTS.has('delivery');
  const delivery: Record<string, unknown> = relayBuilt
    ? await measureDelivery({
        endpoint: dynamo.endpoint,
        fx,
        built: built.map((b) => ({ name: b.fn.name, kind: b.fn.kind, file: b.file })),
      })
    : { status: 'not measured: no relay function' };

  // 6. List cost against history ---------------------------------------------------------------
  const lists = PARTS.has('lists') ? await measureLists(dynamo.endpoint, LIST_SIZES, log) : undefined;

  // Report -------------------------------------------------------------------------------------
  const bundles = built.map((b) => ({
    name: b.fn.name,
    kind: b.fn.kind,
    bytes: b.bundle.bytes,
    floorBytes: b.floor.bytes,
    sdk: [...b.bundle.sdkImports.keys()],
    ratio: b.bundle.sdkImports.size ? round(b.bundle.bytes / b.floor.bytes, 3) : null,
    nonSdk: b.bundle.breakdown
      .filter(
        ([k]) =>
          !/^@(aws-sdk|smithy|aws-crypto)\//.test(k) &&
          k !== 'tslib' &&
          k !== 'fast-xml-parser' &&
          k !== 'strnum' &&
          k !== 'bowser',
      )
      .slice(0, 6),
  }));
  const routeRows = routes.map((r) => {
    const cost = costPerMillion({
      memoryMb: 1024,
      durationMs: r.handler.p50,
      readUnits: r.capacity.read,
      writeUnits: r.capacity.write,
    });
    return { ...r, ratioP50: round(r.handler.p50 / r.floor.p50), costPerMillion: round(cost, 3) };
  });
  Object.assign(results, {
    bundles,
    cold: Object.fromEntries(
      Object.entries(cold).map(([k, v]) => [
        k,
        {
          ...v,
          ratio: round(v.ratio.ratio),
          spread: v.ratio.spread.map((x) => round(x)),
          precision: round(v.ratio.precision, 4),
          cpuRatio: round(v.cpuRatio.ratio),
          cpuSpread: v.cpuRatio.spread.map((x) => round(x)),
        },
      ]),
    ),
    coldLevers: levers,
    routes: routeRows,
    authorizer: authorizerResult,
    delivery,
    lists,
    pricingAssumptions: PRICING_ASSUMPTIONS,
    runtimeSeconds: round((performance.now() - started) / 1000, 1),
    loadAverage: { start: loadAtStart, end: load1() },
  });
  writeFileSync(join(REPO_ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);

  const ok = (ratio: number | null, limit: number) =>
    ratio === null ? 'n/a' : ratio <= limit ? 'ok' : 'OVER';
  const lines: string[] = [];
  lines.push(
    `ops-platform bench ${results.date}  node ${process.version}  ${results.cpus} cpus  load average (1 min) ${loadAtStart} → ${load1()}`,
  );
  lines.push('');
  lines.push(
    '| Function | Bundle | SDK floor | Ratio (≤1.30) | Cold init (load + 1st req), median | Floor | Ratio (≤1.25 API, ≤1.1 others): median of pairs [IQR] ±95% CI, pairs | CPU time ratio, same pairs |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const b of bundles) {
    const c = cold[b.name];
    // A function with no SDK client has no floor to compare with (public).
    const cr = c && b.ratio !== null ? round(c.ratio.ratio) : null;
    lines.push(
      `| ${b.name} | ${kb(b.bytes)} | ${b.ratio === null ? '(no SDK)' : kb(b.floorBytes)} | ${b.ratio === null ? 'n/a' : `${b.ratio} ${ok(b.ratio, BUDGET.bundle)}`} | ${c ? `${round(c.fn.init, 1)} ms (${round(c.fn.load, 1)} + ${round(c.fn.first, 1)})` : '-'} | ${c && cr !== null ? `${round(c.floor.init, 1)} ms` : '-'} | ${c && cr !== null ? `${formatRatio(c.ratio)} ${ok(cr, coldBudget(b.kind))}` : 'n/a'} | ${c && cr !== null ? `${round(c.cpuRatio.ratio)} [${round(c.cpuRatio.spread[0])}–${round(c.cpuRatio.spread[1])}] (${round(c.fn.cpu, 1)} / ${round(c.floor.cpu, 1)} ms)` : '-'} |`,
    );
  }
  lines.push('');
  lines.push(
    '| Route | Status | DynamoDB calls | RCU | WCU | p50 | p99 | Raw SDK p50 | p99 | p50 ratio (≤1.15) | paired ratio [IQR] ±95% CI | $/M requests |',
  );
  lines.push('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of routeRows) {
    lines.push(
      `| ${r.label} | ${r.status} | ${r.calls.join(' + ') || '-'} | ${r.capacity.read} | ${r.capacity.write} | ${round(r.handler.p50)} ms | ${round(r.handler.p99)} ms | ${round(r.floor.p50)} ms | ${round(r.floor.p99)} ms | ${r.ratioP50} ${ok(r.ratioP50, BUDGET.warmP50)} | ${formatRatio(r.ratio)} | ${r.costPerMillion.toFixed(3)} |`,
    );
  }
  if (authorizerResult) {
    const a = authorizerResult as {
      calls: string[];
      capacity: { read: number; write: number };
      handler: { p50: number; p99: number };
      floor: { p50: number; p99: number };
    };
    const cost = costPerMillion({
      memoryMb: 512,
      durationMs: a.handler.p50,
      readUnits: a.capacity.read,
      writeUnits: a.capacity.write,
      viaHttpApi: false,
    });
    lines.push(
      `| authorizer (cache miss only) | - | ${a.calls.join(' + ')} | ${a.capacity.read} | ${a.capacity.write} | ${round(a.handler.p50)} ms | ${round(a.handler.p99)} ms | ${round(a.floor.p50)} ms | ${round(a.floor.p99)} ms | ${round(a.handler.p50 / a.floor.p50)} | - | ${cost.toFixed(3)} per invocation |`,
    );
  }
  if (levers) {
    lines.push('');
    lines.push(`Cold-start levers (${rep.fn.name}, median of ${COLD_RUNS}, load + first request):`);
    for (const [k, v] of Object.entries(levers)) {
      lines.push(
        `- ${k}: ${round(v.init!, 1)} ms (load ${round(v.load!, 1)} ms)${v.bytes ? `, ${kb(v.bytes)}` : ''}`,
      );
    }
  }
  lines.push('');
  lines.push('| Delivery pipeline | Events | Events/s | End-to-end p50 | p99 | SQS calls / event (≤0.11) |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  for (const phase of ['live', 'backlog'] as const) {
    const d = delivery[phase] as
      | {
          events: number;
          eventsPerSecond: number;
          latencyMs?: { p50: number; p99: number };
          sqs: { callsPerEvent: number };
        }
      | undefined;
    if (!d) continue;
    lines.push(
      `| ${phase} | ${d.events} | ${d.eventsPerSecond} | ${d.latencyMs ? `${d.latencyMs.p50} ms` : '-'} | ${d.latencyMs ? `${d.latencyMs.p99} ms` : '-'} | ${d.sqs.callsPerEvent} |`,
    );
  }
  if (!relayBuilt) lines.push(String(delivery.status));
  if (lists) {
    lines.push('');
    lines.push(
      `| List, first page (limit 10, 10 matching) | Non-matching history | Read units | Round trips | Items | RCU ratio to the smallest (≤${LIST_BUDGET}) |`,
    );
    lines.push('|---|---:|---:|---:|---:|---:|');
    for (const r of lists.rows) {
      const ratio = r.history === LIST_SIZES.at(-1) ? lists.ratios[r.list]! : undefined;
      lines.push(
        `| ${r.list} | ${r.history} | ${r.readUnits} | ${r.roundTrips} | ${r.items}${r.items === 10 ? '' : ' (short)'} | ${ratio === undefined ? '' : `${ratio} ${ok(ratio, LIST_BUDGET)}`} |`,
      );
    }
  }
  lines.push('');
  lines.push('Cost assumptions:');
  for (const a of PRICING_ASSUMPTIONS) lines.push(`- ${a}`);
  lines.push('');
  lines.push(`bench ran in ${results.runtimeSeconds} s; results in bench/results.json`);
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await queues.stop();
  await dynamo.stop();
  rmSync(BUILD_DIR, { recursive: true, force: true });
}
