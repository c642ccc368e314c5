import { authenticate, type TokenCheckDeps } from '#shared/domain/identity/sessions';
import type { Principal } from '#shared/kernel/policy';
import { dbFor } from '#functions/adapters/dynamo';
import { sessionCheckStore } from '#functions/adapters/session-check-store';
import { clock, tableConfig } from '#functions/config';

/** `Authorization: Bearer <token>` -> the token, or undefined. */
const bearerToken = (header: string | undefined): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
};

let deps: TokenCheckDeps | undefined;

export interface TokenCheckOptions {
  /**
   * False for a group that writes nothing (previews, docs/api.md section 9.5): it leaves
   * `last_used_at` as it is, which the authorizer refreshes on its next check anyway.
   */
  touch?: boolean;
}

/**
 * The token of an `Authorization` header checked (docs/api.md section 3): the principal, or
 * undefined for a missing or bad token. A store failure throws (UnavailableError). The
 * authorizer runs it on every cache miss; a route group only when the authorizer could not
 * (functions/http/principal.ts), so its client is made on first use.
 */
export async function checkBearer(
  authorization: string | undefined,
  { touch = true }: TokenCheckOptions = {},
): Promise<Principal | undefined> {
  const token = bearerToken(authorization);
  if (!token) return undefined;
  deps ??= { identity: sessionCheckStore(dbFor(tableConfig())), clock };
  const identity = touch ? deps.identity : { ...deps.identity, touchSession: async () => {} };
  return authenticate({ ...deps, identity }, token);
}
