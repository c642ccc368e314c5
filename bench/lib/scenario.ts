import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type DynamoDBClient, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { type Db, documentClient } from '#functions/adapters/dynamo';
import { createStores } from '#functions/adapters/stores';
import { lambdaContext, toApiGatewayEvent } from '#local/api-gateway';
import { LOCAL_AWS_ENV, localClient } from '#local/dynamodb-local';
import { OPERATIONS, type Operation, operationsOfGroup } from '#shared/api/manifest';
import { createException } from '#shared/domain/exceptions/use-cases';
import { login } from '#shared/domain/identity/sessions';
import { addMember, createTenant } from '#shared/domain/identity/tenants';
import { newId, systemClock } from '#shared/kernel/ids';
import type { Principal } from '#shared/kernel/policy';
import { hashPassword } from '#shared/kernel/secrets';

/**
 * The data every measurement runs against, and the API Gateway events of the key routes.
 * Route handlers get the principal in `requestContext.authorizer.lambda` directly, as API
 * Gateway hands it over when the authorizer's result is cached; the authorizer is measured on
 * its own.
 */

export interface Fixture {
  tableName: string;
  cursorSecret: string;
  tenantId: string;
  email: string;
  password: string;
  principal: Principal;
  /** A live bearer token, for the authorizer. */
  accessToken: string;
  /** An exception that stays as it is (get). */
  exceptionId: string;
  /** Open exceptions, one per status change. */
  openExceptionIds: string[];
}

/** The environment Lambda sets for a function, plus this service's configuration. */
export function lambdaEnv(name: string, endpoint: string, fx: Pick<Fixture, 'tableName' | 'cursorSecret'>) {
  return {
    ...LOCAL_AWS_ENV,
    AWS_SESSION_TOKEN: 'local',
    AWS_DEFAULT_REGION: LOCAL_AWS_ENV.AWS_REGION,
    AWS_LAMBDA_FUNCTION_NAME: `bench-ops-platform-${name}`,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/bench-ops-platform-${name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: 'bench',
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
    AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001',
    AWS_NODEJS_CONNECTION_REUSE_ENABLED: '1',
    LAMBDA_TASK_ROOT: '/var/task',
    TZ: ':UTC',
    OPS_STAGE: 'bench',
    POWERTOOLS_SERVICE_NAME: 'ops-platform',
    POWERTOOLS_METRICS_NAMESPACE: 'OpsPlatform',
    POWERTOOLS_LOG_LEVEL: 'INFO',
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    TABLE_NAME: fx.tableName,
    OPS_CURSOR_SECRET: fx.cursorSecret,
  };
}

export const dbFor = (endpoint: string, tableName: string, cursorSecret: string): Db => ({
  doc: documentClient(localClient(endpoint)),
  tableName,
  cursorSecret,
});

const EXCEPTION_INPUT = {
  exception_type: 'invoice.mismatch',
  subject_type: 'invoice',
  subject_id: 'INV-2026-0042',
  title: 'Invoice total differs from the purchase order',
  summary: 'The invoice total is 1,240.00 EUR; the purchase order says 1,200.00 EUR.',
  severity: 'warning' as const,
  evidence: { invoice_total: '1240.00', po_total: '1200.00', currency: 'EUR' },
  impact: { amount: '40.00', currency: 'EUR' },
};

/** A user who owns a tenant with `exceptions` listable exceptions, and `openForChanges` more. */
export async function seed(
  endpoint: string,
  tableName: string,
  options: { exceptions?: number; openForChanges?: number } = {},
): Promise<Fixture> {
  const cursorSecret = randomBytes(32).toString('base64url');
  const db = dbFor(endpoint, tableName, cursorSecret);
  const stores = createStores(db);
  const password = randomBytes(12).toString('base64url');
  const user = {
    id: newId(),
    email: `bench-${randomBytes(4).toString('hex')}@ops.test`,
    display_name: 'Bench User',
    created_at: new Date().toISOString(),
    platform_roles: [] as 'platform_admin'[],
  };
  await stores.identity.createUser({ user, password_hash: await hashPassword(password) }, null);
  const tenantId = `t-${randomBytes(4).toString('hex')}`;
  const principal: Principal = {
    user_id: user.id,
    token_id: 'bench',
    email: user.email,
    display_name: user.display_name,
    platform_roles: [],
    memberships: { [tenantId]: 'owner' },
  };
  // A real tenant and membership, so routes that look members up (notification recipients) find them.
  const admin = { ...principal, platform_roles: ['platform_admin' as const], memberships: {} };
  const tenantDeps = { identity: stores.identity, tenants: stores.tenants, clock: systemClock };
  await createTenant(tenantDeps, admin, { id: tenantId, name: 'Bench Tenant' });
  await addMember(tenantDeps, admin, tenantId, {
    email: user.email,
    display_name: user.display_name,
    role: 'owner',
  });
  const deps = { exceptions: stores.exceptions, clock: systemClock };
  const ids: string[] = [];
  const total = (options.exceptions ?? 25) + (options.openForChanges ?? 0);
  for (let i = 0; i < total; i++) {
    ids.push((await createException(deps, principal, tenantId, EXCEPTION_INPUT)).id);
  }
  const identity = { identity: stores.identity, clock: systemClock, sessionTtlSeconds: 3600 };
  const { access_token } = await login(identity, { email: user.email, password });
  db.doc.destroy();
  return {
    tableName,
    cursorSecret,
    tenantId,
    email: user.email,
    password,
    principal: { ...principal },
    accessToken: access_token,
    exceptionId: ids[0]!,
    openExceptionIds: ids.slice(options.exceptions ?? 25),
  };
}

/** Copies every item of one table into another (the floor replays against an identical copy). */
export async function copyTable(endpoint: string, from: string, to: string): Promise<void> {
  const client: DynamoDBClient = localClient(endpoint);
  let start: Record<string, never> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: from, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) await client.send(new PutItemCommand({ TableName: to, Item: item }));
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  client.destroy();
}

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
 * request's wire calls) do comparable work. A group's first GET would not do: `/adapters` is a
 * static catalog, previews have no GET, and `/ops/metrics` is 403 for a tenant owner. Groups not
 * listed (new ones) take their first GET; the bench refuses a cold request that is not 2xx.
 */
const COLD_REQUESTS: Record<string, { operation: string; body?: unknown; platformAdmin?: boolean }> = {
  integrations: { operation: 'integrationConnections.list' },
  // The defaults: every record source of the tenant read, as the briefing does for a role.
  previews: { operation: 'previews.briefing', body: {} },
  metrics: { operation: 'ops.metrics', platformAdmin: true },
  review: { operation: 'reviewItems.list' },
  public: { operation: 'public.health' },
};

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
