import { table } from './generated-blocks';

/**
 * The tables of docs/performance.md, from bench/results.json as the last `npm run bench` wrote
 * it (`npm run docs:performance` writes them into the page). Only figures the file holds: what
 * they mean is the page's prose.
 */

interface Timing {
  load: number;
  first: number;
  init: number;
  cpu: number;
  bytes?: number;
}
interface Cold {
  fn: Timing;
  floor: Timing;
  ratio: number;
  spread: number[];
  precision: number;
  cpuRatio: number;
  cpuSpread: number[];
}
interface Paired {
  ratio: number;
  spread: number[];
  precision: number;
  pairs: number;
}
interface Percentiles {
  p50: number;
  p99: number;
}
interface Phase {
  events: number;
  eventsPerSecond: number;
  latencyMs?: Percentiles;
  sqs: { callsPerEvent: number };
  transactionsPerEvent?: number;
}
interface PeerRoute {
  label: string;
  ours: { p50: number; floorP50: number; overheadP50: number };
  peer: { p50: number; floorP50: number; overheadP50: number };
  warm: Paired;
  overheadRatio: number | null;
  cold: { fn: Timing; floor: Timing; ratio: Paired; cpuRatio: Paired };
}

export interface BenchResults {
  date: string;
  node: string;
  cpus: number;
  runtimeSeconds?: number;
  loadAverage: { start: number; end: number };
  budgets: Record<'bundle' | 'coldApi' | 'coldOther' | 'warmP50' | 'writeUnits' | 'deliveryShare', number>;
  bundles: { name: string; kind: string; bytes: number; floorBytes: number; ratio: number | null }[];
  cold: Record<string, Cold>;
  coldLevers?: Record<string, Timing>;
  routes: {
    label: string;
    status: number;
    calls: string[];
    capacity: { read: number; write: number };
    writeFloor: number;
    writeFloorRatio: number | null;
    handler: Percentiles;
    floor: Percentiles;
    ratioP50: number;
    ratio: Paired;
    costPerMillion: number;
  }[];
  authorizer?: {
    calls: string[];
    capacity: { read: number; write: number };
    handler: Percentiles;
    floor: Percentiles;
  };
  delivery: {
    live?: Phase;
    backlog?: Phase;
    ceiling?: {
      transactionsPerSecond: number;
      before: number;
      after: number;
      liveShare: number;
      backlogShare: number;
    };
  };
  lists?: { rows: { list: string; history: number; readUnits: number; roundTrips: number; items: number }[] };
  peer?: { bytes: Record<'ours' | 'peer' | 'oursFloor' | 'peerFloor', number>; routes: PeerRoute[] };
  webhooks?: {
    fanOut: { changes: number; endpoints: number; messagesPerSecond: number; writeUnitsPerMessage: number };
    latency: { changes: number; intervalMs: number; changeToReceiverMs: Percentiles };
    fairness: {
      changesPerTenant: number;
      aloneMs: Percentiles;
      besideHealthyMs: Percentiles;
      besideMs: Percentiles;
      ratio: Percentiles;
      controlRatio: Percentiles;
      budget: number;
    };
  };
  measuredAt?: Record<string, { at: string; loadAverage: { start: number; end: number } }>;
}

/** The goals of the peer comparison (bench/lib/peer-report.ts) and the lists' budget (bench/lib/lists.ts). */
export interface Goals {
  peerCold: number;
  peerOverhead: number;
  lists: number;
}

const r2 = (n: number) => Math.round(n * 100) / 100;
const r1 = (n: number) => Math.round(n * 10) / 10;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (value: number | null, limit: number, atLeast = false) =>
  value === null ? '' : (atLeast ? value >= limit : value <= limit) ? 'ok' : '**over**';
const paired = (p: { ratio: number; spread: number[]; precision: number }, pairs?: number) =>
  `${r2(p.ratio)} [${r2(p.spread[0]!)}–${r2(p.spread[1]!)}] ±${r1(p.precision * 100)}%${pairs ? ` n=${pairs}` : ''}`;
const minute = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';

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
    ['Cold init / floor, authorizer, relay, workers', `≤ ${b.coldOther}`, 'bench (cold)'],
    ['Warm p50 / raw SDK replay', `≤ ${b.warmP50}`, 'bench (routes)'],
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

