import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Agent, ClientRequest, OutgoingHttpHeaders } from 'node:http';

/**
 * Records every AWS JSON-protocol request this process sends (DynamoDB, SQS, ...), at the HTTP
 * level: `X-Amz-Target` and the body. It sees the bundled handlers' own SDK clients (which are
 * private to their module) as well as unbundled code, costs no extra network hop, and changes
 * nothing on the wire, so timings taken while it listens stay honest.
 */
export interface WireCall {
  /** `DynamoDB_20120810.GetItem`, `AmazonSQS.SendMessageBatch`, ... */
  target: string;
  /** The JSON request, as sent. */
  input: Record<string, unknown>;
  /** Request created -> response headers received, once answered: the round trip as the client sees it. */
  ms?: number;
}

/**
 * Where and how a call went on the wire: the sending client's own agent (its kept-alive sockets),
 * the address and the headers it sent. Kept off the call's enumerable fields (`wireOf` reads
 * it), so calls still serialize as { target, input } for the results and the cold processes.
 */
export interface WireRoute {
  agent: Agent | undefined;
  protocol: string;
  hostname: string;
  port: number;
  path: string;
  method: string;
  headers: OutgoingHttpHeaders;
}

const WIRE = Symbol('wire');
export const wireOf = (call: WireCall): WireRoute | undefined =>
  (call as WireCall & { [WIRE]?: WireRoute })[WIRE];

function routeOf(request: ClientRequest): WireRoute {
  const host = String(request.getHeader('host') ?? request.host);
  const colon = host.lastIndexOf(':');
  const protocol = request.protocol;
  return {
    agent: (request as ClientRequest & { agent?: Agent }).agent,
    protocol,
    hostname: colon > 0 ? host.slice(0, colon) : host,
    port: colon > 0 ? Number(host.slice(colon + 1)) : protocol === 'https:' ? 443 : 80,
    path: request.path,
    method: request.method,
    headers: request.getHeaders(),
  };
}

export interface Recorder {
  calls: WireCall[];
  /** Returns the calls recorded since the last take and clears them. */
  take(): WireCall[];
  stop(): void;
}

// Published when the ClientRequest is constructed, before any body is written (Node 22.14+).
const CHANNEL = 'http.client.request.created';

export function recordCalls(): Recorder {
  const calls: WireCall[] = [];
  const onRequest = (message: unknown) => {
    const request = (message as { request: ClientRequest }).request;
    const target = request.getHeader('x-amz-target');
    if (typeof target !== 'string') return;
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    };
    const call: WireCall = { target, input: {} };
    Object.defineProperty(call, WIRE, { value: routeOf(request), enumerable: false });
    calls.push(call);
    const started = performance.now();
    request.once('response', () => {
      call.ms = performance.now() - started;
    });
    const write = request.write.bind(request);
    const end = request.end.bind(request);
    request.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof request.write;
    request.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk);
      const text = Buffer.concat(chunks).toString('utf8');
      call.input = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      return (end as (...a: unknown[]) => ClientRequest)(chunk, ...rest);
    }) as typeof request.end;
  };
  subscribe(CHANNEL, onRequest);
  return {
    calls,
    take: () => calls.splice(0, calls.length),
    stop: () => unsubscribe(CHANNEL, onRequest),
  };
}

/** `DynamoDB_20120810.GetItem` -> `GetItem`. */
export const operationName = (target: string) => target.slice(target.indexOf('.') + 1);

/** The same requests against another table (every `TableName`, however deep). */
export function retarget<T>(value: T, from: string, to: string): T {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === 'TableName' && v === from ? to : v)) as T;
}
