import type { Built, ColdEvents } from './cold';
import { operationName, type Recorder, type WireCall } from './capture';
import {
  type Capacity,
  capacityOf,
  type CpuOverhead,
  cpuOverheadOf,
  type Handler,
  overheadOf,
  percentile,
  type PairedRatio,
  type RouteResult,
} from './measure';
import {
  apiEvent,
  authorizerEvent,
  coldAnswerOk,
  coldRequest,
  context,
  type KeyRoute,
  keyRoutes,
} from './requests';
import type { Fixture } from './scenario';
import { log, muted, SAMPLES, WARMUP } from './settings';
import { writeFloor } from './units';
import { callsOf, parsed, warmSide } from './wire';
import { failedRecords, pipelineColdEvent } from './cold-pipeline';

/**
 * Warm latency, round trips and request units, in this process: each key route's bundled handler
 * against its floor, the same wire requests sent again with the least work (bench/lib/wire.ts),
 * the authorizer on a cache miss, and the wire calls of each function's cold request for its SDK
 * floor to repeat in the cold processes.
 */

export interface WarmOptions {
  built: Built[];
  handlers: Map<string, Handler>;
  recorder: Recorder;
  fx: Fixture;
  floorTable: string;
}

const statusOf = (r: unknown) => (r as { statusCode?: number } | undefined)?.statusCode ?? 0;

interface Paired {
  calls: WireCall[];
  capacity: Capacity;
  floorUnits: number;
  status: number;
  handler: { p50: number; p99: number; samples: number };
  floor: { p50: number; p99: number };
  ratio: PairedRatio;
  overheadP50: number | null;
  floorError: string | null;
  cpu: CpuOverhead;
}

/**
 * `warmup + samples` rounds of handler and floor (bench/lib/wire.ts warmSide). The floor's first
 * send, in the warm-up, also asks DynamoDB for the consumed capacity, which DynamoDB Local
 * reports (table and each index).
 */
async function pairedWarm(
  o: WarmOptions,
  call: (i: number) => Promise<unknown>,
  warmup: number,
  samples: number,
): Promise<Paired> {
  const h: number[] = [];
  const f: number[] = [];
  const hCpu: number[] = [];
  const fCpu: number[] = [];
  let calls: WireCall[] = [];
  let capacity: Capacity = { read: 0, write: 0 };
  let floorUnits = 0;
  let status = 0;
  const side = warmSide<unknown>(o.recorder, o.fx.floorTwins);
  for (let i = 0; i < warmup + samples; i++) {
    const round = await side(i, () => call(i));
    status = statusOf(round.out);
    if (i === 0) calls = round.made;
    if (round.floor?.first) {
      const out = parsed(round.floor.answers);
      capacity = capacityOf(out, callsOf(round.floor.requests));
      floorUnits = writeFloor(out, callsOf(round.floor.requests));
    }
    if (i >= warmup) {
      h.push(round.handlerMs);
      f.push(round.floorMs!);
      hCpu.push(round.handlerCpuMs);
      fCpu.push(round.floorCpuMs!);
    }
  }
  const overhead = overheadOf(h, f);
  const cpu = cpuOverheadOf(hCpu, fCpu);
  h.sort((a, b) => a - b);
  f.sort((a, b) => a - b);
  return {
    calls,
    capacity,
    floorUnits,
    status,
    handler: { p50: percentile(h, 50), p99: percentile(h, 99), samples: h.length },
    floor: { p50: percentile(f, 50), p99: percentile(f, 99) },
    ...overhead,
    cpu,
  };
}

