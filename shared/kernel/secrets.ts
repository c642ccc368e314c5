import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords, bearer tokens and signatures. node:crypto only: nothing here talks to AWS.
 */

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 } as const;

const scryptAsync = (password: string, salt: Buffer, keylen: number): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scrypt(
      password,
      salt,
      keylen,
      { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: SCRYPT.maxmem },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );

/** `scrypt$N$r$p$salt$hash`, so the cost can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.keylen);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(
      password,
      Buffer.from(saltText, 'base64url'),
      expected.length,
      { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem },
      (err, k) => (err ? reject(err) : resolve(k)),
    ),
  );
  return timingSafeEqual(key, expected);
}

/**
 * A stored hash for a password nobody knows. Login runs scrypt against it when the email is
 * unknown, so an unknown email and a wrong password cost the same time.
 */
export const DECOY_PASSWORD_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

/** 256 random bits, base64url. */
export const newAccessToken = (): string => randomBytes(32).toString('base64url');

/** Sessions are stored under the SHA-256 of the token: the token itself is never stored. */
export const tokenId = (accessToken: string): string =>
  createHash('sha256').update(accessToken).digest('base64url');

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('base64url');

export const hmac = (key: string, text: string): string =>
  createHmac('sha256', key).update(text).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
