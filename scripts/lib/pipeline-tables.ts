import type { BenchResults, Goals } from './bench-results';
import { table } from './generated-blocks';
import { kb, overheadCell, paired, r1, r2, verdict } from './table-format';

/** The tables of docs/performance.md of the delivery pipeline, lists, the peer and webhooks. */

export function deliveryTable(r: BenchResults): string {
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

export function listTable(r: BenchResults, goals: Goals): string {
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

export function peerTable(r: BenchResults, goals: Goals): string {
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
        'CPU overhead ms, ours / peer',
        'CPU overhead ratio',
        'Cold init ms ours / peer',
        'Cold ratio, paired',
      ],
      'lrrrrrrrrr',
      p.routes.map((x) => [
        x.label,
        `${x.ours.p50} (${x.ours.floorP50})`,
        `${x.peer.p50} (${x.peer.floorP50})`,
        paired(x.warm, x.warm.pairs),
        `${overheadCell(x.ours)} / ${overheadCell(x.peer)}`,
        x.overheadRatio === null ? '-' : `${x.overheadRatio} ${verdict(x.overheadRatio, goals.peerOverhead)}`,
        x.ours.cpu && x.peer.cpu ? `${overheadCell(x.ours.cpu)} / ${overheadCell(x.peer.cpu)}` : '-',
        x.cpuOverheadRatio === null || x.cpuOverheadRatio === undefined
          ? '-'
          : `${x.cpuOverheadRatio} ${verdict(x.cpuOverheadRatio, goals.peerOverhead)}`,
        `${r1(x.cold.fn.init)} / ${r1(x.cold.floor.init)}`,
        `${paired(x.cold.ratio, x.cold.ratio.pairs)} ${verdict(x.cold.ratio.ratio, goals.peerCold)}`,
      ]),
    ),
  ].join('\n');
}

export function webhookTable(r: BenchResults): string {
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
