import type { Principal } from '#shared/kernel/policy';
import { checkBearer, type TokenCheckOptions } from '#functions/authorizer/token-check';
import type { ApiEvent } from './context';

/** The principal the authorizer put in the request context, or undefined (no token, or a bad one). */
const handedOver = (event: ApiEvent): Principal | undefined => {
  const raw = event.requestContext.authorizer?.lambda?.principal;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Principal;
  } catch {
    return undefined;
  }
};

/**
 * The caller of a bearer route: the principal the authorizer handed over, or undefined (401).
 * When the authorizer could not check the token (`auth: 'unavailable'`: its table read failed),
 * the same check runs here, now: API Gateway may be serving that answer from its cache after the
 * table recovered, and then the check simply succeeds; while the table still fails it throws
 * (503), and a bad token is still undefined (401). docs/decisions.md has the reasoning.
 */
export const callerOf = async (
  event: ApiEvent,
  options?: TokenCheckOptions,
): Promise<Principal | undefined> =>
  event.requestContext.authorizer?.lambda?.auth === 'unavailable'
    ? checkBearer(event.headers?.authorization, options)
    : handedOver(event);
