import { describe, expect, it } from 'vitest';
import { httpHandler } from '#functions/http/handler';
import type { Idempotency } from '#functions/http/idempotency';
import { lambdaContext } from '#local/api-gateway';
import { type Deprecation, deprecationHeaders, deprecationProblems } from '#shared/api/deprecation';
import { OPERATIONS, type Operation } from '#shared/api/manifest';
import { buildOpenApi } from '#shared/api/openapi';
import type { Principal } from '#shared/kernel/policy';
import { openApiValidator, pointer } from '#tests/support/demo/openapi-support';

/**
 * docs/api.md section 12, deprecation: a row of the operations manifest marks an operation or a
 * field deprecated; the document says so and the API answers with RFC 9745 / RFC 8594 headers.
 * No route of the published API is deprecated, so the rows here are test rows built on real ones.
 */

const NOTICE: Deprecation = {
  since: '2026-12-01',
  sunset: '2027-06-01',
  link: 'https://docs.example.test/deprecations/exceptions-get',
};
const FIELD: Deprecation = { since: '2026-12-01' };

/** The exceptions group's rows (with their responses), one deprecated and one with deprecated fields. */
const ROWS = {
  'exceptions.create': {
    ...OPERATIONS['exceptions.create'],
    deprecatedFields: { 'body.summary': FIELD, 'response.title': NOTICE },
  },
  'exceptions.list': { ...OPERATIONS['exceptions.list'], deprecatedFields: { 'query.status': FIELD } },
  'exceptions.get': { ...OPERATIONS['exceptions.get'], deprecated: NOTICE },
  'exceptions.changeStatus': OPERATIONS['exceptions.changeStatus'],
} satisfies Record<string, Operation>;

type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
};
const doc = buildOpenApi(undefined, ROWS) as unknown as Doc;
const EXCEPTIONS = '/tenants/{tenant_id}/exceptions';
const ONE = `${EXCEPTIONS}/{exception_id}`;

