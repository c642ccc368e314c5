import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Recorder, type WireCall, type WireRoute, wireOf } from './capture';
import { floorCalls } from './measure';

/**
 * The warm floor: the least work that puts a handler's requests on the wire again. Each request
 * the handler sent (recorded at the HTTP level, bench/lib/capture.ts) is serialized once, before
 * the clock starts, then written as bytes with the headers the handler's client sent, through
 * that client's own agent, so on its kept-alive sockets; the floor reads each answer to its end
 * and parses nothing. No SDK middleware, marshalling, signing or response parsing runs inside
 * the floor's time: what the handler takes above it is everything our code and the SDK do around
 * the round trips. (DynamoDB Local does not check signatures; in the cloud a floor would also
 * sign each request, some tens of microseconds.)
 */
export interface Prepared {
  call: WireCall;
  route: WireRoute;
  body: Buffer;
}

export interface Answer {
  status: number;
  body: Buffer;
}

/**
 * The handler's calls as the floor sends them, against the floor's copy of the table (and, when
 * told, asking for consumed capacity: bench/lib/measure.ts floorCalls). The SDK's idempotency
 * token of a transaction is replaced by a fresh one of the same size: the same token with another
 * table's request would be refused as a mismatch.
 */
export function prepareFloor(calls: WireCall[], from: string, to: string, withCapacity = false): Prepared[] {
  return calls.flatMap((original) => {
    const route = wireOf(original);
    if (!route) throw new Error(`floor: no wire route recorded for ${original.target}`);
    return floorCalls([original], from, to, withCapacity).map((call) => {
      const input =
        original.input.ClientRequestToken === undefined
          ? call.input
          : { ...call.input, ClientRequestToken: randomUUID() };
      return { call: { ...call, input }, route, body: Buffer.from(JSON.stringify(input)) };
    });
  });
}

const sendOne = (p: Prepared) =>
  new Promise<Answer>((resolve, reject) => {
    const send = p.route.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      {
        agent: p.route.agent,
        hostname: p.route.hostname,
        port: p.route.port,
        path: p.route.path,
        method: p.route.method,
        headers: { ...p.route.headers, 'content-length': p.body.length },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(p.body);
  });

/** Sends the prepared requests in order, as the handler did; a refused one stops the bench. */
export async function sendFloor(requests: Prepared[]): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const p of requests) {
    const answer = await sendOne(p);
    // A floor that was refused did other work than the handler: not a floor.
    if (answer.status !== 200)
      throw new Error(`floor: ${p.call.target} answered ${answer.status}: ${answer.body.toString('utf8')}`);
    answers.push(answer);
  }
  return answers;
}

/** The answers as JSON, for the warm-up round that reads consumed capacity. */
export const parsed = (answers: Answer[]): unknown[] =>
  answers.map((a) => JSON.parse(a.body.toString('utf8')) as unknown);

/** The calls the prepared requests carry, in order (to read their answers' capacity against). */
export const callsOf = (requests: Prepared[]): WireCall[] => requests.map((p) => p.call);

/**
 * Lets what the previous side left queued (its sockets going back to the agent's free list, a
 * log line's write) run before the next side's clock starts, so neither pays for the other.
 */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface WarmRound<T> {
  /** What the handler answered. */
  out: T;
  /** The wire calls the handler made. */
  made: WireCall[];
  handlerMs: number;
  /** This process's CPU time (user + system) while the handler ran: not the engine's. */
  handlerCpuMs: number;
  /** The floor's time; absent in the first round, which has nothing to send yet. */
  floorMs?: number;
  floorCpuMs?: number;
  /** What the floor sent and was answered: in the first round it sends, with consumed capacity. */
  floor?: { requests: Prepared[]; answers: Answer[]; first: boolean };
}

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/**
 * One side of a warm measurement, round by round: the handler, and the floor sending the
 * requests of the handler's previous call (prepared while neither clock runs). The order swaps
 * every round (handler first, then floor first: A B B A A B ...), so each side follows the other
 * as often as itself and neither always pays for the engine finishing the other's write. Each of
 * the handler's calls is sent once by the floor, in order, so the floor's table follows the
 * handler's. Wall-clock time includes DynamoDB Local's own work, which on writes varies by more
 * than our overhead (a transaction takes 10 to 25 ms on a loaded machine and took longer on the
 * floor's table copy than on the seeded one, our code well under 1 ms), so each side's CPU time in
 * this process is taken too: it counts our code and the SDK, and none of the engine's time.
 */
export function warmSide<T>(recorder: Recorder, tables: { from: string; to: string }) {
  let pending: WireCall[] | undefined;
  let first = true;
  const handler = async (run: () => Promise<T>) => {
    recorder.take();
    await settle();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const out = await run();
    const handlerMs = performance.now() - t0;
    const handlerCpuMs = cpuMs(process.cpuUsage(c0));
    return { out, made: recorder.take(), handlerMs, handlerCpuMs };
  };
  const floor = async () => {
    const requests = prepareFloor(pending!, tables.from, tables.to, first);
    const wasFirst = first;
    first = false;
    await settle();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const answers = await sendFloor(requests);
    const floorMs = performance.now() - t0;
    const floorCpuMs = cpuMs(process.cpuUsage(c0));
    recorder.take();
    return { floorMs, floorCpuMs, floor: { requests, answers, first: wasFirst } };
  };
  return async (i: number, run: () => Promise<T>): Promise<WarmRound<T>> => {
    if (pending === undefined) {
      const h = await handler(run);
      pending = h.made;
      return h;
    }
    if (i % 2 === 1) {
      const f = await floor();
      const h = await handler(run);
      pending = h.made;
      return { ...h, ...f };
    }
    const h = await handler(run);
    const f = await floor();
    pending = h.made;
    return { ...h, ...f };
  };
}
