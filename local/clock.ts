import type { Clock } from '#shared/kernel/ids';
import { ValidationError } from '#shared/kernel/errors';

/** The local clock route (docs/api.md, "Local runtime"); only the local runtime knows it. */
export const LOCAL_CLOCK_PATH = '/_local/clock';
/** At most 30 days per move, so one request cannot make a runaway backlog of schedules. */
export const MAX_ADVANCE_SECONDS = 2_592_000;

/**
 * The local runtime's one clock under `OPS_LOCAL_CLOCK=manual`: it starts at the real time and
 * moves only when told, never backwards. Handlers, workers and the timer sweeper all read it
 * (functions/config.ts `provideClock`), so a test can let a week pass in a second.
 */
export class ManualClock implements Clock {
  private at: number;

  constructor(start: Date = new Date()) {
    this.at = start.getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  /** Applies a request body; a bad one throws ValidationError and moves nothing. */
  move(body: unknown): Date {
    const next = this.target(body);
    this.at = next;
    return this.now();
  }

  private target(body: unknown): number {
    const fail = (path: string, code: string, message: string): never => {
      throw new ValidationError([{ path, code, message }]);
    };
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      return fail('', 'invalid_type', 'Expected an object with advance_seconds or now.');
    const { advance_seconds, now, ...rest } = body as Record<string, unknown>;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) return fail(unknown, 'unrecognized_keys', `Unknown field ${unknown}.`);
    if ((advance_seconds === undefined) === (now === undefined))
      return fail('', 'invalid_union', 'Give exactly one of advance_seconds or now.');
    if (advance_seconds !== undefined) {
      if (
        typeof advance_seconds !== 'number' ||
        !Number.isInteger(advance_seconds) ||
        advance_seconds < 1 ||
        advance_seconds > MAX_ADVANCE_SECONDS
      )
        return fail(
          'advance_seconds',
          'out_of_range',
          `An integer from 1 to ${MAX_ADVANCE_SECONDS} (30 days).`,
        );
      return this.at + advance_seconds * 1000;
    }
    const at =
      typeof now === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(now)
        ? Date.parse(now)
        : Number.NaN;
    if (Number.isNaN(at)) return fail('now', 'invalid_format', 'An RFC 3339 date-time with an offset.');
    if (at < this.at)
      return fail('now', 'too_small', `The clock never moves backwards (it is ${this.now().toISOString()}).`);
    return at;
  }
}
