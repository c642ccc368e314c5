import { join } from 'node:path';
import { bundleFloor, bundleFunction } from './bundle';
import { recordCalls } from './capture';
import { type Built, type ColdResult, pairedCold } from './cold';
import { REPO_ROOT } from './functions';
import {
  floorCalls,
  type Handler,
  loadHandler,
  median,
  type PairedRatio,
  pairedRatio,
  writeBundle,
} from './measure';
import { apiEvent, context, type KeyRoute, keyRoutes } from './requests';
import type { Fixture } from './scenario';
import { COLD_MAX_RUNS, is2xx, log, muted, PARTS, round, SAMPLES, WARMUP } from './settings';

/**
 * Issue 28 item 5: the exceptions group's get and change-status routes against the peer
 * (bench/peer/handler.ts: Express through serverless-http, classic zod, the full Powertools
 * logger), bundled by the same esbuild settings, against the same table. Warm: four timings per
 * round, back to back (ours, our raw SDK calls replayed, the peer, its raw SDK calls replayed), so
 * each side's overhead above its own SDK floor is taken in the same moment. Cold: ours and the
 * peer as interleaved pairs of fresh processes, each serving the route once.
 */

export const PEER_ENTRY = join(REPO_ROOT, 'bench', 'peer', 'handler.ts');
const PEER_ROUTES = ['get exception', 'change status'];

/** Open exceptions the peer part changes: warm rounds and cold pairs, for each side. */
export const peerChanges = () => 2 * (WARMUP + SAMPLES) + 2 * COLD_MAX_RUNS;
/** Where the peer part's open exceptions start among the seeded ones (the routes part's come first). */
const firstChange = () => (PARTS.has('routes') ? WARMUP + SAMPLES : 0);

export interface PeerRoute {
  label: string;
  ours: { p50: number; floorP50: number; overheadP50: number };
  peer: { p50: number; floorP50: number; overheadP50: number };
  /** Ours / peer warm time, per round. */
  warm: PairedRatio;
  /** Our median overhead above our floor / the peer's above its floor. */
  overheadRatio: number;
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

const timed = async (run: () => Promise<unknown>) => {
  const t0 = performance.now();
  const out = await run();
  return { ms: performance.now() - t0, out };
};

async function warmRound(
  o: PeerOptions,
  sides: { route: KeyRoute; handler: Handler; floor: Handler }[],
  recorder: ReturnType<typeof recordCalls>,
  i: number,
) {
  const ms: number[] = [];
  for (const side of sides) {
    recorder.take();
    const res = await timed(() => side.handler(apiEvent(side.route.request(o.fx, i)), context('peer')));
    const status = (res.out as { statusCode?: number }).statusCode ?? 0;
    if (!is2xx(status))
      throw new Error(`peer part: ${side.route.label} answered ${status}: ${JSON.stringify(res.out)}`);
    const replay = floorCalls(recorder.take(), o.fx.tableName, o.floorTable);
    const floor = await timed(() => side.floor({ calls: replay }));
    recorder.take();
    ms.push(res.ms, floor.ms);
  }
  return ms;
}

export async function measurePeer(o: PeerOptions): Promise<PeerResult> {
  log('peer: bundling Express + serverless-http + zod + Powertools Logger');
  const bundle = await bundleFunction(PEER_ENTRY);
  const floorBundle = await bundleFloor(bundle.sdkImports);
  const peerFile = writeBundle('peer', bundle);
  const peerFloorFile = writeBundle('peer.floor', floorBundle);
  Object.assign(process.env, o.env);
  const handlers = {
    ours: loadHandler(o.ours.file),
    oursFloor: loadHandler(o.ours.floorFile),
    peer: loadHandler(peerFile),
    peerFloor: loadHandler(peerFloorFile),
  };
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
        peer: [] as number[],
        peerFloor: [] as number[],
      };
      await muted(async () => {
        for (let i = 0; i < rounds; i++) {
          const [a, af, b, bf] = await warmRound(
            o,
            [
              { route: ours, handler: handlers.ours, floor: handlers.oursFloor },
              { route: peer, handler: handlers.peer, floor: handlers.peerFloor },
            ],
            recorder,
            i,
          );
          if (i < WARMUP) continue;
          t.ours.push(a!);
          t.oursFloor.push(af!);
          t.peer.push(b!);
          t.peerFloor.push(bf!);
        }
      });
      const overhead = (xs: number[], floors: number[]) => median(xs.map((x, k) => x - floors[k]!));
      const side = (xs: number[], floors: number[]) => ({
        p50: round(median(xs)),
        floorP50: round(median(floors)),
        overheadP50: round(overhead(xs, floors)),
      });
      const oursSide = side(t.ours, t.oursFloor);
      const peerSide = side(t.peer, t.peerFloor);

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
        overheadRatio: round(oursSide.overheadP50 / peerSide.overheadP50),
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