describe('the declaration', () => {
  it('becomes RFC 9745 and RFC 8594 header values', () => {
    expect(deprecationHeaders(NOTICE)).toEqual({
      deprecation: '@1796083200',
      sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
      link: '<https://docs.example.test/deprecations/exceptions-get>; rel="deprecation"',
    });
    expect(deprecationHeaders(FIELD)).toEqual({ deprecation: '@1796083200' });
  });

  it('is refused when a day is malformed, the sunset precedes it or the link is not https', () => {
    expect(deprecationProblems(NOTICE)).toEqual([]);
    expect(deprecationProblems({ since: '2026-12-1' })).toEqual([expect.stringContaining('since')]);
    expect(deprecationProblems({ since: '2026-12-01', sunset: '2026-11-30' })).toEqual([
      'sunset 2026-11-30 is before since 2026-12-01',
    ]);
    expect(deprecationProblems({ since: '2026-12-01', link: 'http://example.test/x' })).toEqual([
      expect.stringContaining('https'),
    ]);
  });

  it('is well formed on every row of the manifest', () => {
    const rows = Object.entries(OPERATIONS as Record<string, Operation>).flatMap(([id, op]) => [
      ...(op.deprecated ? [[id, op.deprecated] as const] : []),
      ...Object.entries(op.deprecatedFields ?? {}).map(([f, d]) => [`${id} ${f}`, d] as const),
    ]);
    expect(rows.flatMap(([where, d]) => deprecationProblems(d).map((p) => `${where}: ${p}`))).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('marks a deprecated operation and documents its headers on the success answer', () => {
    const get = doc.paths[ONE]!.get!;
    expect(get).toMatchObject({ deprecated: true, 'x-deprecation': NOTICE });
    expect(get.description).toContain(
      'Deprecated since 2026-12-01; sunset 2027-06-01; see https://docs.example.test/deprecations/exceptions-get.',
    );
    const headers = (get.responses as Record<string, { headers: Record<string, unknown> }>)['200']!.headers;
    expect(Object.keys(headers).sort()).toEqual(['Deprecation', 'Link', 'Sunset', 'x-request-id']);
    expect(doc.paths[EXCEPTIONS]!.get!.deprecated).toBeUndefined();
  });

  it('marks deprecated fields in the body, the query and the answer', () => {
    const create = doc.paths[EXCEPTIONS]!.post!;
    expect(create.deprecated).toBeUndefined();
    const bodyRef = (create.requestBody as { content: Record<string, { schema: { $ref: string } }> }).content[
      'application/json'
    ]!.schema.$ref;
    const body = doc.components.schemas[bodyRef.split('/').pop()!]!;
    expect(body.properties.summary).toMatchObject({ deprecated: true, 'x-deprecation': FIELD });
    expect(body.properties.title!.deprecated).toBeUndefined();
    const read = doc.components.schemas.BusinessExceptionRead!;
    expect(read.properties.title).toMatchObject({ deprecated: true, 'x-deprecation': NOTICE });
    const status = (doc.paths[EXCEPTIONS]!.get!.parameters as Record<string, unknown>[]).find(
      (p) => p.name === 'status',
    );
    expect(status).toMatchObject({ in: 'query', deprecated: true });
  });

  it('refuses a deprecated field that the operation does not have', () => {
    const typo = {
      ...ROWS,
      'exceptions.list': { ...ROWS['exceptions.list'], deprecatedFields: { 'query.stat': FIELD } },
    };
    expect(() => buildOpenApi(undefined, typo)).toThrow('exceptions.list: deprecated field query.stat');
  });
});

describe('the handler of a deprecated operation', () => {
  const owner: Principal = {
    user_id: 'u-owner',
    token_id: 'tok',
    email: 'owner@example.test',
    display_name: 'Owner',
    platform_roles: [],
    memberships: { acme: 'owner' },
  };
  const idempotency: Idempotency = async (_request, run) => run();
  const handler = httpHandler(
    ROWS,
    {
      'exceptions.create': async () => ({ id: 'e1' }),
      'exceptions.list': async () => ({ items: [], next_cursor: null }),
      'exceptions.get': async () => ({ id: 'e1' }),
      'exceptions.changeStatus': async () => ({ id: 'e1' }),
    } as never,
    { idempotency },
  );
  const send = async (method: string, rawPath: string) =>
    (await handler(
      {
        version: '2.0',
        routeKey: '$default',
        rawPath,
        rawQueryString: '',
        headers: {},
        requestContext: {
          http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
          authorizer: { lambda: { principal: JSON.stringify(owner) } },
        },
        isBase64Encoded: false,
      } as never,
      lambdaContext('api-exceptions') as never,
    )) as { statusCode: number; headers: Record<string, string> };

  it('answers with Deprecation, Sunset and Link, each as the document declares it', async () => {
    const r = await send('GET', '/tenants/acme/exceptions/e1');
    expect(r.statusCode).toBe(200);
    expect(r.headers).toMatchObject(deprecationHeaders(NOTICE));
    const validator = openApiValidator(doc);
    const documented = (doc.paths[ONE]!.get!.responses as Record<string, { headers: object }>)['200']!
      .headers;
    for (const name of ['Deprecation', 'Sunset', 'Link']) {
      const at = pointer('paths', ONE, 'get', 'responses', '200', 'headers', name, 'schema');
      expect(validator.errors(at, r.headers[name.toLowerCase()]), name).toEqual([]);
      expect(name in documented).toBe(true);
    }
  });

  it('sends none on an operation that only has deprecated fields, nor on others', async () => {
    for (const r of [
      await send('GET', '/tenants/acme/exceptions'),
      await send('GET', '/tenants/acme/exceptions/e1/none'),
    ]) {
      expect(Object.keys(r.headers).filter((h) => ['deprecation', 'sunset', 'link'].includes(h))).toEqual([]);
    }
  });
});
