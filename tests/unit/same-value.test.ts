import { describe, expect, it } from 'vitest';
import { canonicalJson, sameValue } from '#shared/kernel/same-value';

/** The test of a PATCH field set to what it is (shared/kernel/same-value.ts). */
describe('sameValue', () => {
  it('reads objects equal whatever the order of their keys, at any depth', () => {
    expect(sameValue({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(
      true,
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
  it.each([
    [{ a: 1 }, { a: 2 }],
    [{ a: 1 }, { a: 1, b: 1 }],
    [
      [1, 2],
      [2, 1],
    ],
    [null, {}],
    ['1', 1],
    [{ a: null }, {}],
  ])('tells %j from %j', (x, y) => {
    expect(sameValue(x, y)).toBe(false);
  });
});
