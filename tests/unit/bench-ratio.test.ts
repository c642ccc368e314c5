import { describe, expect, it } from 'vitest';
import { median, pairedRatio } from '../../bench/lib/measure';

/**
 * The bench's cold-start and warm ratios (issue 15, item 4): function and floor measured back to
 * back, the ratio taken per pair, so load that comes and goes moves both sides of a pair alike.
 */
describe('paired ratio', () => {
  // Load triples halfway through; the function costs 10% more than its floor throughout.
  const floor = Array.from({ length: 40 }, (_, i) => (i < 20 ? 80 : 240) + (i % 3));
  const fn = floor.map((f) => f * 1.1);

  it('holds still when the machine load changes during the run', () => {
    const r = pairedRatio(fn, floor);
    expect(r.ratio).toBeCloseTo(1.1, 6);
    expect(r.spread[0]).toBeCloseTo(1.1, 6);
    expect(r.spread[1]).toBeCloseTo(1.1, 6);
    expect(r.precision).toBeLessThan(0.001);
    // Measured in separate blocks (all of the function, then all of the floor) the same numbers
    // say the opposite: the function would look three times faster than its floor.
    const blocks = median(fn.slice(0, 20)) / median(floor.slice(20));
    expect(blocks).toBeLessThan(0.5);
  });

  it('reports the spread and a precision that narrows with more pairs', () => {
    const noisy = (n: number) => {
      const f: number[] = [];
      const g: number[] = [];
      for (let i = 0; i < n; i++) {
        g.push(100);
        f.push(100 * (1.05 + ((i * 7) % 11) / 100 - 0.05));
      }
      return pairedRatio(f, g);
    };
    const few = noisy(10);
    const many = noisy(80);
    expect(few.spread[0]).toBeLessThan(few.ratio);
    expect(few.spread[1]).toBeGreaterThan(few.ratio);
    expect(many.pairs).toBe(80);
    expect(many.precision).toBeLessThan(few.precision);
  });
});
