import { join } from 'node:path';
import { bundleFloor, bundleFunction } from './bundle';
import { recordCalls } from './capture';
import { type Built, type ColdResult, pairedCold } from './cold';
import { REPO_ROOT } from './functions';
import {
  type CpuOverhead,
  cpuOverheadOf,
  type Handler,
  loadHandler,
  median,
  overheadOf,
  type PairedRatio,
  pairedRatio,
  writeBundle,
} from './measure';
import { apiEvent, context, type KeyRoute, keyRoutes } from './requests';
import type { Fixture } from './scenario';
import { COLD_MAX_RUNS, is2xx, log, muted, PARTS, round, SAMPLES, WARMUP } from './settings';
import { warmSide } from './wire';

/**
 * Issue 28 item 5: the exceptions group's get and change-status routes against the peer
 * (bench/peer/handler.ts: Express through serverless-http, classic zod, the full Powertools
 * logger), bundled by the same esbuild settings, against the same table. Warm: four timings per
 * round, back to back (ours, our wire requests sent again by the floor, the peer, its wire
 * requests sent again on its own client's agent: bench/lib/wire.ts), so each side's overhead
 * above its own floor is taken in the same moment. Cold: ours and the peer as interleaved pairs
 * of fresh processes, each serving the route once.
 */

export const PEER_ENTRY = join(REPO_ROOT, 'bench', 'peer', 'handler.ts');
const PEER_ROUTES = ['get exception', 'change status'];

/** Open exceptions the peer part changes: warm rounds and cold pairs, for each side. */
export const peerChanges = () => 2 * (WARMUP + SAMPLES) + 2 * COLD_MAX_RUNS;
/** Where the peer part's open exceptions start among the seeded ones (the routes part's come first). */
const firstChange = () => (PARTS.has('routes') ? WARMUP + SAMPLES : 0);

export interface PeerSide {
  p50: number;
  floorP50: number;
  /** Median of the rounds' handler - floor, ms; null when the floor was not below the handler. */
  overheadP50: number | null;
  /** Handler / floor over the rounds. */
  ratio: PairedRatio;
  floorError: string | null;
  cpu: CpuOverhead;
}

export interface PeerRoute {
  label: string;
  ours: PeerSide;
  peer: PeerSide;
  /** Ours / peer warm time, per round. */
  warm: PairedRatio;
  /** Our median overhead above our floor / the peer's above its floor (null: a floor error). */
  overheadRatio: number | null;
  /** The same in CPU time. */
  cpuOverheadRatio: number | null;
  /** Ours (`fn`) against the peer (`floor`): load + first request of fresh processes. */
  cold: ColdResult;
}

export interface PeerResult {
  bytes: { ours: number; peer: number; oursFloor: number; peerFloor: number };
  routes: PeerRoute[];
}

export interface PeerOptions {
  ours: Built;
  fx: Fixture;
  floorTable: string;
  env: Record<string, string>;
}

/** The route's i-th request on its own exception (`offset` apart for each side). */
const shifted = (route: KeyRoute, offset: number): KeyRoute => ({
  ...route,
  request: (fx, i) => route.request(fx, offset + i),
});

async function warmRound(
  o: PeerOptions,
  sides: { route: KeyRoute; handler: Handler; side: ReturnType<typeof warmSide> }[],
  i: number,
) {
  const ms: number[] = [];
  for (const side of sides) {
    const round = await side.side(i, () =>
      side.handler(apiEvent(side.route.request(o.fx, i)), context('peer')),
    );
    const status = (round.out as { statusCode?: number }).statusCode ?? 0;
    if (!is2xx(status))
      throw new Error(`peer part: ${side.route.label} answered ${status}: ${JSON.stringify(round.out)}`);
    ms.push(round.handlerMs, round.floorMs ?? Number.NaN, round.handlerCpuMs, round.floorCpuMs ?? Number.NaN);
  }
  return ms;
}

