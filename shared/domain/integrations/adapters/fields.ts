import * as z from 'zod/mini';

/** Field schemas several adapter declarations share. */

export const text = (min: number, max: number) => z.string().check(z.minLength(min), z.maxLength(max));

export const emailAddress = z
  .string()
  .check(
    z.maxLength(254),
    z.regex(/^[^\s@<>()[\]\\,;:"]{1,64}@[a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+)+$/, 'must be an e-mail address'),
  );

export const currency = z.string().check(z.regex(/^[A-Z]{3}$/, 'must be 3 upper-case letters (ISO 4217)'));

/** An opaque credential: printable ASCII without spaces, 16 to 512 characters. */
export const credential = z
  .string()
  .check(
    z.minLength(16),
    z.maxLength(512),
    z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  );

export const RATE_LIMIT_FAILURES = [
  'rate_limited',
  'provider_unavailable',
  'timeout',
  'network_error',
] as const;
