import type { Wait } from '#shared/domain/accounting/ports';
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
