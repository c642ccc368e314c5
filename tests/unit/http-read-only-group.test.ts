import { describe, expect, it, vi } from 'vitest';
import { httpHandler } from '#functions/http/handler';
import { logger } from '#functions/observability';
import { lambdaContext } from '#local/api-gateway';
import { EXCEPTIONS_OPERATIONS } from '#shared/api/operations/exceptions';
import type { Principal } from '#shared/kernel/policy';

/**
 * A read-only group (previews, docs/api.md section 9.5) runs its own token check, when the
 * authorizer could not, without touching the session; every other group touches it. The token
 * check itself (over DynamoDB Local) is tests/connected/token-check.test.ts; here only what
 * the group asks of it.
 */

const principal: Principal = {
  user_id: 'u-1',
  token_id: 'tok-1',
  email: 'u-1@example.test',
  display_name: 'U 1',
  platform_roles: [],
  memberships: { acme: 'owner' },
};
const checkBearer = vi.hoisted(() => vi.fn());
vi.mock('#functions/authorizer/token-check', () => ({ checkBearer }));

const list = (readOnly?: boolean) =>
  httpHandler(
    { 'exceptions.list': EXCEPTIONS_OPERATIONS['exceptions.list'] },
    { 'exceptions.list': async () => ({ items: [] }) },
    readOnly === undefined ? {} : { readOnly },
  )(
    {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/tenants/acme/exceptions',
      rawQueryString: '',
      headers: { authorization: 'Bearer tok' },
      requestContext: {
        http: { method: 'GET', path: '/', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
        authorizer: { lambda: { principal: '', auth: 'unavailable' } },
      },
      isBase64Encoded: false,
    } as never,
    lambdaContext('api-exceptions') as never,
  ) as Promise<{ statusCode: number }>;

describe('the token check a group runs when the authorizer could not', () => {
  it('leaves the session untouched in a read-only group, and touches it in any other', async () => {
    vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    checkBearer.mockResolvedValue(principal);
    expect((await list(true)).statusCode).toBe(200);
    expect(checkBearer).toHaveBeenLastCalledWith('Bearer tok', { touch: false });
    expect((await list(false)).statusCode).toBe(200);
    expect(checkBearer).toHaveBeenLastCalledWith('Bearer tok', { touch: true });
    expect((await list()).statusCode).toBe(200);
    expect(checkBearer).toHaveBeenLastCalledWith('Bearer tok', { touch: true });
  });
});
