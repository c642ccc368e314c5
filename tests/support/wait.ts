/**
 * Waiting in tests without a fixed sleep: poll for a condition until a bounded deadline. A test
 * waits for what it needs (a request arrived, a socket closed, a record relayed) and goes on the
 * moment it holds; a fixed sleep waits too long on a quiet machine and too little on a busy one.
 * Time-driven behaviour moves a clock instead (tests/support/moved-clock.ts).
 */

/**
 * Polls `probe` until it answers something other than undefined, and returns that; fails naming
 * `what` (a function names what was last seen) after `ms`.
 */
export async function until<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  what: string | (() => string),
  ms = 25_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** `until` for a condition: resolves once `holds` is true. */
export const untilTrue = (holds: () => boolean | Promise<boolean>, what: string, ms = 10_000) =>
  until(async () => ((await holds()) ? true : undefined), what, ms);

/**
 * For a test whose clock is vitest's fake setTimeout (`vi.useFakeTimers({ toFake: ['setTimeout',
 * 'clearTimeout'] })`), which moves only when the test advances it: lets the real sockets' I/O
 * run (setImmediate is not faked) until `holds`, for at most `ms` of wall time, and answers
 * whether it held. On the passing path it returns as soon as the I/O is done.
 */
export async function ioUntil(holds: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!holds()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setImmediate(r));
  }
  return true;
}

/** A promise's outcome as it stands: `done` and its value once it settled. */
export function tracked<T>(promise: Promise<T>): { done: boolean; value: T | undefined } {
  const state: { done: boolean; value: T | undefined } = { done: false, value: undefined };
  void promise.then((value) => Object.assign(state, { done: true, value }));
  return state;
}
