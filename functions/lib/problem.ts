import { AppError, MalformedJsonError, UnsupportedMediaTypeError } from '#shared/kernel/errors';
import { LOG_EVENTS } from '#shared/kernel/names';
import { logger } from './observability';

export interface HttpResponse {
  statusCode: number;
  headers: Record<string, string>;
  body?: string;
}

/** Errors thrown by middy's JSON body parser, recognised by their origin package. */
const fromMiddy = (err: unknown): AppError | undefined => {
  const e = err as { statusCode?: number; cause?: { package?: string } };
  if (e?.cause?.package !== '@middy/http-json-body-parser') return undefined;
  return e.statusCode === 415 ? new UnsupportedMediaTypeError() : new MalformedJsonError(err);
};

/**
 * The one place where errors become responses (docs/api.md section 2). An AppError shows its
 * own title, detail and field errors; anything else is logged and answered with a bare 500.
 */
export function toProblem(err: unknown, requestId: string): HttpResponse {
  const known = err instanceof AppError ? err : fromMiddy(err);
  if (!known) {
    logger.error('unhandled error', { event: LOG_EVENTS.unhandledError, error: err as Error });
  }
  const e =
    known ??
    new AppError(
      500,
      'internal',
      'Internal error',
      'Something went wrong; the request id helps us find out what.',
    );
  return {
    statusCode: e.status,
    headers: { 'content-type': 'application/problem+json', ...e.headers },
    body: JSON.stringify({
      type: 'about:blank',
      title: e.title,
      status: e.status,
      code: e.code,
      detail: e.message,
      request_id: requestId,
      ...(e.errors ? { errors: e.errors } : {}),
    }),
  };
}
