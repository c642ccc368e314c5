import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '#shared/kernel/cursor';
import { InvalidCursorError } from '#shared/kernel/errors';
import {
  DECOY_PASSWORD_HASH,
  hashPassword,
  newAccessToken,
  safeEqual,
  tokenId,
  verifyPassword,
} from '#shared/kernel/secrets';

const SECRET = 'test-secret-0123456789';
const scope = { list: 'exceptions', tenant_id: 'acme', status: 'open' };
const position = { pk: 'TENANT#acme#EXCEPTION', sk: '0190-abc' };

describe('cursors', () => {
  it('round-trips the position for the same scope, ignoring limit and cursor in the scope', () => {
    const cursor = encodeCursor(SECRET, scope, position);
    expect(decodeCursor(SECRET, scope, cursor)).toEqual(position);
    expect(decodeCursor(SECRET, { ...scope, limit: 7, cursor: 'x', severity: undefined }, cursor)).toEqual(
      position,
    );
  });

  it('is opaque: the raw key is not readable as text', () => {
    expect(encodeCursor(SECRET, scope, position)).not.toContain('TENANT#acme');
  });

  it('refuses a changed body', () => {
    const [, sig] = encodeCursor(SECRET, scope, position).split('.');
    const forged = Buffer.from(JSON.stringify({ ...position, pk: 'TENANT#globex#EXCEPTION' })).toString(
      'base64url',
    );
    expect(() => decodeCursor(SECRET, scope, `${forged}.${sig}`)).toThrow(InvalidCursorError);
  });

  it('refuses a changed signature', () => {
    const cursor = encodeCursor(SECRET, scope, position);
    const last = cursor.at(-1) === 'A' ? 'B' : 'A';
    expect(() => decodeCursor(SECRET, scope, cursor.slice(0, -1) + last)).toThrow(InvalidCursorError);
  });

  it('refuses another tenant, another filter, another list or another secret', () => {
    const cursor = encodeCursor(SECRET, scope, position);
    expect(() => decodeCursor(SECRET, { ...scope, tenant_id: 'globex' }, cursor)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(SECRET, { ...scope, status: 'resolved' }, cursor)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(SECRET, { ...scope, severity: 'info' }, cursor)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(SECRET, { ...scope, status: undefined }, cursor)).toThrow(InvalidCursorError);
    expect(() => decodeCursor(SECRET, { ...scope, list: 'audit-events' }, cursor)).toThrow(
      InvalidCursorError,
    );
    expect(() => decodeCursor('other-secret', scope, cursor)).toThrow(InvalidCursorError);
  });

  it('refuses garbage and over-long cursors', () => {
    for (const bad of ['', 'abc', 'a.b.c', '.sig', 'body.', `${'a'.repeat(2100)}.x`])
      expect(() => decodeCursor(SECRET, scope, bad)).toThrow(InvalidCursorError);
  });

  it('refuses a correctly signed body that is not a JSON object', () => {
    for (const p of [[1, 2], 'str', null]) {
      const cursor = encodeCursor(SECRET, scope, p as never);
      expect(() => decodeCursor(SECRET, scope, cursor)).toThrow(InvalidCursorError);
    }
  });

  it('maps to 400 invalid_cursor', () => {
    const e = new InvalidCursorError();
    expect([e.status, e.code]).toEqual([400, 'invalid_cursor']);
  });
});

describe('passwords', () => {
  it('hashes with a random salt and verifies only the right password', async () => {
    const [a, b] = await Promise.all([
      hashPassword('correct horse battery'),
      hashPassword('correct horse battery'),
    ]);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('refuses malformed stored hashes without throwing', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$1$2$3$abc$def')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$16384$8$1$$')).toBe(false);
  });

  it('the decoy hash is well-formed and matches no ordinary password', async () => {
    expect(await verifyPassword('', DECOY_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword('password1234', DECOY_PASSWORD_HASH)).toBe(false);
  });
});

describe('tokens', () => {
  it('are 256 random bits, base64url', () => {
    const t = newAccessToken();
    expect(t).toMatch(/^[\w-]{43}$/);
    expect(Buffer.from(t, 'base64url')).toHaveLength(32);
    expect(newAccessToken()).not.toBe(t);
  });

  it('are stored under their SHA-256, which is deterministic and not the token', () => {
    const t = newAccessToken();
    expect(tokenId(t)).toBe(tokenId(t));
    expect(tokenId(t)).not.toBe(t);
    expect(tokenId(t)).not.toContain(t);
    expect(tokenId(t)).toBe(createHash('sha256').update(t).digest('base64url'));
    expect(tokenId(newAccessToken())).not.toBe(tokenId(t));
  });

  it('safeEqual compares exactly, including length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
