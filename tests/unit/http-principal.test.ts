import { describe, expect, it } from 'vitest';
import type { ApiEvent, AuthorizerContext } from '#functions/http/context';
import { callerOf } from '#functions/http/principal';
import type { Principal } from '#shared/kernel/policy';

/**
 * The caller of a bearer route as the route group sees it (functions/http/principal.ts): what the
 * authorizer handed over, or undefined (the guard's 401) for anything it could not vouch for.
 * The token check the group runs itself is covered over DynamoDB Local elsewhere; here only the
 * answers that need no store: an event without a header must be a 401, never a crash (500).
 */

const principal: Principal = {
  user_id: 'u-1',
  token_id: 'tok-1',
  email: 'u-1@example.test',
  display_name: 'U 1',
  platform_roles: [],
  memberships: { acme: 'owner' },
};

const event = (
  requestContext: { authorizer?: { lambda?: Partial<AuthorizerContext> } },
  headers?: Record<string, string>,
) => ({ requestContext, ...(headers ? { headers } : {}) }) as unknown as ApiEvent;

describe('callerOf', () => {
  it('is the principal the authorizer handed over', async () => {
    expect(
      await callerOf(event({ authorizer: { lambda: { principal: JSON.stringify(principal) } } })),
    ).toEqual(principal);
  });

  it('is undefined (401) without an authorizer context, without its lambda part, or with an empty or garbled principal', async () => {
    expect(await callerOf(event({}))).toBeUndefined();
    expect(await callerOf(event({ authorizer: {} }))).toBeUndefined();
    expect(await callerOf(event({ authorizer: { lambda: {} } }))).toBeUndefined();
    expect(await callerOf(event({ authorizer: { lambda: { principal: '' } } }))).toBeUndefined();
    expect(await callerOf(event({ authorizer: { lambda: { principal: '{not json' } } }))).toBeUndefined();
  });

  it('when the authorizer could not check, a request without a bearer token is undefined (401), headers or not', async () => {
    const unavailable = { authorizer: { lambda: { auth: 'unavailable' as const, principal: '' } } };
    expect(await callerOf(event(unavailable))).toBeUndefined();
    expect(await callerOf(event(unavailable, { authorization: 'Basic dTpw' }))).toBeUndefined();
    // A principal left beside `unavailable` is not trusted: the check decides.
    const stale = {
      authorizer: { lambda: { auth: 'unavailable' as const, principal: JSON.stringify(principal) } },
    };
    expect(await callerOf(event(stale))).toBeUndefined();
  });
});
