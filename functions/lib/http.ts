import { randomUUID } from 'node:crypto';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import jsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import * as z from 'zod/mini';
import type * as core from 'zod/v4/core';
import type { Operation, Operations } from '#shared/api/manifest';
import {
  type FieldError,
  ForbiddenError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthenticatedError,
  UnsupportedMediaTypeError,
  ValidationError,
} from '#shared/kernel/errors';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { authorize, isPlatformAdmin, type Principal } from '#shared/kernel/policy';
import type { Idempotency } from './idempotency';
import { logger, metricsFor } from './observability';
import { type HttpResponse, toProblem } from './problem';
import { type RouteMatch, routerFor } from './router';

/** docs/api.md section 1. */
export const MAX_BODY_BYTES = 256 * 1024;
const JSON_CONTENT_TYPE = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i;
export const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

type Out<D, F extends string> =
  D extends Record<F, infer S extends core.$ZodType> ? core.output<S> : undefined;

export interface HttpRequest<O extends Operation> {
  params: Out<O, 'params'>;
  query: Out<O, 'query'>;
  body: Out<O, 'body'>;
  /** Present on every `bearer` route. */
  principal: O['auth'] extends 'bearer' ? Principal : Principal | undefined;
  headers: Record<string, string | undefined>;
  requestId: string;
}

/** A response that needs more than the operation's status and a JSON body. */
export class HttpResult {
  constructor(
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly status?: number,
  ) {}
}

export type Implementations<Ops extends Operations> = {
  [K in keyof Ops]: (req: HttpRequest<Ops[K]>) => Promise<unknown>;
};

export interface GroupOptions {
  /** For platform_admin on a tenant it is not a member of: does the tenant exist? */
  tenantExists?: (tenantId: string) => Promise<boolean>;
  /** `Idempotency-Key` handling (functions/lib/idempotency.ts); required when an operation is `idempotent`. */
  idempotency?: Idempotency;
}

/** Request-scoped state the middlewares hand to the core handler. */
interface Ctx extends Context {
  ops: { requestId: string; started: number; route?: RouteMatch; principal?: Principal };
}

export type ApiEvent = APIGatewayProxyEventV2 & {
  requestContext: { authorizer?: { lambda?: { principal?: string } } };
};

const UNITS: Record<string, string> = { string: 'characters', array: 'items', set: 'items' };

/**
 * A readable message from the issue's own fields. zod/mini ships without a locale (the English
 * messages would add to every bundle); messages given in a schema are kept as they are.
 */
function describeIssue(issue: core.$ZodIssue): string {
  if (issue.message && issue.message !== 'Invalid input') return issue.message;
  switch (issue.code) {
    case 'too_small':
      return `must be at least ${issue.minimum}${UNITS[issue.origin] ? ` ${UNITS[issue.origin]}` : ''}`;
    case 'too_big':
      return `must be at most ${issue.maximum}${UNITS[issue.origin] ? ` ${UNITS[issue.origin]}` : ''}`;
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    default:
      return 'Invalid value';
  }
}

const fieldErrors = (error: core.$ZodError, prefix = ''): FieldError[] =>
  error.issues.flatMap((issue) => {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: base ? `${base}.${key}` : key,
        code: 'unrecognized_key',
        message: 'Unknown field',
      }));
    }
    return [{ path: base, code: issue.code, message: describeIssue(issue) }];
  });

const parse = <S extends core.$ZodType>(schema: S, value: unknown, prefix = ''): core.output<S> => {
  const result = z.safeParse(schema, value);
  if (!result.success) throw new ValidationError(fieldErrors(result.error, prefix));
  return result.data;
};

const principalOf = (event: ApiEvent): Principal | undefined => {
  const raw = event.requestContext.authorizer?.lambda?.principal;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Principal;
  } catch {
    return undefined;
  }
};

/**
 * Envelope: request id, the access log line and metrics for every response, and the error
 * mapper. It wraps everything else, so every answer (including 404/405/401) carries
 * `x-request-id` and is logged once.
 */
const envelope = (
  group: string,
  metrics: ReturnType<typeof metricsFor>,
): MiddlewareObj<ApiEvent, HttpResponse> => {
  const finish = (request: {
    event: ApiEvent;
    context: Context;
    response: HttpResponse | null | undefined;
  }) => {
    const ctx = (request.context as Ctx).ops;
    const response = request.response as HttpResponse;
    response.headers = { ...response.headers, 'x-request-id': ctx.requestId };
    const latency = performance.now() - ctx.started;
    const status = response.statusCode;
    metrics.addMetric(METRICS.apiRequest, MetricUnit.Count, 1);
    metrics.addMetric(METRICS.apiLatency, MetricUnit.Milliseconds, latency);
    if (status >= 500) metrics.addMetric(METRICS.apiServerError, MetricUnit.Count, 1);
    else if (status >= 400) metrics.addMetric(METRICS.apiClientError, MetricUnit.Count, 1);
    logger.info('request', {
      event: LOG_EVENTS.request,
      group,
      route: ctx.route ? ctx.route.id : null,
      method: request.event.requestContext.http.method,
      path: request.event.rawPath,
      status,
      latency_ms: Math.round(latency * 100) / 100,
      tenant_id: ctx.route?.params.tenant_id ?? null,
      user_id: ctx.principal?.user_id ?? null,
    });
  };
  return {
    before: (request) => {
      const given = request.event.headers?.['x-request-id'];
      const requestId = given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
      (request.context as Ctx).ops = { requestId, started: performance.now() };
      logger.appendKeys({ request_id: requestId });
    },
    after: finish,
    onError: (request) => {
      const ops = (request.context as Ctx).ops ?? { requestId: randomUUID(), started: performance.now() };
      (request.context as Ctx).ops = ops;
      request.response = toProblem(request.error, ops.requestId);
      finish(request);
    },
  };
};

