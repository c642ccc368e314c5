import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import { asFunction, recordAwsCalls } from './call-record';
import { connectionSecretsFor } from '#functions/adapters/connection-secrets';
import { dbFor } from '#functions/adapters/dynamo';
import { APP_SECRETS_TENANT } from '#functions/adapters/oauth-provider';
import { identityStore } from '#functions/adapters/identity-store';
import { clock, provideClock, provideConfig } from '#functions/config';
import type { ApiEvent } from '#functions/http/context';
import { requestIdOf } from '#functions/http/envelope';
import { toProblem } from '#functions/http/problem';
import { routerFor } from '#functions/http/router';
import { GROUPS, operationsOfGroup } from '#shared/api/manifest';
import { bootstrapAdmin } from '#shared/domain/identity/tenants';
import { AppError, PayloadTooLargeError } from '#shared/kernel/errors';
import type { Duplex } from 'node:stream';
import { lambdaContext, toApiGatewayEvent } from './api-gateway';
import { startBackground, startServices } from './background';
import { localConfig, type Settings } from './config';
import { LOCAL_CLOCK_PATH, ManualClock } from './clock';
import { moveClock, writeProblem } from './clock-route';
import { ensureTable } from './dynamodb-local';
import { SANDBOX_APPS } from './oauth-sandbox';
import { consoleFiles, demoSiteFiles } from './static-files';
import { LOCAL_WEBHOOKS_PATH, webhookReceiverRoute } from './webhook-receiver-route';

export interface RuntimeOptions {
  /** DynamoDB Local's endpoint. */
  endpoint: string;
  tableName: string;
  port?: number;
  host?: string;
  cursorSecret?: string;
  bootstrapAdmin?: { email: string; password: string };
  staticDir?: string;
  /** The built operator console (console/dist, `npm run build:console`), served at `/console/`. */
  consoleDir?: string;
  /**
   * Settings for the functions and the runtime by their environment variable names (`npm start`
   * passes its own environment); they win over the runtime's own.
   */
  env?: Settings;
}

export interface Runtime {
  url: string;
  port: number;
  stop(): Promise<void>;
}

type Handler = (
  event: unknown,
  context: unknown,
) => Promise<{ statusCode: number; headers?: Record<string, string>; body?: string }>;

/** API Gateway's own limit; the handlers enforce the service's 256 KiB. */
const MAX_GATEWAY_BODY = 10 * 1024 * 1024;

/** How long the rest of a refused body is read and discarded before the connection is cut. */
const DRAIN_MS = 5_000;

/**
 * The request's body, or undefined once it passes MAX_GATEWAY_BODY. Reading then stops without
 * destroying the request, so the 413 can still be written on its socket.
 */
const readBody = (req: IncomingMessage): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_GATEWAY_BODY) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      resolve(undefined);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });

/**
 * A 413 for a body that was not read to its end. The rest of the body is still on its way, so the
 * socket cannot carry another request: the answer says `Connection: close` (a keep-alive client
 * sends its next request on a new connection instead of losing it), and the rest is read and
 * discarded for up to DRAIN_MS, so the client is not reset while it still writes and reads the
 * 413 in full; then the socket is cut.
 */
const refuseUnreadBody = (req: IncomingMessage, res: ServerResponse) => {
  writeProblem(res, new PayloadTooLargeError(MAX_GATEWAY_BODY), req, { connection: 'close' });
  const cut = setTimeout(() => req.socket.destroy(), DRAIN_MS);
  cut.unref();
  req.once('end', () => clearTimeout(cut));
  req.once('close', () => clearTimeout(cut));
  req.resume();
};

/** What Node's parser refuses before a request exists (Node's own answer would be a bare status line). */
const CLIENT_ERRORS: Record<string, () => AppError> = {
  HPE_HEADER_OVERFLOW: () =>
    new AppError(
      431,
      'request_header_fields_too_large',
      'Request header fields too large',
      `The request headers are over ${maxHeaderSize} bytes.`,
    ),
  ERR_HTTP_REQUEST_TIMEOUT: () =>
    new AppError(408, 'request_timeout', 'Request timeout', 'The request did not arrive in time.'),
};

/**
 * Answers what never reaches `dispatch` in the service's problem shape, written to the socket
 * (there is no response object yet), and closes the connection.
 */
