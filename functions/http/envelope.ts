import { randomUUID } from 'node:crypto';
import { type Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import { logger } from '#functions/observability';
import type { HttpMiddleware, MiddyRequest } from './context';
import { toProblem } from './problem';

const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The caller's `x-request-id` when it is sane, or a new one (docs/api.md section 1). */
export const requestIdOf = (given: unknown): string =>
  typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();

/**
 * Envelope: request id, the access log line and metrics for every response, and the error
 * mapper. It wraps everything else, so every answer (including 404/405/401) carries
 * `x-request-id` and is logged once.
 */
export const envelope = (group: string, metrics: Metrics): HttpMiddleware => {
  const finish = ({ event, context, response }: MiddyRequest) => {
    const { requestId, started, route, principal } = context.http;
    response!.headers = { ...response!.headers, 'x-request-id': requestId };
    const latency = performance.now() - started;
    const status = response!.statusCode;
    metrics.addMetric(METRICS.apiRequest, MetricUnit.Count, 1);
    metrics.addMetric(METRICS.apiLatency, MetricUnit.Milliseconds, latency);
    if (status >= 500) metrics.addMetric(METRICS.apiServerError, MetricUnit.Count, 1);
    else if (status >= 400) metrics.addMetric(METRICS.apiClientError, MetricUnit.Count, 1);
    logger.info('request', {
      event: LOG_EVENTS.request,
      group,
      route: route ? route.id : null,
      method: event.requestContext.http.method,
      path: event.rawPath,
      status,
      latency_ms: Math.round(latency * 100) / 100,
      tenant_id: route?.params.tenant_id ?? null,
      user_id: principal?.user_id ?? null,
    });
  };
  return {
    before: ({ event, context }) => {
      const requestId = requestIdOf(event.headers?.['x-request-id']);
      context.http = { requestId, started: performance.now() };
      logger.appendKeys({ request_id: requestId });
    },
    after: finish,
    onError: (request) => {
      // A middleware before ours (Powertools') may have failed before `before` set the state.
      request.context.http ??= { requestId: randomUUID(), started: performance.now() };
      request.response = toProblem(request.error, request.context.http.requestId);
      finish(request);
    },
  };
};
