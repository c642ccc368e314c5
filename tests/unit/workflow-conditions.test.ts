import { describe, expect, it } from 'vitest';
import { type ConditionOp, evaluateCondition, resolvePath } from '#shared/domain/workflows/conditions';

/**
 * The edges of the workflow rule matcher (docs/api.md section 9.1) that decide whether a rule
 * fires: every order operator on less, equal and greater; numbers too large or small for a
 * canonical decimal; which path steps index an array; what is never a number.
 */

const passes = (actual: unknown, op: ConditionOp, value?: unknown) =>
  evaluateCondition({ field: 'v', op, value }, { v: actual }).passed;

describe('the order operators', () => {
  it('answer each of less, equal and greater as their names say, for decimals, numbers and text', () => {
    const expected: Record<string, [boolean, boolean, boolean]> = {
      gt: [false, false, true],
      gte: [false, true, true],
      lt: [true, false, false],
      lte: [true, true, false],
    };
    // [less, equal, greater] against the value, in each kind the matcher orders.
    const cases: [unknown, unknown, unknown, unknown][] = [
      ['9.99', '10.00', 10, '10.5'],
      [1e21, 1e22, 1e22, 1e23],
      ['2026-01-30', '2026-01-31', '2026-01-31', '2026-02-01'],
    ];
    for (const [op, [less, equal, greater]] of Object.entries(expected))
      for (const [below, same, value, above] of cases) {
        expect(passes(below, op as ConditionOp, value), `${String(below)} ${op} ${String(value)}`).toBe(less);
        expect(passes(same, op as ConditionOp, value), `${String(same)} ${op} ${String(value)}`).toBe(equal);
        expect(passes(above, op as ConditionOp, value), `${String(above)} ${op} ${String(value)}`).toBe(
          greater,
        );
      }
  });

  it('order a number that has no canonical decimal form against any number', () => {
    expect(passes(1e21, 'gt', 5)).toBe(true);
    expect(passes(5, 'lt', 1e21)).toBe(true);
    expect(passes(1e-7, 'lt', 1)).toBe(true);
    expect(passes(1e-7, 'gte', 1e-7)).toBe(true);
    expect(passes(1e21, 'eq', 1e21)).toBe(true);
  });

  it('never order text against a number, nor anything else that is not both numbers or both text', () => {
    for (const op of ['gt', 'gte', 'lt', 'lte'] as const) {
      expect(passes('abc', op, 5), `abc ${op} 5`).toBe(false);
      expect(passes('abc', op, 1e21), `abc ${op} 1e21`).toBe(false);
      expect(passes(true, op, true), `true ${op} true`).toBe(false);
      expect(passes([1], op, [1]), `[1] ${op} [1]`).toBe(false);
    }
  });
});

describe('what is a number', () => {
  it('an array is not, even of one number', () => {
    expect(passes([5], 'eq', 5)).toBe(false);
    expect(passes([5], 'eq', '5')).toBe(false);
    expect(passes(5, 'in', [[5]])).toBe(false);
  });

  it('contains: an array holds a decimal in any form, text holds only text', () => {
    expect(passes([1000], 'contains', '1000.00')).toBe(true);
    expect(passes(['a', 'b'], 'contains', 'a')).toBe(true);
    expect(passes('1000', 'contains', 1000)).toBe(false);
  });
});

describe('path steps into an array', () => {
  it('index it only when they are digits, whatever Number() would make of them', () => {
    const entity = { list: Array.from({ length: 12 }, (_, i) => `item-${i}`) };
    expect(resolvePath(entity, 'list.10')).toBe('item-10');
    expect(resolvePath(entity, 'list.0')).toBe('item-0');
    for (const step of ['1e1', '0x1', ' 1', '1 ', '-1', '1.0', 'x1', '1x'])
      expect(resolvePath(entity, `list.${step}`), step).toBeUndefined();
  });

  it('never step into text or null', () => {
    expect(resolvePath({ a: 'text' }, 'a.length')).toBeUndefined();
    expect(resolvePath({ a: null }, 'a.b')).toBeUndefined();
  });
});
