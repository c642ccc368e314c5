import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context } from '../../bench/lib/requests';
import { type Fixture, lambdaEnv, seed } from '../../bench/lib/scenario';
import { GROUPS, OPERATIONS, type Operation } from '#shared/api/manifest';
import { ensureTable } from '#local/dynamodb-local';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';
import { provideTable } from '#tests/support/handler-config';

/**
 * The cloud's path to a route group, without the local runtime in between: API Gateway matches
 * `{tenant_id}` and the other parameters on the raw path, so a malformed percent-escape (`%zz`)
 * reaches the group's function undecoded, with the authorizer's principal, and the function
 * answers it (docs/api.md section 1: a path parameter that cannot name anything is 404). The
 * local runtime's own routing and static files are tests/e2e/local-edges.test.ts's.
 */

type Handler = (
  event: unknown,
  ctx: unknown,
) => Promise<{ statusCode: number; headers: Record<string, string> }>;
let fx: Fixture;
const handlers = new Map<string, Handler>();
const envBefore = { ...process.env };
let restoreConfig = () => {};

beforeAll(async () => {
  const table = uniqueTableName('paths');
  await ensureTable(dynamoEndpoint(), table);
  fx = await seed(dynamoEndpoint(), table, { exceptions: 1 });
  Object.assign(process.env, lambdaEnv('paths', dynamoEndpoint(), fx), { POWERTOOLS_LOG_LEVEL: 'SILENT' });
  restoreConfig = await provideTable(fx);
  for (const group of GROUPS) {
    const mod = (await import(/* @vite-ignore */ `../../functions/${group}/handler.ts`)) as {
      handler: Handler;
    };
    handlers.set(group, mod.handler);
  }
});

afterAll(() => {
  restoreConfig();
  for (const key of Object.keys(process.env)) if (!(key in envBefore)) delete process.env[key];
  Object.assign(process.env, envBefore);
});

const MALFORMED = ['%zz', '%', '%E0%A4%A', 'a%2', '%ED%A0%80'];

/** An HTTP API (payload 2.0) event as API Gateway sends it: the raw path, the authorizer's context. */
const cloudEvent = (method: string, rawPath: string, principal: object) => ({
  version: '2.0',
  routeKey: `${method} ${rawPath}`,
  rawPath,
  rawQueryString: '',
  headers: { 'content-type': 'application/json' },
  requestContext: {
    http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
    requestId: 'r',
    authorizer: { lambda: { principal: JSON.stringify(principal) } },
  },
  body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
  isBase64Encoded: false,
});

describe('malformed percent-escapes in path parameters, as API Gateway routes them', () => {
  const withParams = (Object.entries(OPERATIONS) as [string, Operation][]).filter(([, op]) =>
    op.path.includes('{'),
  );

  it('answer 400 or 404 problem+json on every route with a parameter, never 500', async () => {
    expect(withParams.length).toBeGreaterThan(10);
    const admin = { ...fx.principal, platform_roles: ['platform_admin'], memberships: {} };
    for (const [id, op] of withParams) {
      for (const name of op.path.match(/\{\w+\}/g)!) {
        for (const bad of MALFORMED) {
          const rawPath = op.path
            .replace(name, bad)
            .replace(/\{tenant_id\}/g, fx.tenantId)
            .replace(/\{\w+\}/g, fx.exceptionId);
          for (const principal of [fx.principal, admin]) {
            const res = await handlers.get(op.group)!(
              cloudEvent(op.method, rawPath, principal),
              context(op.group),
            );
            expect([400, 404], `${id} ${op.method} ${rawPath}: ${res.statusCode}`).toContain(res.statusCode);
            expect(res.headers['content-type']).toBe('application/problem+json');
          }
        }
      }
    }
  });
});
