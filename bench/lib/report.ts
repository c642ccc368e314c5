import type { Built, ColdResult } from './cold';
import { type CpuOverhead, formatRatio, type PairedRatio, type RouteResult } from './measure';
import type { measureLists } from './lists';
import type { FiringWrites } from './firing-writes';
import { costPerMillion, PRICING_ASSUMPTIONS } from './pricing';
import { floorRatio } from './units';
import type { AuthorizerResult } from './warm';
import { BUDGET, coldBudget, kb, LIST_BUDGET, LIST_SIZES, ok, round } from './settings';
import { type PeerResult, peerLines } from './peer-report';

/** The printed tables of a bench run, and the figures behind them for bench/results.json. */

export interface RunFigures {
  built: Built[];
  cold: Record<string, ColdResult>;
  levers: Record<string, Record<string, number>> | undefined;
  leverFunction: string;
  coldRuns: number;
  routes: RouteResult[];
  authorizer: AuthorizerResult | undefined;
  delivery: Record<string, unknown>;
  lists: Awaited<ReturnType<typeof measureLists>> | undefined;
  peer: PeerResult | undefined;
}

const NON_SDK = /^@(aws-sdk|smithy|aws-crypto)\/|^(tslib|fast-xml-parser|strnum|bowser)$/;

export function bundlesOf(built: Built[]) {
  return built.map((b) => ({
    name: b.fn.name,
    kind: b.fn.kind,
    bytes: b.bundle.bytes,
    floorBytes: b.floor.bytes,
    sdk: [...b.bundle.sdkImports.keys()],
    ratio: b.bundle.sdkImports.size ? round(b.bundle.bytes / b.floor.bytes, 3) : null,
    nonSdk: b.bundle.breakdown.filter(([k]) => !NON_SDK.test(k)).slice(0, 6),
  }));
}

const roundCpu = (c: CpuOverhead) => ({
  ...c,
  handlerP50: round(c.handlerP50, 3),
  floorP50: round(c.floorP50, 3),
  overheadP50: c.overheadP50 === null ? null : round(c.overheadP50, 3),
});

export function routeRowsOf(routes: RouteResult[]) {
  return routes.map((r) => {
    const cost = costPerMillion({
      memoryMb: 1024,
      durationMs: r.handler.p50,
      readUnits: r.capacity.read,
      writeUnits: r.capacity.write,
    });
    return {
      ...r,
      ratioP50: round(r.handler.p50 / r.floor.p50),
      overheadP50: r.overheadP50 === null ? null : round(r.overheadP50),
      cpu: roundCpu(r.cpu),
      writeFloorRatio: floorRatio(r.capacity.write, r.writeFloor),
      costPerMillion: round(cost, 3),
    };
  });
}