/**
 * Routing and access, before any body is read: 404/405 from the route table, 401 without a
 * valid principal, 404 for a tenant the caller is not a member of, 403 for a role the policy
 * table refuses, then 413 and 415 for the body.
 */
const guard = (operations: Operations, options: GroupOptions): MiddlewareObj<ApiEvent, HttpResponse> => {
  const route = routerFor(operations);
  return {
    before: async (request) => {
      const { event } = request;
      const ctx = (request.context as Ctx).ops;
      const found = route(event.requestContext.http.method, event.rawPath);
      if (found.kind === 'not_found') throw new NotFoundError('No such route.');
      if (found.kind === 'wrong_method') throw new MethodNotAllowedError(found.allow);
      const { op, params } = found.route;
      ctx.route = found.route;

      if (op.auth === 'bearer') {
        const principal = principalOf(event);
        if (!principal) throw new UnauthenticatedError();
        ctx.principal = principal;
      }
      if (op.params && !z.safeParse(op.params, params).success) throw new NotFoundError();
      const principal = ctx.principal;
      if (principal && op.permission) {
        const tenantId = params.tenant_id;
        const decision = authorize(principal, op.permission, tenantId);
        if (decision === 'not_found') throw new NotFoundError();
        if (decision === 'forbidden') throw new ForbiddenError();
        if (
          tenantId !== undefined &&
          isPlatformAdmin(principal) &&
          principal.memberships[tenantId] === undefined &&
          options.tenantExists &&
          !(await options.tenantExists(tenantId))
        ) {
          throw new NotFoundError();
        }
      }

      if (op.body) {
        const raw = event.body ?? '';
        const bytes = event.isBase64Encoded ? Math.floor((raw.length * 3) / 4) : Buffer.byteLength(raw);
        if (bytes > MAX_BODY_BYTES) throw new PayloadTooLargeError(MAX_BODY_BYTES);
        if (!JSON_CONTENT_TYPE.test(event.headers?.['content-type'] ?? ''))
          throw new UnsupportedMediaTypeError();
      }
    },
  };
};

/** middy's JSON parser, for operations that take a body. */
const bodyParser = (): MiddlewareObj<ApiEvent, HttpResponse> => {
  const parser = jsonBodyParser() as MiddlewareObj<ApiEvent, HttpResponse>;
  return {
    before: (request) => {
      if ((request.context as Ctx).ops.route?.op.body) return parser.before?.(request);
    },
  };
};

const headerMap = (event: ApiEvent) => event.headers ?? {};

/**
 * A route group's Lambda handler: the group's rows of the operations manifest bound to their
 * implementations. Handlers only parse, call the domain and return the body.
 */
export function httpHandler<const Ops extends Operations>(
  operations: Ops,
  impls: Implementations<Ops>,
  options: GroupOptions = {},
) {
  const group = Object.values(operations)[0]?.group ?? 'unknown';
  const { idempotency } = options;
  if (!idempotency && Object.values(operations).some((o) => o.idempotent)) {
    throw new Error(`${group}: idempotent operations need options.idempotency`);
  }
  const metrics = metricsFor(group);
  const core = async (event: ApiEvent, context: Context): Promise<HttpResponse> => {
    const ctx = (context as Ctx).ops;
    const { id, op, params } = ctx.route!;
    const request = {
      params: op.params ? parse(op.params, params) : undefined,
      query: op.query ? parse(op.query, event.queryStringParameters ?? {}) : undefined,
      body: op.body ? parse(op.body, event.body) : undefined,
      principal: ctx.principal,
      headers: headerMap(event),
      requestId: ctx.requestId,
    };
    const impl = (impls as unknown as Record<string, (r: typeof request) => Promise<unknown>>)[id];
    if (!impl) throw new NotFoundError('No such route.');
    const respond = async (): Promise<HttpResponse> => {
      const out = await impl(request);
      const result = out instanceof HttpResult ? out : new HttpResult(out);
      const status = result.status ?? op.status;
      if (status === 204 || result.body === undefined) {
        return { statusCode: status, headers: { ...result.headers } };
      }
      return {
        statusCode: status,
        headers: { 'content-type': 'application/json', ...result.headers },
        body: typeof result.body === 'string' ? result.body : JSON.stringify(result.body),
      };
    };
    const idempotencyKey = op.idempotent ? request.headers['idempotency-key'] : undefined;
    if (idempotencyKey === undefined) return respond();
    // Scoped to the tenant (or the user on tenant-less routes); see functions/lib/idempotency.ts.
    return idempotency!(
      {
        key: idempotencyKey,
        scope: params.tenant_id ?? `user:${ctx.principal?.user_id ?? 'anonymous'}`,
        operation: id,
        fingerprint: JSON.stringify([params, request.body ?? null]),
        requestId: ctx.requestId,
      },
      respond,
    );
  };

  return middy<ApiEvent, HttpResponse>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(envelope(group, metrics))
    .use(guard(operations, options))
    .use(bodyParser())
    .handler(core);
}
