import { describe, expect, it } from 'vitest';
import {
  createTimerSweeper,
  SWEEP_SPACING_MS,
  SWEEPS_PER_INVOCATION,
} from '#functions/timer-sweeper/sweeper';

describe('the scheduled timer sweeper', () => {
  it('sweeps twice per minute-long invocation, 30 s apart, so a timer waits at most about 30 s for a sweep', async () => {
    const calls: string[] = [];
    const handler = createTimerSweeper(
      async () => {
        calls.push('sweep');
        return { fired: 2, gone: 0 };
      },
      async (ms) => {
        calls.push(`pause ${ms}`);
      },
    );
    expect(await handler()).toEqual({ fired: 4 });
    expect(calls).toEqual(['sweep', `pause ${SWEEP_SPACING_MS}`, 'sweep']);
    expect(SWEEPS_PER_INVOCATION * SWEEP_SPACING_MS).toBe(60_000);
  });
});