/** Warm latency of one key route: its bundled handler in-process with API Gateway events. */
async function measureRoute(
  o: WarmOptions,
  route: KeyRoute,
  handler: Handler,
  functionName: string,
  warmup: number,
  samples: number,
): Promise<RouteResult> {
  const ctx = context(functionName);
  const p = await pairedWarm(o, (i) => handler(apiEvent(route.request(o.fx, i)), ctx), warmup, samples);
  if (p.floorError) log(`warm: ${route.label}: ${p.floorError}`);
  if (p.cpu.floorError) log(`warm: ${route.label}, CPU time: ${p.cpu.floorError}`);
  return {
    label: route.label,
    operation: route.operation,
    group: route.group,
    status: p.status,
    calls: p.calls.map((c) => operationName(c.target)),
    capacity: p.capacity,
    writeFloor: p.floorUnits,
    handler: p.handler,
    floor: p.floor,
    ratio: p.ratio,
    overheadP50: p.overheadP50,
    floorError: p.floorError,
    cpu: p.cpu,
  };
}

export async function measureRoutes(o: WarmOptions): Promise<RouteResult[]> {
  const routes: RouteResult[] = [];
  for (const route of keyRoutes()) {
    const name = `api-${route.group}`;
    const handler = o.handlers.get(name);
    if (!handler) continue;
    const login = route.operation === 'auth.login';
    const samples = login ? Math.max(20, Math.round(SAMPLES / 5)) : SAMPLES;
    log(`warm: ${route.label} (${samples} samples)`);
    routes.push(await muted(() => measureRoute(o, route, handler, name, login ? 3 : WARMUP, samples)));
  }
  return routes;
}

export interface AuthorizerResult {
  calls: string[];
  capacity: { read: number; write: number };
  handler: { p50: number; p99: number };
  floor: { p50: number; p99: number };
  ratio: PairedRatio;
  overheadP50: number | null;
  floorError: string | null;
  cpu: CpuOverhead;
}

/** The authorizer on a cache miss (the steady state: session already touched within 5 minutes). */
export async function measureAuthorizer(o: WarmOptions): Promise<AuthorizerResult | undefined> {
  const authorizer = o.built.find((b) => b.fn.kind === 'authorizer');
  if (!authorizer) return undefined;
  log('warm: authorizer');
  const h = o.handlers.get(authorizer.fn.name)!;
  // A first call touches the session, so every measured call is a plain cache miss.
  await h(authorizerEvent(o.fx.accessToken));
  const p = await muted(() => pairedWarm(o, () => h(authorizerEvent(o.fx.accessToken)), WARMUP, SAMPLES));
  if (p.floorError) log(`warm: authorizer: ${p.floorError}`);
  return {
    calls: p.calls.map((c) => operationName(c.target)),
    capacity: p.capacity,
    handler: { p50: p.handler.p50, p99: p.handler.p99 },
    floor: p.floor,
    ratio: p.ratio,
    overheadP50: p.overheadP50,
    floorError: p.floorError,
    cpu: p.cpu,
  };
}

/** Each function's cold request, served once warm: the wire calls its floor repeats. */
export async function coldEventsOf(o: WarmOptions): Promise<ColdEvents> {
  const coldEvents: ColdEvents = new Map();
  await muted(async () => {
    for (const b of o.built) {
      let event: unknown;
      if (b.fn.kind === 'api') event = apiEvent(coldRequest(b.fn.group!, o.fx));
      else if (b.fn.kind === 'authorizer') event = authorizerEvent(o.fx.accessToken);
      else event = await pipelineColdEvent(b.fn.name, o.fx, o.floorTable);
      if (event === undefined) continue;
      o.recorder.take();
      // The handler parses the body in place: the cold processes get the event as it was sent.
      const res = (await o.handlers.get(b.fn.name)!(structuredClone(event), context(b.fn.name))) as {
        statusCode?: number;
      };
      if (failedRecords(res) > 0) throw new Error(`cold event of ${b.fn.name} failed its record`);
      if (b.fn.kind === 'api' && !coldAnswerOk(b.fn.group!, res.statusCode ?? 0))
        throw new Error(`cold request of ${b.fn.name} answered ${res.statusCode}: ${JSON.stringify(res)}`);
      coldEvents.set(b.fn.name, { event, calls: o.recorder.take() });
    }
  });
  return coldEvents;
}
