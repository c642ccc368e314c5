import { AppError } from '#shared/kernel/errors';
import { LOG_EVENTS } from '#shared/kernel/names';
import { logger } from '#functions/observability';
import type { HttpResponse } from './context';

/**
 * The one 5xx code a client may see (UnavailableError): it names a condition the client can act
 * on, retrying later, and shows this fixed detail, never the internal cause.
 */
const UNAVAILABLE_DETAIL =
  'A dependency of the service is unavailable or overloaded; retry after Retry-After seconds.';

/**
 * The one place where errors become responses (docs/api.md section 2). Below 500 an AppError
 * shows its own title, code, detail and field errors. A 5xx shows its status and a generic
 * detail with code `internal`, except `unavailable` (503, with its Retry-After); the error itself
 * goes to the log, where the request id finds it. Anything that is not an AppError is a bare 500.
 */
export function toProblem(err: unknown, requestId: string): HttpResponse {
  const known = err instanceof AppError ? err : undefined;
  const publicDetail = !known?.expose && known?.code === 'unavailable' ? UNAVAILABLE_DETAIL : undefined;
  if (publicDetail) {
    logger.error('dependency unavailable', { event: LOG_EVENTS.dependencyUnavailable, error: err as Error });
  } else if (!known?.expose) {
    logger.error('unhandled error', { event: LOG_EVENTS.unhandledError, error: err as Error });
  }
  const shown = known?.expose ? known : undefined;
  const named = shown ?? (publicDetail ? known : undefined);
  const status = known?.status ?? 500;
  return {
    statusCode: status,
    headers: { 'content-type': 'application/problem+json', ...named?.headers },
    body: JSON.stringify({
      type: 'about:blank',
      title: named?.title ?? 'Internal error',
      status,
      code: named?.code ?? 'internal',
      detail:
        shown?.message ?? publicDetail ?? 'Something went wrong; the request id helps us find out what.',
      request_id: requestId,
      ...(shown?.errors ? { errors: shown.errors } : {}),
    }),
  };
}
