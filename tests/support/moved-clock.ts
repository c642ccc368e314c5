import type { Wait } from '#shared/domain/accounting/ports';
import { vi } from 'vitest';
import type { Clock } from '#shared/kernel/ids';

/**
 * A clock moved by its `wait` instead of sleeping: a run paced through `wait` advances it, and
 * `waits` says how long each pause was. `runs` with the system clock (plus the waits), or is
 * `frozen` at its start, so only the waits move it (for exact assertions on pacing).
 */
export function movedClock(mode: 'runs' | 'frozen' = 'runs'): { clock: Clock; wait: Wait; waits: number[] } {
  const start = Date.now();
  let offsetMs = 0;
  const waits: number[] = [];
  return {
    clock: { now: () => new Date((mode === 'frozen' ? start : Date.now()) + offsetMs) },
    wait: async (ms) => {
      waits.push(ms);
      offsetMs += ms;
    },
    waits,
  };
}

/** The clock and the `wait` of a moved clock, as a worker's deps take them. */
export const pacedBy = ({ clock, wait }: ReturnType<typeof movedClock>) => ({ clock, wait });

/**
 * A clock that stands still until the test moves it: `set` to an instant (ISO text or epoch
 * milliseconds), `add` some milliseconds. Timers, windows and leases are tested at exact instants
 * with it, never by waiting for the wall clock.
 */
export function manualClock(start: string): ManualClock {
  let at = Date.parse(start);
  return {
    now: () => new Date(at),
    set: (to) => {
      at = typeof to === 'number' ? to : Date.parse(to);
    },
    add: (ms) => {
      at += ms;
    },
  };
}

export interface ManualClock extends Clock {
  set(to: string | number): void;
  add(ms: number): void;
}

/**
 * Runs `body` with vitest's fake setTimeout and clearTimeout as the clock: it moves only when the
 * test advances it (vi.advanceTimersByTime), while sockets stay real and their I/O runs
 * (setImmediate is not faked; tests/support/wait.ts `ioUntil` waits on it). For code whose
 * deadlines are timers rather than a clock port: a network call's deadline or slow signal.
 */
export async function onMovedClock(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
}

/** Lets I/O run a few turns without moving the clock: what is due now happens. */
export async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
}
