import { InvalidCursorError } from './errors';
import { hmac, safeEqual } from './secrets';

/**
 * Opaque, tamper-evident list cursors (docs/api.md section 4). A cursor carries the store's
 * position and is signed together with its scope (list name, tenant, canonical filter), so a
 * cursor issued for one tenant or filter is refused for any other.
 */

export type CursorScope = Record<string, string | number | boolean | undefined | null>;

const canonical = (scope: CursorScope): string =>
  JSON.stringify(
    Object.keys(scope)
      .filter((k) => scope[k] !== undefined && scope[k] !== null && k !== 'cursor' && k !== 'limit')
      .sort()
      .map((k) => [k, scope[k]]),
  );

export function encodeCursor(secret: string, scope: CursorScope, position: Record<string, unknown>): string {
  const body = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${body}.${hmac(secret, `${canonical(scope)}|${body}`)}`;
}

export function decodeCursor(secret: string, scope: CursorScope, cursor: string): Record<string, unknown> {
  const [body, signature, ...rest] = cursor.split('.');
  if (!body || !signature || rest.length > 0 || cursor.length > 2048) throw new InvalidCursorError();
  if (!safeEqual(signature, hmac(secret, `${canonical(scope)}|${body}`))) throw new InvalidCursorError();
  try {
    const position = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (position === null || typeof position !== 'object' || Array.isArray(position))
      throw new Error('shape');
    return position;
  } catch {
    throw new InvalidCursorError();
  }
}
