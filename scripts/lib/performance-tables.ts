import type { BenchResults, Goals } from './bench-results';
import { table } from './generated-blocks';
import { deliveryTable, listTable, peerTable, webhookTable } from './pipeline-tables';
import { kb, minute, overheadCell, paired, r1, r2, verdict } from './table-format';

export type { BenchResults, Goals } from './bench-results';

/**
 * The tables of docs/performance.md, from bench/results.json as the last `npm run bench` wrote
 * it (`npm run docs:performance` writes them into the page). Only figures the file holds: what
 * they mean is the page's prose.
 */

function runTable(r: BenchResults): string {
  // Parts measured by the same run share a line.
  const runs = new Map<string, string[]>();
  for (const [part, m] of Object.entries(r.measuredAt ?? {})) {
    const key = `${minute(m.at)}, load average ${m.loadAverage.start} → ${m.loadAverage.end}`;
    runs.set(key, [...(runs.get(key) ?? []), part]);
  }
  return [
    `Last written ${minute(r.date)} (Node ${r.node.replace(/^v/, '')}, ${r.cpus} cores${r.runtimeSeconds ? `, ${Math.round(r.runtimeSeconds)} s` : ''}). Each part's figures are from the run that measured it:`,
    '',
    ...[...runs].map(([run, parts]) => `- ${parts.join(', ')}: ${run}`),
  ].join('\n');
}

function budgetTable(r: BenchResults, goals: Goals): string {
  const b = r.budgets;
  return table(['Figure', 'Budget', 'Held by'], 'lrl', [
    [
      'API bundle / its SDK-only floor',
      `≤ ${b.bundle} (allowances per group in the test)`,
      'tests/unit/budgets/bundle-size.test.ts',
    ],
    ['Cold init / floor, API groups', `≤ ${b.coldApi}`, 'bench (cold)'],
    ['Cold init / floor, queue workers', `≤ ${b.coldWorker ?? b.coldOther}`, 'bench (cold)'],
    ['Cold init / floor, authorizer and relay', `≤ ${b.coldOther}`, 'bench (cold)'],
    [
      'Warm: the floor below its handler, every route',
      'else a measurement error, no figure',
      'bench (routes, peer)',
    ],
    [
      'Write units / the contract floor',
      `≤ ${b.writeUnits}`,
      'bench (routes); tests/connected/budgets/round-trips.test.ts',
    ],
    [
      'Delivery: events/s × transactions per event / engine ceiling',
      `≥ ${b.deliveryShare}`,
      'bench (delivery)',
    ],
    [
      'List first page at the largest history / at the smallest, read units',
      `≤ ${goals.lists}`,
      'bench (lists)',
    ],
    ["Cold init ours / the peer's", `≤ ${goals.peerCold} (goal)`, 'bench (peer)'],
    ["Warm overhead above the floor, ours / the peer's", `≤ ${goals.peerOverhead} (goal)`, 'bench (peer)'],
    [
      "Webhooks: tenant B's p50 beside a hanging tenant / alone",
      `≤ ${r.webhooks?.fairness.budget ?? '-'}`,
      'bench (webhooks)',
    ],
  ]);
}

const coldLimit = (r: BenchResults, kind: string) =>
  kind === 'api'
    ? r.budgets.coldApi
    : kind === 'worker'
      ? (r.budgets.coldWorker ?? r.budgets.coldOther)
      : r.budgets.coldOther;

function functionTable(r: BenchResults): string {
  const rows = r.bundles.map((b) => {
    const c = r.cold[b.name];
    const limit = coldLimit(r, b.kind);
    return [
      b.name,
      kb(b.bytes),
      b.ratio === null ? '(no SDK)' : kb(b.floorBytes),
      b.ratio ?? '-',
      c ? `${r1(c.fn.init)} (${r1(c.fn.load)} + ${r1(c.fn.first)})` : '-',
      c ? `${r1(c.floor.init)}` : '-',
      c ? `${paired(c)} ${verdict(c.ratio, limit)}` : '-',
      c ? `${c.cpuRatio} [${c.cpuSpread[0]}–${c.cpuSpread[1]}]` : '-',
    ];
  });
  return table(
    [
      'Function',
      'Bundle',
      'SDK floor',
      'Bundle ratio',
      'Cold init ms (load + 1st request)',
      'Floor ms',
      'Cold ratio, median of pairs [IQR] ±95% CI',
      'CPU-time ratio',
    ],
    'lrrrrrrr',
    rows,
  );
}