const answerClientError = (err: NodeJS.ErrnoException, socket: Duplex) => {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const error =
    CLIENT_ERRORS[err.code ?? '']?.() ??
    new AppError(400, 'malformed_request', 'Malformed request', 'The request is not valid HTTP/1.1.');
  const requestId = randomUUID();
  const problem = toProblem(error, requestId);
  const headers = {
    ...problem.headers,
    'x-request-id': requestId,
    'content-length': Buffer.byteLength(problem.body ?? ''),
    connection: 'close',
  };
  socket.end(
    `HTTP/1.1 ${problem.statusCode} ${STATUS_CODES[problem.statusCode]}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `\r\n${problem.body}`,
  );
};

/**
 * The whole service on one machine: the same Lambda handlers behind a local HTTP server that
 * builds API Gateway events, the same authorizer logic, the demo site at `/`, and the
 * background relay and workers. The handlers read their configuration once per process, as in
 * the cloud, so the runtime provides it (local/config.ts) before they load.
 */
export async function startRuntime(options: RuntimeOptions): Promise<Runtime> {
  const settings = options.env ?? {};
  // A test that checks the roles records every AWS call of the functions (local/call-record.ts):
  // set before any handler loads, since each builds its clients when its module loads.
  recordAwsCalls(settings.OPS_AWS_CALL_LOG || process.env.OPS_AWS_CALL_LOG || undefined);
  await ensureTable(options.endpoint, options.tableName);
  const services = await startServices(settings);
  const config = localConfig({
    endpoint: options.endpoint,
    tableName: options.tableName,
    cursorSecret: options.cursorSecret ?? randomBytes(32).toString('base64url'),
    settings,
    ...services,
  });
  provideConfig(config);
  // One clock for handlers, workers and timers; absent from every cloud bundle (local/ only).
  const manualClock = settings.OPS_LOCAL_CLOCK === 'manual' ? new ManualClock() : undefined;
  if (manualClock) provideClock(manualClock);

  const handlers = new Map<string, Handler>();
  for (const group of GROUPS) {
    const mod = await import(/* @vite-ignore */ `../functions/${group}/handler.ts`);
    handlers.set(group, mod.handler);
  }
  const { handler: authorizer } = await import('#functions/authorizer/handler');
  const routers = GROUPS.map(
    (group) => [group, routerFor(Object.fromEntries(operationsOfGroup(group)))] as const,
  );

  if (options.bootstrapAdmin) {
    const created = await bootstrapAdmin(
      { identity: identityStore(dbFor(config.table)), clock },
      options.bootstrapAdmin.email,
      options.bootstrapAdmin.password,
    );
    if (created && !process.env.OPS_LOCAL_QUIET)
      console.log(`bootstrapped platform admin ${options.bootstrapAdmin.email}`);
  }

  const serveStatic = demoSiteFiles(options.staticDir);
  const serveConsole = consoleFiles(options.consoleDir);

  const dispatch = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    if (body === undefined) {
      refuseUnreadBody(req, res);
      return;
    }
    if (manualClock && req.url?.split('?')[0] === LOCAL_CLOCK_PATH) {
      await moveClock(manualClock, () => background.sweepTimers(), req, body, res);
      return;
    }
    if (req.url?.split('?')[0] === LOCAL_WEBHOOKS_PATH)
      return webhookReceiverRoute(services.sandbox, req, body, res);
    const event: ApiEvent = toApiGatewayEvent(req, body);
    const method = event.requestContext.http.method;
    let group = 'public';
    for (const [name, route] of routers) {
      const found = route(method, event.rawPath);
      if (found.kind === 'not_found') continue;
      group = name;
      // Only routes with an authorizer in the cloud get a principal here, as there.
      if (found.kind === 'match' && found.route.op.auth === 'bearer') {
        const auth = await asFunction('authorizer', () =>
          authorizer({ type: 'REQUEST', headers: event.headers } as never),
        );
        event.requestContext.authorizer = { lambda: auth.context };
      }
      break;
    }
    if (group === 'public' && (method === 'GET' || method === 'HEAD')) {
      const isApi = routers.some(([, route]) => route(method, event.rawPath).kind !== 'not_found');
      const requestId = requestIdOf(req.headers['x-request-id']);
      if (!isApi && (await serveConsole(event.rawPath, requestId, res))) return;
      if (!isApi && (await serveStatic(event.rawPath, requestId, res))) return;
    }
    // Each AWS call is the group's function's, when a test records them (call-record.ts).
    const result = await asFunction(`api-${group}`, () =>
      handlers.get(group)!(event, lambdaContext(`ops-platform-${group}`)),
    );
    res.writeHead(result.statusCode, result.headers ?? {});
    res.end(method === 'HEAD' ? undefined : result.body);
  };

  const server = createServer((req, res) => {
    dispatch(req, res).catch((err) => {
      if (res.headersSent) res.destroy(err);
      else writeProblem(res, err, req);
    });
  });
  server.on('clientError', answerClientError);
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  // The providers send the browser back to this runtime's own callback.
  config.oauth.redirectUrl ??= `http://${options.host ?? '127.0.0.1'}:${port}/oauth/callback`;
  // The console is served here too: the callback page may link back to it.
  config.oauth.consoleUrl ??= `http://${options.host ?? '127.0.0.1'}:${port}/console/`;
  // The service's app secrets at the sandbox providers, where the functions read them.
  const appSecrets = connectionSecretsFor(config.connectionSecrets);
  for (const [key, app] of Object.entries(SANDBOX_APPS))
    await appSecrets.put(APP_SECRETS_TENANT, key, { client_secret: app.client_secret });
  const background = await startBackground(services, {
    endpoint: options.endpoint,
    tableName: options.tableName,
    settings,
  });

  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    stop: async () => {
      await background.stop();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
