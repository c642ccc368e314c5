import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CANONICAL_DECIMAL,
  compareDecimals,
  fromMinor,
  lineTotalMinor,
  MONEY_PATTERN,
  normalizeMoney,
  QUANTITY_PATTERN,
  sumMoney,
  toMinor,
} from '#shared/kernel/money';

/** docs/api.md section 9: money is exact. */
describe('money', () => {
  it('adds 0.1 and 0.2 to exactly 0.30', () => {
    expect(sumMoney(['0.1', '0.2'])).toBe('0.30');
    expect(0.1 + 0.2).not.toBe(0.3); // what a float would have done
  });

  it('keeps cents exact over many additions', () => {
    expect(sumMoney(Array.from({ length: 1000 }, () => '0.01'))).toBe('10.00');
    expect(sumMoney(['9999999999999.99', '0.01'])).toBe('10000000000000.00');
  });

  it('sums beyond the safe integer range without losing a cent', () => {
    const many = Array.from({ length: 100 }, () => '9999999999999.99');
    expect(sumMoney(many)).toBe('999999999999999.00');
    expect(toMinor('9999999999999.99') * 100n).toBe(99999999999999900n);
  });

  it('writes every amount with two decimals', () => {
    expect(normalizeMoney('1000')).toBe('1000.00');
    expect(normalizeMoney('0.5')).toBe('0.50');
    expect(normalizeMoney('007.1')).toBe('7.10');
    expect(fromMinor(0n)).toBe('0.00');
    expect(fromMinor(5n)).toBe('0.05');
    expect(fromMinor(-5n)).toBe('-0.05');
  });

  it('round-trips every amount the pattern accepts', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 999999999999999n }), (minor) => {
        const text = fromMinor(minor);
        expect(MONEY_PATTERN.test(text)).toBe(true);
        expect(toMinor(text)).toBe(minor);
      }),
    );
  });

  it('accepts at most two decimals and no sign, exponent or separator', () => {
    for (const ok of ['0', '1', '1.5', '1000.00', '9999999999999.99'])
      expect(MONEY_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['1.005', '-1', '+1', '1e3', '.5', '1.', '1,00', '10000000000000', ' 1', ''])
      expect(MONEY_PATTERN.test(bad), bad).toBe(false);
  });
});

describe('line totals: quantity x unit amount, half up to the cent', () => {
  it.each([
    ['2', '10.00', 2000n],
    ['1.5', '0.99', 149n], // 1.485 -> 1.49 (half up)
    ['0.333', '10.00', 333n], // 3.33
    ['1.125', '1.00', 113n], // 1.125 -> 1.13 (half up, not to even)
    ['3', '0.10', 30n],
    ['0.001', '0.01', 0n], // 0.00001 -> 0.00
    ['0.5', '0.01', 1n], // 0.005 -> 0.01
    ['1000000', '9999999999999.99', 999999999999999000000n],
  ])('%s x %s = %s cents', (quantity, unit, cents) => {
    expect(lineTotalMinor(quantity, unit)).toBe(cents);
  });

  it('quantities take at most three decimals', () => {
    for (const ok of ['1', '0.5', '1.125', '999999999']) expect(QUANTITY_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['1.1234', '-1', '1e2', '', '1000000000'])
      expect(QUANTITY_PATTERN.test(bad), bad).toBe(false);
  });
});

describe('exact decimal comparison', () => {
  it.each([
    ['1000', '1000.00', 0],
    ['0.1', '0.10', 0],
    ['0.3', '0.30000000000000004', -1],
    ['-1', '0', -1],
    ['-1.5', '-1.25', -1],
    ['10', '9.999', 1],
    ['12345678901234567890.01', '12345678901234567890.001', 1],
  ])('%s vs %s is %s', (a, b, expected) => {
    expect(compareDecimals(a, b)).toBe(expected);
    expect(compareDecimals(b, a)).toBe(-expected || 0);
  });

  it('reads only canonical decimals as numbers', () => {
    for (const ok of ['0', '-12', '0.10', '1000.00']) expect(CANONICAL_DECIMAL.test(ok), ok).toBe(true);
    for (const bad of ['007', '1e3', '.5', '+1', '1.', '', 'abc'])
      expect(CANONICAL_DECIMAL.test(bad), bad).toBe(false);
  });
});