type Side = {
  overheadP50?: number | null;
  floorError?: string | null;
  ratio?: { ratio: number; spread: number[]; precision: number; pairs?: number };
};
const ratioCell = (o: Side) => (o.floorError || !o.ratio ? '-' : paired(o.ratio, o.ratio.pairs));
/** `0.41; 1.9 [1.7–2.2] ±3% n=200`: overhead ms and handler / floor, or the check's verdict. */
const sideCell = (o: Side | undefined) =>
  !o ? '-' : o.floorError ? overheadCell(o) : `${overheadCell(o)}; ${ratioCell(o)}`;

function routeTable(r: BenchResults): string {
  const peer = new Map((r.peer?.routes ?? []).map((p) => [p.label, p.peer]));
  const rows = r.routes.map((x) => {
    const p = peer.get(x.label);
    return [
      x.label,
      x.status,
      x.calls.join(' + ') || '-',
      x.capacity.read,
      x.capacity.write,
      x.writeFloor || '-',
      x.writeFloorRatio === null
        ? '-'
        : `${x.writeFloorRatio} ${verdict(x.writeFloorRatio, r.budgets.writeUnits)}`,
      `${r2(x.handler.p50)} / ${r2(x.handler.p99)}`,
      `${r2(x.floor.p50)} / ${r2(x.floor.p99)}`,
      sideCell(x),
      x.cpu ? `${r2(x.cpu.handlerP50)} / ${r2(x.cpu.floorP50)}` : '-',
      sideCell(x.cpu),
      p ? `wall ${sideCell(p)}, CPU ${sideCell(p.cpu)}` : '-',
      x.costPerMillion.toFixed(3),
    ];
  });
  const a = r.authorizer;
  if (a)
    rows.push([
      'authorizer (cache miss)',
      '-',
      a.calls.join(' + '),
      a.capacity.read,
      a.capacity.write,
      '-',
      '-',
      `${r2(a.handler.p50)} / ${r2(a.handler.p99)}`,
      `${r2(a.floor.p50)} / ${r2(a.floor.p99)}`,
      sideCell(a),
      a.cpu ? `${r2(a.cpu.handlerP50)} / ${r2(a.cpu.floorP50)}` : '-',
      sideCell(a.cpu),
      '-',
      '-',
    ]);
  return table(
    [
      'Route',
      'Status',
      'DynamoDB calls',
      'RCU',
      'WCU',
      'WCU floor',
      'WCU / floor',
      'p50 / p99 ms',
      'Floor p50 / p99 ms',
      'Overhead p50 ms; handler / floor, paired',
      'CPU ms p50, handler / floor',
      'CPU overhead ms; handler / floor, paired',
      'Express peer: overhead; CPU overhead',
      '$ / M requests',
    ],
    'lrlrrrrrrrrrrr',
    rows,
  );
}

function leverTable(r: BenchResults): string {
  const rows = Object.entries(r.coldLevers ?? {}).map(([name, t]) => [
    name,
    r1(t.init),
    r1(t.load),
    t.bytes ? kb(t.bytes) : '-',
  ]);
  return table(['Build', 'Cold init ms', 'of it load ms', 'Bundle'], 'lrrr', rows);
}

/** Each generated block of docs/performance.md, by its marker's name. */
export function performanceTables(r: BenchResults, goals: Goals): Record<string, string> {
  return {
    'bench-run': runTable(r),
    'bench-budgets': budgetTable(r, goals),
    'bench-functions': functionTable(r),
    'bench-levers': leverTable(r),
    'bench-routes': routeTable(r),
    'bench-delivery': deliveryTable(r),
    'bench-lists': listTable(r, goals),
    'bench-peer': peerTable(r, goals),
    'bench-webhooks': webhookTable(r),
  };
}
