import { randomBytes, randomUUID } from 'node:crypto';
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

/** Ids the route names as items that exist (a status change's target) and the floor's twins of them. */
export type Twins = ReadonlyMap<string, string>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A key segment a handler generated: an id or a token, never a prefix such as `TENANT` or a tenant's short id. */
const GENERATED = /^[A-Za-z0-9_-]{20,}$/;

/**
 * The values a handler generated for the items it created: each long segment of the `pk` and `sk`
 * of an item put on condition `attribute_not_exists` (the exception's, audit event's and outbox
 * event's ids, a session's token). Sent again unchanged to the same table, those puts would be
 * refused: the items are there.
 */
export function createdKeys(calls: WireCall[]): string[] {
  const found = new Set<string>();
  for (const call of calls) {
    const input = call.input as { Item?: unknown; ConditionExpression?: unknown; TransactItems?: unknown };
    const puts = Array.isArray(input.TransactItems)
      ? (input.TransactItems as { Put?: typeof input }[]).flatMap((t) => (t.Put ? [t.Put] : []))
      : input.Item
        ? [input]
        : [];
    for (const put of puts) {
      if (!/attribute_not_exists/.test(String(put.ConditionExpression ?? ''))) continue;
      const item = put.Item as Record<string, { S?: string } | undefined>;
      for (const key of ['pk', 'sk'])
        for (const segment of (item[key]?.S ?? '').split('#'))
          if (GENERATED.test(segment)) found.add(segment);
    }
  }
  return [...found];
}

/** Another value of the same length and alphabet: a UUID for a UUID, base64url for a token. */
export const freshLike = (value: string): string =>
  UUID.test(value) ? randomUUID() : randomBytes(value.length).toString('base64url').slice(0, value.length);

const replaceAll = (text: string, swaps: [string, string][]) =>
  swaps.reduce((t, [from, to]) => t.split(from).join(to), text);

/**
 * The handler's calls as the floor sends them, to the same table the handler used: every key the
 * handler generated is replaced by a fresh value of the same length (the same one in every request
 * of the call), so each conditional put finds its item absent and writes an item of the same
 * size, and each existing item the route names (`twins`) by its twin in the same state, so a
 * status change's condition holds. The SDK's idempotency token of a transaction is fresh too. When
 * told, the floor also asks for consumed capacity (bench/lib/measure.ts floorCalls).
 */
export function prepareFloor(
  calls: WireCall[],
  options: { twins?: Twins; withCapacity?: boolean } = {},
): Prepared[] {
  const sent = calls.map((c) => JSON.stringify(c.input)).join('\n');
  const swaps: [string, string][] = [
    ...(options.twins ?? new Map<string, string>()).entries(),
    ...createdKeys(calls).map((key): [string, string] => [key, freshLike(key)]),
  ].filter(([from]) => sent.includes(from));
  return calls.flatMap((original) => {
    const route = wireOf(original);
    if (!route) throw new Error(`floor: no wire route recorded for ${original.target}`);
    return floorCalls([original], '', '', options.withCapacity).map((call) => {
      const recorded = JSON.stringify(
        original.input.ClientRequestToken === undefined
          ? call.input
          : { ...call.input, ClientRequestToken: randomUUID() },
      );
      const text = replaceAll(recorded, swaps);
      // A longer or shorter key would write another item size, at other units: not the same work.
      if (text.length !== recorded.length) throw new Error(`floor: ${original.target} changed size`);
      const input = JSON.parse(text) as Record<string, unknown>;
      return { call: { ...call, input }, route, body: Buffer.from(text) };
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
 * the handler's calls is sent once by the floor, in order, to the same table (with fresh keys and
 * twins: prepareFloor), so both sides write to a table that grows alike. Not a copy of the table:
 * DynamoDB Local took longer to write to the copy than to the seeded table, and the writing
 * routes' floors came out above their handlers under load. Wall-clock time includes the engine's
 * own work, which on writes varies by more than our overhead (a transaction takes 4 to 25 ms with
 * the machine's load), so each side's CPU time in this process is taken too: it counts our code
 * and the SDK, and none of the engine's time.
 */
export function warmSide<T>(recorder: Recorder, twins: Twins = new Map()) {
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
    const requests = prepareFloor(pending!, { twins, withCapacity: first });
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
