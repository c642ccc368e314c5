/**
 * Exact decimals for money (docs/api.md section 9). An amount travels as a decimal string with at
 * most two decimals and is computed on as a bigint of minor units (cents), never as a float, so
 * `0.1 + 0.2` is `0.30` and no sum drifts.
 */

/** An amount: up to 13 integer digits and at most 2 decimals (`"1000"`, `"1000.5"`, `"1000.50"`). */
export const MONEY_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/** A line quantity: up to 9 integer digits and at most 3 decimals (`"2"`, `"0.5"`, `"1.125"`). */
export const QUANTITY_PATTERN = /^\d{1,9}(\.\d{1,3})?$/;

/** Digits of a non-negative decimal string scaled to `decimals` places, as a bigint. */
const scaled = (text: string, decimals: number): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
};

/** Minor units (cents) of an amount that matches MONEY_PATTERN. */
export const toMinor = (amount: string): bigint => scaled(amount, 2);

/** The amount of `minor` cents, always with two decimals (`100050n` -> `"1000.50"`). */
export const fromMinor = (minor: bigint): string => {
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
};

/** An amount in the service's one written form, two decimals (`"0.1"` -> `"0.10"`). */
export const normalizeMoney = (amount: string): string => fromMinor(toMinor(amount));

/** The exact sum of amounts. */
export const sumMoney = (amounts: readonly string[]): string =>
  fromMinor(amounts.reduce((sum, amount) => sum + toMinor(amount), 0n));

/**
 * A line's total in cents: quantity x unit amount, exact to 1/100000, then rounded half up to
 * the cent (both factors are non-negative, so half up is half away from zero).
 */
export const lineTotalMinor = (quantity: string, unitAmount: string): bigint => {
  const exact = scaled(quantity, 3) * toMinor(unitAmount);
  return (exact + 500n) / 1000n;
};

/**
 * A decimal number written canonically: optional minus, no leading zeros, optional fraction
 * (`"0.10"`, `"-12"`, `"1000.00"`; not `"007"`, `"1e3"`, `".5"`, `"+1"`). Only such text is read as
 * a number where text and numbers are compared (workflow rule conditions), so an id like `"007"`
 * stays text.
 */
export const CANONICAL_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

const signedScaled = (text: string, decimals: number) =>
  text.startsWith('-') ? -scaled(text.slice(1), decimals) : scaled(text, decimals);

/** Compares two canonical decimals exactly, whatever their number of decimals: -1, 0 or 1. */
export const compareDecimals = (a: string, b: string): -1 | 0 | 1 => {
  const places = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const x = signedScaled(a, places);
  const y = signedScaled(b, places);
  return x < y ? -1 : x > y ? 1 : 0;
};
