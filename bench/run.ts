/**
 * `npm run bench`: performance evidence with each figure beside its floor, measured in the same
 * run, on DynamoDB Local (no network). Prints one table and writes bench/results.json.
 *
 *   BENCH_COLD_RUNS (default 15)      pairs of fresh processes (function, floor) at least, per
 *                                     cold-start ratio; more, up to BENCH_COLD_MAX_RUNS (default
 *                                     60), until the ratio is known within ±BENCH_COLD_PRECISION
 *                                     (default 0.025, so two runs agree within 5%)
 *   BENCH_SAMPLES (default 200)       warm samples per route (login: a fifth, scrypt is slow)
 *   BENCH_PARTS (default all)         comma list of routes, cold, levers, delivery, lists, peer, webhooks,
 *                                     fairness, console:
 *                                     the parts to run; a run of some parts keeps the other parts'
 *                                     figures in bench/results.json (bench/lib/results.ts)
 *   BENCH_WEBHOOK_* (bench/lib/webhooks.ts) the webhooks part's changes, pace and hang
 *   BENCH_FAIR_* (bench/lib/fairness.ts) the fairness part's burst, work per batch and samples
 *   BENCH_LIST_SIZES (default 1000,100000) the non-matching histories the lists part loads per list;
 *                                     `BENCH_PARTS=lists BENCH_FUNCTIONS=api-exceptions` runs it alone;
 *                                     BENCH_LISTS (default all) a comma list of list-name prefixes,
 *                                     e.g. `BENCH_LISTS=workflow-runs` for the runs lists only
 *   BENCH_DELIVERY_EVENTS (300), BENCH_DELIVERY_WRITERS (4), BENCH_DELIVERY_TIMEOUT_MS (90000): the
 *                                     delivery part's events per phase, its writers, and how long a
 *                                     phase may take (raise it on a loaded machine)
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
 * The settings and budgets are bench/lib/settings.ts; each part is a module of bench/lib/ (cold.ts,
 * warm.ts, delivery.ts, lists.ts, peer.ts) and the printed tables are report.ts.
 *
 * Each cold start serves one representative request that must answer 2xx (bench/lib/scenario.ts
 * coldRequest); the bench stops if one does not. The load average is printed with the results,
 * since every timing depends on it.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ensureTable, startDynamoLocal } from '#local/dynamodb-local';
import { LocalQueues } from '#local/queues';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { bundleFloor, bundleFunction } from './lib/bundle';
import { recordCalls } from './lib/capture';
import { type Built, measureCold, measureLevers } from './lib/cold';
import { measureDelivery } from './lib/delivery';
import { measureFairness } from './lib/fairness';
import { discoverFunctions, REPO_ROOT } from './lib/functions';
import { measureLists } from './lib/lists';
import { measureFiringWrites } from './lib/firing-writes';
import { BUILD_DIR, type Handler, loadHandler, writeBundle } from './lib/measure';
import { measurePeer, peerChanges } from './lib/peer';
import { reportLines, resultsOf } from './lib/report';
import { mergeResults } from './lib/results';
import { measureWebhooks } from './lib/webhooks';
import { consoleLines, measureConsole } from './lib/console';
import { copyTable, lambdaEnv, seed } from './lib/scenario';
import {
  BUDGET,
  COLD_RUNS,
  elapsedSeconds,
  LIST_SIZES,
  load1,
  log,
  ONLY,
  PARTS,
  round,
  SAMPLES,
  WARMUP,
} from './lib/settings';
import { coldEventsOf, measureAuthorizer, measureRoutes, type WarmOptions } from './lib/warm';

// 1. Bundles ------------------------------------------------------------------------------------
const discovered = discoverFunctions();
const unknown = ONLY?.filter((name) => !discovered.some((f) => f.name === name)) ?? [];
if (unknown.length)
  throw new Error(
    `BENCH_FUNCTIONS: no function ${unknown.join(', ')} (${discovered.map((f) => f.name).join(', ')})`,
  );
const functions = discovered.filter((f) => !ONLY || ONLY.includes(f.name));
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
// The open exceptions are the status changes' targets: only the routes and peer parts need them.
const fx = await seed(dynamo.endpoint, tableA, {
  exceptions: 25,
  openForChanges: (PARTS.has('routes') ? WARMUP + SAMPLES : 0) + (PARTS.has('peer') ? peerChanges() : 0),
  floorTwins: true,
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

/**
 * A part that makes its own tables runs on a DynamoDB Local of its own: the engine slows as a
 * run's earlier tables and streams stay in its memory (a whole run once took 1,341 s to load the
 * lists part's 100,000 records after the delivery part, 61 s alone; docs/performance.md, issue 24).
 */
