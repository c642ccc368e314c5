import type { ErrorCode } from '#shared/domain/accounting/error-classes';
import type { Connection } from '#shared/domain/integrations/ports';
import type { AccessToken } from '#shared/domain/oauth/tokens';
import { classifyHttpStatus } from '#shared/kernel/http-status';

/**
 * What the OAuth 2 adapters' clients share (xero-target.ts and quickbooks-target.ts for the export, oauth-records.ts for
 * the reconciliation reads): one authorized call with one refresh on a 401, and the failure class
 * of an answer. Kept free of the accounting export's code, so the internal worker, which only
 * reads, bundles none of it.
 */

export type TokenFor = (c: Connection, stale?: string) => Promise<AccessToken>;

export const retryAfterOf = (res: Response): number | undefined => {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
};

/** Xero's daily limit answers 429 with `X-Rate-Limit-Problem: day` (and Retry-After to the window). */
export const errorOf = (res: Response): ErrorCode | undefined =>
  res.status === 429 && res.headers.get('x-rate-limit-problem')?.toLowerCase() === 'day'
    ? 'daily_limit_reached'
    : classifyHttpStatus(res.status);

export const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));

/**
 * One authorized call: the token, the request, and on a 401 one refresh and one repeat. A token
 * that cannot be had is the call's error (`reauthorization_required`, ...).
 */
export async function authorized(
  token: TokenFor,
  c: Connection,
  timeoutMs: number,
  request: (accessToken: string) => [string, RequestInit],
): Promise<Response | { error: ErrorCode; cause?: 'app_credentials_invalid' }> {
  let t = await token(c);
  for (let attempt = 0; ; attempt += 1) {
    // The service's app refused: an auth failure for the export (sending stops), with its cause.
    if (!t.ok)
      return t.error === 'app_credentials_invalid'
        ? { error: 'auth_failed', cause: t.error }
        : { error: t.error };
    const [url, init] = request(t.token);
    const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 401 || attempt > 0) return res;
    await res.body?.cancel();
    t = await token(c, t.token);
  }
}
