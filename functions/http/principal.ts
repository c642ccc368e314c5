import type { Principal } from '#shared/kernel/policy';
import type { ApiEvent } from './context';

/** The principal the authorizer put in the request context, or undefined (no token, or a bad one). */
export const principalOf = (event: ApiEvent): Principal | undefined => {
  const raw = event.requestContext.authorizer?.lambda?.principal;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as Principal;
  } catch {
    return undefined;
  }
};