const onFreshEngine = async <T>(part: (endpoint: string) => Promise<T>): Promise<T> => {
  const engine = await startDynamoLocal();
  try {
    return await part(engine.endpoint);
  } finally {
    await engine.stop();
  }
};

try {
  // 3. Warm latency, round trips, request units (in-process) ----------------------------------
  Object.assign(process.env, envOf('api'));
  const recorder = recordCalls();
  const handlers = new Map<string, Handler>();
  for (const b of built) handlers.set(b.fn.name, loadHandler(b.file));
  const warm: WarmOptions = { built, handlers, recorder, fx, floorTable: tableB };
  const routes = PARTS.has('routes') ? await measureRoutes(warm) : [];
  const authorizer = PARTS.has('routes') ? await measureAuthorizer(warm) : undefined;
  const coldEvents = await coldEventsOf(warm);
  recorder.stop();

  // 4. Cold init: fresh processes, the function and its floor in pairs ------------------------
  const cold = PARTS.has('cold') ? await measureCold(built, coldEvents, envOf) : {};
  const rep = built.find((b) => b.fn.group === 'exceptions') ?? built[0]!;
  const repEvent = coldEvents.get(rep.fn.name);
  const levers =
    repEvent && PARTS.has('levers') ? await measureLevers(rep, repEvent, envOf(rep.fn.name)) : undefined;

  // 5. Delivery pipeline, against the engine's own transaction rate ---------------------------
  const relayBuilt = built.some((b) => b.fn.kind === 'relay') && PARTS.has('delivery');
  const delivery: Record<string, unknown> = relayBuilt
    ? await measureDelivery({
        endpoint: dynamo.endpoint,
        fx,
        built: built.map((b) => ({ name: b.fn.name, kind: b.fn.kind, file: b.file })),
      })
    : { status: 'not measured: no relay function' };

  // 6. List cost against history ---------------------------------------------------------------
  const lists = PARTS.has('lists')
    ? {
        ...(await onFreshEngine((endpoint) => measureLists(endpoint, LIST_SIZES, log))),
        // What a matched firing with one create_task writes, the run's own record apart (issue 36).
        firing: await onFreshEngine(measureFiringWrites),
      }
    : undefined;

  // 7. The peer: the same two routes as most teams write them ---------------------------------
  const exceptions = built.find((b) => b.fn.group === 'exceptions');
  const peer =
    exceptions && PARTS.has('peer')
      ? await measurePeer({ ours: exceptions, fx, floorTable: tableB, env: envOf(exceptions.fn.name) })
      : undefined;

  // 8. Webhooks: fan-out, change-to-receiver latency and fairness on the local runtime's pieces --
  const webhooks = PARTS.has('webhooks') ? await onFreshEngine(measureWebhooks) : undefined;

  // 9. Fair queues: a quiet tenant's delivery beside another tenant's burst ---------------------
  const fairness = PARTS.has('fairness') ? await measureFairness(log) : undefined;
  // 10. The operator console: its first screen's bytes, the exceptions list in Chromium -----------
  // (bench/console.ts, in a process of its own with its own runtime and DynamoDB Local).
  const operatorConsole = PARTS.has('console') ? await measureConsole() : undefined;

  // Report -------------------------------------------------------------------------------------
  const figures = {
    built,
    cold,
    levers,
    leverFunction: rep.fn.name,
    coldRuns: COLD_RUNS,
    routes,
    authorizer,
    delivery,
    lists,
    peer,
  };
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: cpus().length,
    budgets: BUDGET,
    ...resultsOf(figures),
    webhooks,
    fairness,
    console: operatorConsole,
    runtimeSeconds: round(elapsedSeconds(), 1),
    loadAverage: { start: loadAtStart, end: load1() },
  };
  const file = join(REPO_ROOT, 'bench', 'results.json');
  const previous = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)
    : undefined;
  // A JSON round trip drops the parts that were not run (undefined) before the merge looks.
  const merged = mergeResults(
    previous,
    JSON.parse(JSON.stringify(results)) as Record<string, unknown>,
    PARTS,
  );
  writeFileSync(file, `${JSON.stringify(merged, null, 2)}\n`);
  const lines = [
    `ops-platform bench ${results.date}  node ${process.version}  ${results.cpus} cpus  load average (1 min) ${loadAtStart} → ${load1()}`,
    '',
    ...reportLines(figures),
    ...(webhooks ? ['', `Webhooks (issue 24): ${String(webhooks.summary)}`] : []),
    ...(fairness ? ['', `Fair queues (issue 37): ${fairness.summary}`] : []),
    ...(operatorConsole ? ['', ...consoleLines(operatorConsole)] : []),
    '',
    `bench ran in ${results.runtimeSeconds} s; results in bench/results.json`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await queues.stop();
  await dynamo.stop();
  rmSync(BUILD_DIR, { recursive: true, force: true });
}
