import type * as core from 'zod/v4/core';
import { deprecationHeaders } from '#shared/api/deprecation';
import type { Operation, Operations } from '#shared/api/manifest';
import { NotFoundError } from '#shared/kernel/errors';
import type { Principal } from '#shared/kernel/policy';
import type { ApiEvent, HttpContext, HttpResponse } from './context';
import type { Idempotency } from './idempotency';
import { parse } from '#shared/api/issues';
import { inWriteScope } from './write-outcome';

/** The route functions' timeout (infra), for a context that cannot tell the time left. */
const ROUTE_TIMEOUT_MS = 10_000;
/** Kept back from the function's time left to answer after the last write. */
const ANSWER_MARGIN_MS = 1_000;

type Out<D, F extends string> =
  D extends Record<F, infer S extends core.$ZodType> ? core.output<S> : undefined;

/** What an implementation is given: the operation's input, parsed by its own schemas. */
export interface HttpRequest<O extends Operation> {
  params: Out<O, 'params'>;
  query: Out<O, 'query'>;
  body: Out<O, 'body'>;
  /** Present on every `bearer` route. */
  principal: O['auth'] extends 'bearer' ? Principal : Principal | undefined;
  headers: Record<string, string | undefined>;
  requestId: string;
  /** The client's address as API Gateway saw it (what public routes throttle by). */
  sourceIp: string;
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

/**
 * The handler behind the guard: the matched operation's input parsed, its implementation called
 * and the result shaped into a response; through `idempotency` when the operation is idempotent
 * and the client sent an `Idempotency-Key`.
 */
export function dispatcher<Ops extends Operations>(impls: Implementations<Ops>, idempotency?: Idempotency) {
  return async (event: ApiEvent, context: HttpContext): Promise<HttpResponse> => {
    const { requestId, route, principal } = context.http;
    const { id, op, params } = route!;
    const request = {
      params: op.params ? parse(op.params, params) : undefined,
      query: op.query ? parse(op.query, event.queryStringParameters ?? {}) : undefined,
      body: op.body ? parse(op.body, event.body) : undefined,
      principal,
      headers: event.headers ?? {},
      requestId,
      sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
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
    const left =
      typeof context.getRemainingTimeInMillis === 'function'
        ? context.getRemainingTimeInMillis()
        : ROUTE_TIMEOUT_MS;
    // The request's writes resolve an unknown outcome by this instant (./write-outcome.ts).
    const scope = {
      deadline: Date.now() + left - ANSWER_MARGIN_MS,
      acceptUnknown: idempotencyKey !== undefined,
    };
    const answer = await inWriteScope(scope, () =>
      idempotencyKey === undefined
        ? respond()
        : // Scoped to the tenant (or the user on tenant-less routes); see ./idempotency.ts.
          idempotency!(
            {
              key: idempotencyKey,
              scope: params.tenant_id ?? `user:${principal?.user_id ?? 'anonymous'}`,
              operation: id,
              fingerprint: JSON.stringify([params, request.body ?? null]),
              requestId,
            },
            respond,
          ),
    );
    // Added to replays too: a deprecation declared after the first answer still reaches the caller.
    if (op.deprecated) answer.headers = { ...answer.headers, ...deprecationHeaders(op.deprecated) };
    return answer;
  };
}
