import type { IncomingMessage } from 'node:http';
import { lambdaContext, toApiGatewayEvent } from '#local/api-gateway';
import { OPERATIONS, type Operation, operationsOfGroup } from '#shared/api/manifest';
import type { Principal } from '#shared/kernel/policy';
import { EXCEPTION_INPUT, type Fixture } from './scenario';

/**
 * The API Gateway events the measurements send: the key routes, one cold-start request per
 * route group, and the authorizer's event. Route handlers get the principal in
 * `requestContext.authorizer.lambda` directly, as API Gateway hands it over when the
 * authorizer's result is cached; the authorizer is measured on its own.
 */

export interface ApiRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Bearer routes: the principal the (cached) authorizer put into the context. */
  principal?: Principal;
}

/** An API Gateway HTTP API (payload 2.0) event, built by the local runtime's own code. */
export function apiEvent(req: ApiRequest) {
  const body = req.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(req.body));
  const qs = req.query ? `?${new URLSearchParams(req.query)}` : '';
  const headers: Record<string, string> = { host: 'api.ops.test', 'user-agent': 'bench' };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const incoming = {
    url: `${req.path}${qs}`,
    method: req.method,
    headers,
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
  const event = toApiGatewayEvent(incoming, body) as ReturnType<typeof toApiGatewayEvent> & {
    requestContext: { authorizer?: { lambda: { principal: string } } };
  };
  if (req.principal)
    event.requestContext.authorizer = { lambda: { principal: JSON.stringify(req.principal) } };
  return event;
}

export const context = lambdaContext;

const fillPath = (path: string, params: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_, k: string) => params[k] ?? `unknown-${k}`);

export interface KeyRoute {
  label: string;
  operation: string;
  group: string;
  /** Builds the i-th request (writes get fresh targets). */
  request(fx: Fixture, i: number): ApiRequest;
}

const paramsOf = (fx: Fixture, extra: Record<string, string> = {}) => ({
  tenant_id: fx.tenantId,
  exception_id: fx.exceptionId,
  user_id: fx.principal.user_id,
  ...extra,
});

const route = (
  label: string,
  operation: string,
  build: (
    fx: Fixture,
    i: number,
  ) => { params?: Record<string, string>; query?: Record<string, string>; body?: unknown },
): KeyRoute | undefined => {
  const op = (OPERATIONS as Record<string, Operation>)[operation];
  if (!op) return undefined;
  return {
    label,
    operation,
    group: op.group,
    request: (fx, i) => {
      const b = build(fx, i);
      return {
        method: op.method,
        path: fillPath(op.path, paramsOf(fx, b.params)),
        query: b.query,
        body: b.body,
        principal: op.auth === 'bearer' ? fx.principal : undefined,
      };
    },
  };
};

/** The first POST of a group, for routes whose operation id is not known yet (new groups). */
const firstPost = (group: string) => operationsOfGroup(group).find(([, o]) => o.method === 'POST')?.[0];

/**
 * The key routes of the issue. `create notification` is measured once its operation exists; its
 * body is the minimal in-app notification to the caller.
 */
export function keyRoutes(): KeyRoute[] {
  const notify = firstPost('notifications');
  return [
    route('login', 'auth.login', (fx) => ({ body: { email: fx.email, password: fx.password } })),
    route('get exception', 'exceptions.get', () => ({})),
    route('list exceptions', 'exceptions.list', () => ({ query: { limit: '20' } })),
    route('create exception', 'exceptions.create', () => ({ body: EXCEPTION_INPUT })),
    route('change status', 'exceptions.changeStatus', (fx, i) => ({
      params: { exception_id: fx.openExceptionIds[i] ?? 'missing' },
      body: { status: 'acknowledged' },
    })),
    notify
      ? route('create notification', notify, (fx) => ({
          body: {
            channel: 'in_app',
            recipient: fx.principal.user_id,
            subject: 'Bench',
            body: 'An exception needs your attention.',
          },
        }))
      : undefined,
  ].filter((r): r is KeyRoute => r !== undefined);
}

/**
 * A group's first request in a fresh process, for cold starts: one that succeeds (2xx) and reads
 * the table as the group's main route does, so the function and its floor (which replays that
 * request's wire calls) do comparable work. A group's first GET would not do: `/adapters` and
 * `/event-types` are static catalogs, previews have no GET, and `/ops/metrics` is 403 for a tenant owner. Groups not
 * listed (new ones) take their first GET; the bench refuses a cold request that is not 2xx.
 */
const COLD_REQUESTS: Record<
  string,
  { operation: string; body?: unknown; platformAdmin?: boolean; statuses?: readonly number[] }
> = {
  integrations: { operation: 'integrationConnections.list' },
  // The defaults: every record source of the tenant read, as the briefing does for a role.
  previews: { operation: 'previews.briefing', body: {} },
  metrics: { operation: 'ops.metrics', platformAdmin: true },
  review: { operation: 'reviewItems.list' },
  // Its first GET is the event catalog, served from generated data without the table.
  webhooks: { operation: 'webhookEndpoints.list' },
  public: { operation: 'public.health' },
  // A browser page that succeeds only with a consent's single-use state: cold, it refuses a
  // missing one with its short HTML page, before any table call; from the 21st run on, the
  // callback's throttle (20 failures per address in 15 minutes) answers 429, one read earlier.
  oauth: { operation: 'oauth.callback', statuses: [400, 429] },
};

/** Whether a group's cold request answered as it should: 2xx, or a status its row names. */
export function coldAnswerOk(group: string, status: number): boolean {
  const expected = COLD_REQUESTS[group]?.statuses;
  return expected === undefined ? status >= 200 && status < 300 : expected.includes(status);
}

/** Whether a group's cold request reads the table (every one but a row with its own statuses). */
export const coldReads = (group: string): boolean => COLD_REQUESTS[group]?.statuses === undefined;

export function coldRequest(group: string, fx: Fixture): ApiRequest {
  const chosen = COLD_REQUESTS[group];
  const ops = operationsOfGroup(group);
  const found = chosen
    ? ops.find(([id]) => id === chosen.operation)
    : ops.find(([, o]) => o.method === 'GET');
  if (!found) throw new Error(`no cold request for group ${group}: ${chosen?.operation ?? 'it has no GET'}`);
  const [, op] = found;
  const principal = chosen?.platformAdmin
    ? { ...fx.principal, platform_roles: ['platform_admin' as const] }
    : fx.principal;
  return {
    method: op.method,
    path: fillPath(op.path, paramsOf(fx)),
    body: chosen?.body,
    principal: op.auth === 'bearer' ? principal : undefined,
  };
}

/** The Lambda authorizer's event for a bearer token. */
export const authorizerEvent = (token: string) => ({
  version: '2.0',
  type: 'REQUEST',
  routeArn: 'arn:aws:execute-api:us-east-1:000000000000:api/$default/GET/bench',
  identitySource: [`Bearer ${token}`],
  routeKey: 'GET /bench',
  rawPath: '/bench',
  headers: { authorization: `Bearer ${token}` },
});
