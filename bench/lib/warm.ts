import type { Built, ColdEvents } from './cold';
import { operationName, type Recorder, type WireCall } from './capture';
import { capacityOf, floorCalls, type Handler, measureRoute, percentile, type RouteResult } from './measure';
import { apiEvent, authorizerEvent, coldAnswerOk, coldRequest, context, keyRoutes } from './requests';
import type { Fixture } from './scenario';
import { log, muted, SAMPLES, WARMUP } from './settings';
import { failedRecords, pipelineColdEvent } from './cold-pipeline';

/**
 * Warm latency, round trips and request units, in this process: each key route's bundled handler
 * against the raw SDK calls it made (bench/lib/measure.ts), the authorizer on a cache miss, and
 * the wire calls of each function's cold request for its floor to repeat in the cold processes.
 */

export interface WarmOptions {
  built: Built[];
  handlers: Map<string, Handler>;
  floors: Map<string, Handler>;
  recorder: Recorder;
  fx: Fixture;
  floorTable: string;
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
    routes.push(
      await muted(() =>
        measureRoute({
          route,
          handler,
          floor: o.floors.get(name)!,
          recorder: o.recorder,
          fx: o.fx,
          floorTable: o.floorTable,
          warmup: login ? 3 : WARMUP,
          samples,
          functionName: name,
        }),
      ),
    );
  }
  return routes;
}

export interface AuthorizerResult {
  calls: string[];
  capacity: { read: number; write: number };
  handler: { p50: number; p99: number };
  floor: { p50: number; p99: number };
}

/** The authorizer on a cache miss (the steady state: session already touched within 5 minutes). */
export async function measureAuthorizer(o: WarmOptions): Promise<AuthorizerResult | undefined> {
  const authorizer = o.built.find((b) => b.fn.kind === 'authorizer');
  if (!authorizer) return undefined;
  log('warm: authorizer');
  const h = o.handlers.get(authorizer.fn.name)!;
  const f = o.floors.get(authorizer.fn.name)!;
  await h(authorizerEvent(o.fx.accessToken));
  o.recorder.take();
  const hs: number[] = [];
  const fs: number[] = [];
  let calls: WireCall[] = [];
  let capacity = { read: 0, write: 0 };
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const t0 = performance.now();
    await h(authorizerEvent(o.fx.accessToken));
    const t1 = performance.now();
    const made = o.recorder.take();
    if (i === 0) calls = made;
    const replay = floorCalls(made, o.fx.tableName, o.floorTable, i === 0);
    const t2 = performance.now();
    const out = (await f({ calls: replay })) as unknown[];
    const t3 = performance.now();
    o.recorder.take();
    if (i === 0) capacity = capacityOf(out, replay);
    if (i >= WARMUP) {
      hs.push(t1 - t0);
      fs.push(t3 - t2);
    }
  }
  hs.sort((a, b) => a - b);
  fs.sort((a, b) => a - b);
  return {
    calls: calls.map((c) => operationName(c.target)),
    capacity,
    handler: { p50: percentile(hs, 50), p99: percentile(hs, 99) },
    floor: { p50: percentile(fs, 50), p99: percentile(fs, 99) },
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