function functionTable(r: BenchResults): string {
  const rows = r.bundles.map((b) => {
    const c = r.cold[b.name];
    const limit = b.kind === 'api' ? r.budgets.coldApi : r.budgets.coldOther;
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

function routeTable(r: BenchResults): string {
  const rows = r.routes.map((x) => [
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
    `${x.ratioP50} ${verdict(x.ratioP50, r.budgets.warmP50)}`,
    paired(x.ratio, x.ratio.pairs),
    x.costPerMillion.toFixed(3),
  ]);
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
      `${r2(a.handler.p50 / a.floor.p50)}`,
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
      'Raw SDK p50 / p99 ms',
      'p50 ratio',
      'Paired ratio [IQR] ±95% CI',
      '$ / M requests',
    ],
    'lrlrrrrrrrrr',
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

function deliveryTable(r: BenchResults): string {
  const c = r.delivery.ceiling;
  if (!c) return 'Not measured in the last run.';
  const rows = (['live', 'backlog'] as const).flatMap((phase) => {
    const d = r.delivery[phase];
    if (!d) return [];
    const share = phase === 'live' ? c.liveShare : c.backlogShare;
    return [
      [
        phase,
        d.events,
        d.eventsPerSecond,
        d.latencyMs ? `${d.latencyMs.p50} / ${d.latencyMs.p99}` : '-',
        d.sqs.callsPerEvent,
        d.transactionsPerEvent ?? '-',
        phase === 'live' ? `${share} ${verdict(share, r.budgets.deliveryShare, true)}` : `${share} (drain)`,
      ],
    ];
  });
  return [
    `Engine ceiling in the same run: ${c.transactionsPerSecond} TransactWriteItems/s (probed ${c.before} before the pipeline, ${c.after} after).`,
    '',
    table(
      [
        'Phase',
        'Events',
        'Events/s',
        'End-to-end p50 / p99 ms',
        'SQS calls / event',
        'Transactions / event',
        'Share of the ceiling',
      ],
      'lrrrrrr',
      rows,
    ),
  ].join('\n');
}

function listTable(r: BenchResults, goals: Goals): string {
  const rows = r.lists?.rows ?? [];
  const largest = Math.max(...rows.map((x) => x.history));
  return table(
    [
      'List (first page, limit 10)',
      'Non-matching history',
      'Read units',
      'Round trips',
      'Items',
      'RCU / at the smallest',
    ],
    'lrrrrr',
    rows.map((x) => {
      const smallest = rows.filter((y) => y.list === x.list).sort((a, b) => a.history - b.history)[0]!;
      const ratio = r2(x.readUnits / smallest.readUnits);
      return [
        x.list,
        x.history.toLocaleString('en-US'),
        x.readUnits,
        x.roundTrips,
        x.items,
        x.history === largest ? `${ratio} ${verdict(ratio, goals.lists)}` : '',
      ];
    }),
  );
}

function peerTable(r: BenchResults, goals: Goals): string {
  const p = r.peer;
  if (!p) return 'Not measured in the last run.';
  return [
    `Bundles: ours (api-exceptions) ${kb(p.bytes.ours)} over an SDK floor of ${kb(p.bytes.oursFloor)}; the peer ${kb(p.bytes.peer)} over ${kb(p.bytes.peerFloor)}.`,
    '',
    table(
      [
        'Route',
        'Warm p50 ms ours (floor)',
        'Peer (floor)',
        'Warm ours / peer, paired',
        'Overhead above floor ms, ours / peer',
        'Overhead ratio',
        'Cold init ms ours / peer',
        'Cold ratio, paired',
      ],
      'lrrrrrrr',
      p.routes.map((x) => [
        x.label,
        `${x.ours.p50} (${x.ours.floorP50})`,
        `${x.peer.p50} (${x.peer.floorP50})`,
        paired(x.warm, x.warm.pairs),
        `${x.ours.overheadP50} / ${x.peer.overheadP50}`,
        x.overheadRatio === null
          ? '-'
          : x.ours.overheadP50 <= 0
            ? `${x.overheadRatio} (not readable: the floor was slower)`
            : `${x.overheadRatio} ${verdict(x.overheadRatio, goals.peerOverhead)}`,
        `${r1(x.cold.fn.init)} / ${r1(x.cold.floor.init)}`,
        `${paired(x.cold.ratio, x.cold.ratio.pairs)} ${verdict(x.cold.ratio.ratio, goals.peerCold)}`,
      ]),
    ),
  ].join('\n');
}

function webhookTable(r: BenchResults): string {
  const w = r.webhooks;
  if (!w) return 'Not measured in the last run.';
  const f = w.fairness;
  return table(['Figure', 'Value'], 'lr', [
    [
      `Fan-out, one change to ${w.fanOut.endpoints} endpoints (${w.fanOut.changes} changes)`,
      `${w.fanOut.messagesPerSecond} messages/s, ${w.fanOut.writeUnitsPerMessage} WCU/message`,
    ],
    [
      `Change → receiver (${w.latency.changes} changes, one every ${w.latency.intervalMs} ms), p50 / p99`,
      `${w.latency.changeToReceiverMs.p50} / ${w.latency.changeToReceiverMs.p99} ms`,
    ],
    [`Tenant B alone (${f.changesPerTenant} changes), p50 / p99`, `${f.aloneMs.p50} / ${f.aloneMs.p99} ms`],
    ['B beside a healthy tenant, p50 / p99', `${f.besideHealthyMs.p50} / ${f.besideHealthyMs.p99} ms`],
    ['B beside a tenant whose endpoint hangs, p50 / p99', `${f.besideMs.p50} / ${f.besideMs.p99} ms`],
    ['p50 ratio beside the hanging tenant / alone', `${f.ratio.p50} ${verdict(f.ratio.p50, f.budget)}`],
    ['p50 ratio beside the healthy tenant / alone (control)', `${f.controlRatio.p50}`],
  ]);
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