export async function measurePeer(o: PeerOptions): Promise<PeerResult> {
  log('peer: bundling Express + serverless-http + zod + Powertools Logger');
  const bundle = await bundleFunction(PEER_ENTRY);
  const floorBundle = await bundleFloor(bundle.sdkImports);
  const peerFile = writeBundle('peer', bundle);
  Object.assign(process.env, o.env);
  const handlers = { ours: loadHandler(o.ours.file), peer: loadHandler(peerFile) };
  const recorder = recordCalls();
  const routes: PeerRoute[] = [];
  const rounds = WARMUP + SAMPLES;
  let next = firstChange();
  try {
    for (const route of keyRoutes().filter((r) => PEER_ROUTES.includes(r.label))) {
      // Reads share the one exception; each change gets open exceptions of its own per side.
      const writes = route.label !== 'get exception';
      const ours = writes ? shifted(route, next) : route;
      const peer = writes ? shifted(route, next + rounds) : route;
      if (writes) next += 2 * rounds;
      log(`peer: ${route.label}, ${rounds} warm rounds`);
      const t = {
        ours: [] as number[],
        oursFloor: [] as number[],
        oursCpu: [] as number[],
        oursFloorCpu: [] as number[],
        peerCpu: [] as number[],
        peerFloorCpu: [] as number[],
        peer: [] as number[],
        peerFloor: [] as number[],
      };
      await muted(async () => {
        const sides = [
          { route: ours, handler: handlers.ours, side: warmSide(recorder, o.fx.floorTwins) },
          { route: peer, handler: handlers.peer, side: warmSide(recorder, o.fx.floorTwins) },
        ];
        for (let i = 0; i < rounds; i++) {
          const [a, af, ac, afc, b, bf, bc, bfc] = await warmRound(o, sides, i);
          if (i < WARMUP) continue;
          t.ours.push(a!);
          t.oursFloor.push(af!);
          t.peer.push(b!);
          t.peerFloor.push(bf!);
          t.oursCpu.push(ac!);
          t.oursFloorCpu.push(afc!);
          t.peerCpu.push(bc!);
          t.peerFloorCpu.push(bfc!);
        }
      });
      const side = (
        xs: number[],
        floors: number[],
        cpu: number[],
        floorCpu: number[],
        who: string,
      ): PeerSide => {
        const over = overheadOf(xs, floors);
        if (over.floorError) log(`peer: ${route.label}, ${who}: ${over.floorError}`);
        return {
          p50: round(median(xs)),
          floorP50: round(median(floors)),
          overheadP50: over.overheadP50 === null ? null : round(over.overheadP50),
          ratio: over.ratio,
          floorError: over.floorError,
          cpu: cpuOverheadOf(cpu, floorCpu),
        };
      };
      const oursSide = side(t.ours, t.oursFloor, t.oursCpu, t.oursFloorCpu, 'ours');
      const peerSide = side(t.peer, t.peerFloor, t.peerCpu, t.peerFloorCpu, 'the peer');

      log(`peer: ${route.label}, cold pairs`);
      const coldOffset = writes ? next : 0;
      if (writes) next += 2 * COLD_MAX_RUNS;
      const cold = await pairedCold(
        {
          key: 'ours',
          file: o.ours.file,
          event: undefined,
          eventAt: (n) => apiEvent(route.request(o.fx, writes ? coldOffset + 2 * n : 0)),
          env: o.env,
          answers: is2xx,
        },
        {
          key: 'peer',
          file: peerFile,
          event: undefined,
          eventAt: (n) => apiEvent(route.request(o.fx, writes ? coldOffset + 2 * n + 1 : 0)),
          env: o.env,
          answers: is2xx,
        },
      );
      routes.push({
        label: route.label,
        ours: oursSide,
        peer: peerSide,
        warm: pairedRatio(t.ours, t.peer),
        cpuOverheadRatio:
          oursSide.cpu.overheadP50 === null || peerSide.cpu.overheadP50 === null
            ? null
            : round(oursSide.cpu.overheadP50 / peerSide.cpu.overheadP50),
        overheadRatio:
          oursSide.overheadP50 === null || peerSide.overheadP50 === null
            ? null
            : round(oursSide.overheadP50 / peerSide.overheadP50),
        cold,
      });
    }
  } finally {
    recorder.stop();
  }
  return {
    bytes: {
      ours: o.ours.bundle.bytes,
      peer: bundle.bytes,
      oursFloor: o.ours.floor.bytes,
      peerFloor: floorBundle.bytes,
    },
    routes,
  };
}