/** The results file's figures of a run (timings rounded; the paired ratios flattened). */
export function resultsOf(f: RunFigures) {
  return {
    bundles: bundlesOf(f.built),
    cold: Object.fromEntries(
      Object.entries(f.cold).map(([k, v]) => [
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
    coldLevers: f.levers,
    routes: routeRowsOf(f.routes),
    authorizer: f.authorizer && {
      ...f.authorizer,
      overheadP50: f.authorizer.overheadP50 === null ? null : round(f.authorizer.overheadP50),
      cpu: roundCpu(f.authorizer.cpu),
    },
    delivery: f.delivery,
    lists: f.lists,
    peer: f.peer,
    pricingAssumptions: PRICING_ASSUMPTIONS,
  };
}

function functionLines(f: RunFigures): string[] {
  const lines = [
    `| Function | Bundle | SDK floor | Ratio (≤${BUDGET.bundle}) | Cold init (load + 1st req), median | Floor | Ratio (≤${BUDGET.coldApi} API, ≤${BUDGET.coldWorker} workers, ≤${BUDGET.coldOther} others): median of pairs [IQR] ±95% CI, pairs | CPU time ratio, same pairs |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const b of bundlesOf(f.built)) {
    const c = f.cold[b.name];
    // A function with no SDK client has no floor to compare with (public).
    const cr = c && b.ratio !== null ? round(c.ratio.ratio) : null;
    const bundleRatio = b.ratio === null ? 'n/a' : `${b.ratio} ${ok(b.ratio, BUDGET.bundle)}`;
    const init = c ? `${round(c.fn.init, 1)} ms (${round(c.fn.load, 1)} + ${round(c.fn.first, 1)})` : '-';
    const measured = c && cr !== null;
    lines.push(
      `| ${b.name} | ${kb(b.bytes)} | ${b.ratio === null ? '(no SDK)' : kb(b.floorBytes)} | ${bundleRatio} | ${init} | ${measured ? `${round(c.floor.init, 1)} ms` : '-'} | ${measured ? `${formatRatio(c.ratio)} ${ok(cr, coldBudget(b.kind))}` : 'n/a'} | ${measured ? `${round(c.cpuRatio.ratio)} [${round(c.cpuRatio.spread[0])}–${round(c.cpuRatio.spread[1])}] (${round(c.fn.cpu, 1)} / ${round(c.floor.cpu, 1)} ms)` : '-'} |`,
    );
  }
  return lines;
}

/** `0.93 ms, 1.52 [1.4–1.7] ±2% n=200`, or the floor check's error instead of a number. */
const overheadText = (o: { overheadP50: number | null; ratio: PairedRatio; floorError: string | null }) =>
  o.floorError ?? `${round(o.overheadP50!)} ms, ${formatRatio(o.ratio)}`;
const withCpu = (o: {
  overheadP50: number | null;
  ratio: PairedRatio;
  floorError: string | null;
  cpu: CpuOverhead;
}) => `${overheadText(o)}; CPU ${overheadText(o.cpu)}`;

function routeLines(f: RunFigures): string[] {
  const peer = new Map((f.peer?.routes ?? []).map((p) => [p.label, p.peer]));
  const lines = [
    `| Route | Status | DynamoDB calls | RCU | WCU | WCU floor (contract) | WCU / floor (≤${BUDGET.writeUnits}) | p50 | p99 | Floor p50 | p99 | Overhead p50, handler / floor paired [IQR] ±95% CI | Express peer: handler / floor | $/M requests |`,
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of routeRowsOf(f.routes)) {
    const units =
      r.writeFloorRatio === null ? '-' : `${r.writeFloorRatio} ${ok(r.writeFloorRatio, BUDGET.writeUnits)}`;
    const p = peer.get(r.label);
    lines.push(
      `| ${r.label} | ${r.status} | ${r.calls.join(' + ') || '-'} | ${r.capacity.read} | ${r.capacity.write} | ${r.writeFloor || '-'} | ${units} | ${round(r.handler.p50)} ms | ${round(r.handler.p99)} ms | ${round(r.floor.p50)} ms | ${round(r.floor.p99)} ms | ${withCpu(r)} | ${p ? withCpu(p) : '-'} | ${r.costPerMillion.toFixed(3)} |`,
    );
  }
  const a = f.authorizer;
  if (a) {
    const cost = costPerMillion({
      memoryMb: 512,
      durationMs: a.handler.p50,
      readUnits: a.capacity.read,
      writeUnits: a.capacity.write,
      viaHttpApi: false,
    });
    lines.push(
      `| authorizer (cache miss only) | - | ${a.calls.join(' + ')} | ${a.capacity.read} | ${a.capacity.write} | - | - | ${round(a.handler.p50)} ms | ${round(a.handler.p99)} ms | ${round(a.floor.p50)} ms | ${round(a.floor.p99)} ms | ${withCpu(a)} | - | ${cost.toFixed(3)} per invocation |`,
    );
  }
  return lines;
}

interface Phase {
  events: number;
  eventsPerSecond: number;
  latencyMs?: { p50: number; p99: number };
  sqs: { callsPerEvent: number };
  transactionsPerEvent?: number;
}

function deliveryLines(delivery: Record<string, unknown>): string[] {
  const ceiling = delivery.ceiling as
    | {
        transactionsPerSecond: number;
        before: number;
        after: number;
        liveShare: number;
        backlogShare: number;
      }
    | undefined;
  if (!ceiling) return [String(delivery.status)];
  const lines = [
    `Engine ceiling: ${ceiling.transactionsPerSecond} TransactWriteItems/s (probe before the pipeline ${ceiling.before}, after ${ceiling.after})`,
    '',
    `| Delivery pipeline | Events | Events/s | End-to-end p50 | p99 | SQS calls / event (≤0.11) | Transactions / event | Events/s x transactions / ceiling (≥${BUDGET.deliveryShare}) |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const phase of ['live', 'backlog'] as const) {
    const d = delivery[phase] as Phase | undefined;
    if (!d) continue;
    const share = phase === 'live' ? ceiling.liveShare : ceiling.backlogShare;
    const latency = d.latencyMs ? [`${d.latencyMs.p50} ms`, `${d.latencyMs.p99} ms`] : ['-', '-'];
    lines.push(
      `| ${phase} | ${d.events} | ${d.eventsPerSecond} | ${latency[0]} | ${latency[1]} | ${d.sqs.callsPerEvent} | ${d.transactionsPerEvent ?? '-'} | ${share} ${phase === 'live' ? ok(share, BUDGET.deliveryShare, true) : '(drain: the worker alone)'} |`,
    );
  }
  return lines;
}

function listLines(lists: NonNullable<RunFigures['lists']>): string[] {
  const lines = [
    `| List, first page (limit 10, 10 matching) | Non-matching history | Read units | Round trips | Items | RCU ratio to the smallest (≤${LIST_BUDGET}) |`,
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const r of lists.rows) {
    const ratio = r.history === LIST_SIZES.at(-1) ? lists.ratios[r.list]! : undefined;
    lines.push(
      `| ${r.list} | ${r.history} | ${r.readUnits} | ${r.roundTrips} | ${r.items}${r.items === 10 ? '' : ' (short)'} | ${ratio === undefined ? '' : `${ratio} ${ok(ratio, LIST_BUDGET)}`} |`,
    );
  }
  const firing = (lists as { firing?: FiringWrites }).firing;
  if (firing)
    lines.push(
      '',
      `A matched firing with one create_task: ${firing.withoutRun.writeUnits} write units in ${firing.withoutRun.writes} writes without the run's record (as before runs), ` +
        `${firing.run.writeUnits} in ${firing.run.writes} for the run's record; ${firing.total} in all.`,
    );
  return lines;
}

/** The tables, in the order docs/performance.md shows them. */
export function reportLines(f: RunFigures): string[] {
  const lines = [...functionLines(f), '', ...routeLines(f)];
  if (f.levers) {
    lines.push('', `Cold-start levers (${f.leverFunction}, median of ${f.coldRuns}, load + first request):`);
    for (const [k, v] of Object.entries(f.levers))
      lines.push(
        `- ${k}: ${round(v.init!, 1)} ms (load ${round(v.load!, 1)} ms)${v.bytes ? `, ${kb(v.bytes)}` : ''}`,
      );
  }
  lines.push('', ...deliveryLines(f.delivery));
  if (f.lists) lines.push('', ...listLines(f.lists));
  if (f.peer) lines.push('', ...peerLines(f.peer));
  lines.push('', 'Cost assumptions:', ...PRICING_ASSUMPTIONS.map((a) => `- ${a}`));
  return lines;
}
