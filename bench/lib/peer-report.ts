import { formatRatio } from './measure';
import type { PeerResult } from './peer';
import { kb, ok, PEER_GOALS, round } from './settings';

export type { PeerResult } from './peer';

export function peerLines(p: PeerResult): string[] {
  const lines = [
    `Peer (Express 5 + serverless-http 4 + classic zod + Powertools Logger, bench/peer/handler.ts): bundle ${kb(p.bytes.peer)} (SDK floor ${kb(p.bytes.peerFloor)}), ours (api-exceptions) ${kb(p.bytes.ours)} (SDK floor ${kb(p.bytes.oursFloor)})`,
    '',
    `| Route | Ours warm p50 (floor) | Peer warm p50 (floor) | Warm p50 ours / peer, paired | Overhead above floor, ours / peer | Ratio (≤${PEER_GOALS.overhead}) | Cold init ours / peer, median | Ratio of pairs (≤${PEER_GOALS.cold}) | CPU time ratio, same pairs |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of p.routes) {
    const coldRatio = round(r.cold.ratio.ratio);
    lines.push(
      `| ${r.label} | ${r.ours.p50} ms (${r.ours.floorP50}) | ${r.peer.p50} ms (${r.peer.floorP50}) | ${formatRatio(r.warm)} | ${r.ours.floorError ?? `${r.ours.overheadP50} ms`} / ${r.peer.floorError ?? `${r.peer.overheadP50} ms`} | ${r.overheadRatio ?? '-'} ${ok(r.overheadRatio, PEER_GOALS.overhead)} | ${round(r.cold.fn.init, 1)} / ${round(r.cold.floor.init, 1)} ms | ${formatRatio(r.cold.ratio)} ${ok(coldRatio, PEER_GOALS.cold)} | ${formatRatio(r.cold.cpuRatio)} |`,
    );
  }
  return lines;
}
