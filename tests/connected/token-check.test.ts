import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiEvent, authorizerEvent, context } from '../../bench/lib/requests';
import { dbFor, type Fixture, seed } from '../../bench/lib/scenario';
import { sessionCheckStore } from '#functions/adapters/session-check-store';
import type { AuthorizerContext } from '#functions/http/context';
import type { GroupOptions, httpHandler as HttpHandler } from '#functions/http/handler';
import { EXCEPTIONS_OPERATIONS } from '#shared/api/operations/exceptions';
import { ensureTable } from '#local/dynamodb-local';
import { tokenId } from '#shared/kernel/secrets';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';
import { provideTable } from '#tests/support/handler-config';
import { startTcpProxy, type TcpProxy } from '#tests/support/tcp-proxy';

/**
 * The authorizer and the route guard when the table fails (docs/decisions.md, "A token that
 * cannot be checked"). API Gateway caches the authorizer's answer per token for the TTL, so the
 * answer it gives when it cannot check must not be one a route would take as final: it hands
 * over `auth: 'unavailable'`, and the route runs the check itself. The functions reach DynamoDB
 * Local through a proxy that the test cuts and restores.
 */

type Handler = (event: unknown, ctx: unknown) => Promise<any>;
let proxy: TcpProxy;
let fx: Fixture;
let authorizer: Handler;
let auth: Handler;
let previews: Handler;
let httpHandler: typeof HttpHandler;
let restoreConfig = () => {};

beforeAll(async () => {
  proxy = await startTcpProxy(dynamoEndpoint());
  const tableName = uniqueTableName('token');
  await ensureTable(dynamoEndpoint(), tableName);
  fx = await seed(dynamoEndpoint(), tableName, { exceptions: 0 });
  restoreConfig = await provideTable(fx, proxy.url);
  authorizer = (await import('#functions/authorizer/handler')).handler as Handler;
  auth = (await import('#functions/auth/handler')).handler as Handler;
  previews = (await import('#functions/previews/handler')).handler as Handler;
  ({ httpHandler } = await import('#functions/http/handler'));
});
afterAll(() => {
  restoreConfig();
  proxy?.close();
});

/** `GET /auth/me` as API Gateway hands it to the function: the token header and the authorizer's context. */
const me = (token: string | undefined, handed: AuthorizerContext) => {
  const event = apiEvent({ method: 'GET', path: '/auth/me' });
  if (token) event.headers.authorization = `Bearer ${token}`;
  (event.requestContext as { authorizer?: unknown }).authorizer = { lambda: handed };
  return auth(event, context('auth'));
};
const UNAVAILABLE: AuthorizerContext = { principal: '', auth: 'unavailable' };

describe('a token that cannot be checked', () => {
  it('the authorizer hands over the principal while the table answers', async () => {
    const out = await authorizer(authorizerEvent(fx.accessToken), context('authorizer'));
    expect(out.isAuthorized).toBe(true);
    expect(JSON.parse(out.context.principal)).toMatchObject({ user_id: fx.principal.user_id });
    expect(out.context.auth).toBeUndefined();
  });

  it('with the table unreachable, the authorizer hands over `unavailable`, not an empty principal', async () => {
    await proxy.cut();
    try {
      const out = await authorizer(authorizerEvent(fx.accessToken), context('authorizer'));
      expect(out).toEqual({ isAuthorized: true, context: UNAVAILABLE });
      // ... and the route, running the check itself against the same table, answers 503.
      const res = await me(fx.accessToken, out.context);
      expect(res.statusCode).toBe(503);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'unavailable' });
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.headers['www-authenticate']).toBeUndefined();
    } finally {
      await proxy.restore();
    }
  });

  it('after the table recovered, a cached `unavailable` answer still gets the right answer', async () => {
    const ok = await me(fx.accessToken, UNAVAILABLE);
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body).user.id).toBe(fx.principal.user_id);

    const bad = await me('x'.repeat(43), UNAVAILABLE);
    expect(bad.statusCode).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Bearer');
    expect((await me(undefined, UNAVAILABLE)).statusCode).toBe(401);
  });

  it('an empty principal without `unavailable` is a 401 without a second check', async () => {
    await proxy.cut();
    try {
      const res = await me(fx.accessToken, { principal: '' });
      expect(res.statusCode).toBe(401);
    } finally {
      await proxy.restore();
    }
  });

  it('a read-only group (previews) runs the check without touching the session; another group touches it', async () => {
    const login = await auth(
      apiEvent({ method: 'POST', path: '/auth/sessions', body: { email: fx.email, password: fx.password } }),
      context('auth'),
    );
    expect(login.statusCode).toBe(201);
    const token = JSON.parse(login.body).access_token as string;
    const sessions = sessionCheckStore(dbFor(dynamoEndpoint(), fx.tableName, fx.cursorSecret));
    const lastUsed = async () => (await sessions.getSession(tokenId(token)))?.last_used_at;
    expect(await lastUsed()).toBeNull();

    const event = apiEvent({ method: 'POST', path: `/tenants/${fx.tenantId}/previews/briefing`, body: {} });
    event.headers.authorization = `Bearer ${token}`;
    (event.requestContext as { authorizer?: unknown }).authorizer = { lambda: UNAVAILABLE };
    expect((await previews(event, context('previews'))).statusCode).toBe(200);
    expect(await lastUsed()).toBeNull();

    // The same route group built read-only or not: only the option decides.
    const list = (options: GroupOptions) => {
      const e = apiEvent({ method: 'GET', path: `/tenants/${fx.tenantId}/exceptions` });
      e.headers.authorization = `Bearer ${token}`;
      (e.requestContext as { authorizer?: unknown }).authorizer = { lambda: UNAVAILABLE };
      const handler = httpHandler(
        { 'exceptions.list': EXCEPTIONS_OPERATIONS['exceptions.list'] },
        { 'exceptions.list': async () => ({ items: [] }) },
        options,
      ) as Handler;
      return handler(e, context('exceptions'));
    };
    expect((await list({ readOnly: true })).statusCode).toBe(200);
    expect(await lastUsed()).toBeNull();
    expect((await list({})).statusCode).toBe(200);
    expect(await lastUsed()).toEqual(expect.any(String));
  });
});
