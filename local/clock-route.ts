import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from '#functions/http/envelope';
import { toProblem } from '#functions/http/problem';
import { MalformedJsonError, MethodNotAllowedError } from '#shared/kernel/errors';
import type { ManualClock } from './clock';

/** The runtime's own answers (a body over API Gateway's limit, a crash) in the service's problem shape. */
export const writeProblem = (
  res: ServerResponse,
  err: unknown,
  req: IncomingMessage,
  extra: Record<string, string> = {},
) => {
  const requestId = requestIdOf(req.headers['x-request-id']);
  const problem = toProblem(err, requestId);
  res.writeHead(problem.statusCode, { ...problem.headers, 'x-request-id': requestId, ...extra });
  res.end(problem.body);
};

/**
 * `POST /_local/clock` (docs/api.md, "Local runtime"): moves the manual clock, then sweeps the
 * timers that fell due, so they fire as they would have; answers the clock's new time.
 */
export const moveClock = async (
  clockNow: ManualClock,
  sweepTimers: () => Promise<unknown>,
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
) => {
  if (req.method !== 'POST') {
    writeProblem(res, new MethodNotAllowedError(['POST']), req);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    writeProblem(res, new MalformedJsonError(), req);
    return;
  }
  const now = clockNow.move(parsed);
  await sweepTimers();
  res.writeHead(200, {
    'content-type': 'application/json',
    'x-request-id': requestIdOf(req.headers['x-request-id']),
  });
  res.end(JSON.stringify({ now: now.toISOString() }));
};
