import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Operations } from '#shared/api/manifest';
import { logger, metricsFor } from '#functions/observability';
import type { ApiEvent, HttpContext, HttpMiddleware, HttpResponse } from './context';
import { dispatcher, type Implementations } from './dispatch';
import { envelope } from './envelope';
import { guard, type TenantExists } from './guard';
import type { Idempotency } from './idempotency';
import { parseJsonBody } from './json-body';

export interface GroupOptions {
  tenantExists?: TenantExists;
  /** Required when an operation is `idempotent` (./idempotency.ts). */
  idempotency?: Idempotency;
  /** A group that writes nothing: its own token check (./principal.ts) does not touch the session. */
  readOnly?: boolean;
}

/** The body as JSON, for operations that take one (./json-body.ts). */
const jsonBody = (): HttpMiddleware => ({
  before: ({ event, context }) => {
    if (context.http.route?.op.body) {
      (event as { body?: unknown }).body = parseJsonBody(event.body, event.isBase64Encoded);
    }
  },
});

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
  if (!options.idempotency && Object.values(operations).some((o) => o.idempotent)) {
    throw new Error(`${group}: idempotent operations need options.idempotency`);
  }
  const metrics = metricsFor(group);
  return middy<ApiEvent, HttpResponse, Error, HttpContext>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics, { captureColdStartMetric: true }))
    .use(envelope(group, metrics))
    .use(guard(operations, options.tenantExists, { touch: !options.readOnly }))
    .use(jsonBody())
    .handler(dispatcher(impls, options.idempotency));
}
