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
