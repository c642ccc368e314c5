import type { Metrics } from '@aws-lambda-powertools/metrics';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as classicZod from 'zod';
import * as z from 'zod/mini';
import { HttpResult } from '#functions/http/dispatch';
import { envelope, requestIdOf } from '#functions/http/envelope';
import { httpHandler } from '#functions/http/handler';
import type { Idempotency } from '#functions/http/idempotency';
import { parse } from '#shared/api/issues';
import { toProblem } from '#functions/http/problem';
import { logger, metricsFor } from '#functions/observability';
import { lambdaContext } from '#local/api-gateway';
import { EXCEPTIONS_OPERATIONS } from '#shared/api/operations/exceptions';
import { TENANTS_OPERATIONS } from '#shared/api/operations/tenants';
import { ConflictError, UnavailableError, ValidationError } from '#shared/kernel/errors';
import { LOG_EVENTS, METRICS } from '#shared/kernel/names';
import type { Principal } from '#shared/kernel/policy';

/**
 * The HTTP layer in process (functions/http), on a real route group's rows of the manifest with
 * implementations the test controls: the guard's order of refusals (docs/api.md sections 1-3),
 * what the dispatcher hands an implementation and makes of its answer, the envelope's request id,
 * access log line and metrics, and the error mapper's problem bodies.
 */

const T = 'acme';
const member = (role: string, userId = `u-${role}`): Principal => ({
  user_id: userId,
  token_id: `tok-${userId}`,
  email: `${userId}@example.test`,
  display_name: userId,
  platform_roles: [],
  memberships: { [T]: role as Principal['memberships'][string] },
});
const admin: Principal = { ...member('owner', 'root'), platform_roles: ['platform_admin'], memberships: {} };

interface Call {
  id: string;
  req: { params: unknown; query: unknown; body: unknown; principal: unknown; requestId: string };
}

const setup = (
  answers: Partial<Record<keyof typeof EXCEPTIONS_OPERATIONS, (req: Call['req']) => unknown>> = {},
  tenantExists?: (id: string) => Promise<boolean>,
) => {
  const calls: Call[] = [];
  const idempotent: Parameters<Idempotency>[0][] = [];
  const impl =
    (id: keyof typeof EXCEPTIONS_OPERATIONS) =>
    async (req: Call['req']): Promise<unknown> => {
      calls.push({ id, req });
      return answers[id] ? answers[id](req) : { ok: id };
    };
  const idempotency: Idempotency = async (request, run) => {
    idempotent.push(request);
    return run();
  };
  const handler = httpHandler(
    EXCEPTIONS_OPERATIONS,
    {
      'exceptions.create': impl('exceptions.create'),
      'exceptions.list': impl('exceptions.list'),
      'exceptions.get': impl('exceptions.get'),
      'exceptions.changeStatus': impl('exceptions.changeStatus'),
    },
    { idempotency, ...(tenantExists ? { tenantExists } : {}) },
  );
  const send = async (
    method: string,
    rawPath: string,
    o: {
      principal?: Principal | null;
      body?: string;
      headers?: Record<string, string>;
      query?: Record<string, string>;
      base64?: boolean;
    } = {},
  ) => {
    const res = (await handler(
      {
        version: '2.0',
        routeKey: '$default',
        rawPath,
        rawQueryString: '',
        headers: { 'content-type': 'application/json', ...o.headers },
        queryStringParameters: o.query,
        requestContext: {
          http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
          authorizer: {
            lambda: { principal: o.principal === null ? '' : JSON.stringify(o.principal ?? member('owner')) },
          },
        },
        body: o.body,
        isBase64Encoded: o.base64 ?? false,
      } as never,
      lambdaContext('api-exceptions') as never,
    )) as { statusCode: number; headers: Record<string, string>; body?: string };
    return { ...res, json: res.body ? JSON.parse(res.body) : undefined };
  };
  return { send, calls, idempotent };
};

const VALID = JSON.stringify({
  exception_type: 'payment.amount_mismatch',
  subject_type: 'invoice',
  subject_id: 'INV-1',
  title: 'Short payment',
  summary: 'Bank shows less',
  severity: 'warning',
});

afterEach(() => vi.restoreAllMocks());

describe('the guard, in order', () => {
  it('404 for an unknown route, 405 with Allow for a known path and another method', async () => {
    const { send, calls } = setup();
    const unknown = await send('GET', '/nothing/here');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toBe('application/problem+json');
    const wrong = await send('DELETE', `/tenants/${T}/exceptions`);
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toMatch(/GET/);
    expect(wrong.headers.allow).toMatch(/POST/);
    expect(calls).toEqual([]);
  });

  it('401 without a principal, before the tenant or the body is looked at', async () => {
    const { send, calls } = setup();
    const r = await send('POST', `/tenants/${T}/exceptions`, { principal: null, body: '{' });
    expect(r.statusCode).toBe(401);
    expect(calls).toEqual([]);
  });

  it('404 for a tenant the caller is not a member of, 403 for a role without the permission', async () => {
    const { send, calls } = setup();
    expect((await send('GET', `/tenants/other/exceptions`)).statusCode).toBe(404);
    const support = await send('POST', `/tenants/${T}/exceptions`, {
      principal: member('support'),
      body: VALID,
    });
    expect(support.statusCode).toBe(403);
    expect(support.json).toMatchObject({ status: 403, code: 'forbidden' });
    expect(calls).toEqual([]);
  });

  it('a platform admin reaches an existing tenant it is not a member of, and gets 404 for a missing one', async () => {
    const exists = vi.fn(async (id: string) => id === T);
    const { send, calls } = setup({}, exists);
    expect((await send('GET', `/tenants/${T}/exceptions`, { principal: admin })).statusCode).toBe(200);
    expect((await send('GET', `/tenants/gone/exceptions`, { principal: admin })).statusCode).toBe(404);
    expect(exists.mock.calls.map(([id]) => id)).toEqual([T, 'gone']);
    // A member's own tenant is not looked up.
    exists.mockClear();
    expect((await send('GET', `/tenants/${T}/exceptions`)).statusCode).toBe(200);
    expect(exists).not.toHaveBeenCalled();
    expect(calls.map((c) => c.id)).toEqual(['exceptions.list', 'exceptions.list']);
  });

  it('404 for a path parameter its schema refuses', async () => {
    const { send } = setup();
    expect((await send('GET', `/tenants/${T}/exceptions/${'x'.repeat(300)}`)).statusCode).toBe(404);
  });

  it('413 above 256 KiB (base64 counted decoded), 415 without a JSON content type', async () => {
    const { send, calls } = setup();
    const big = 'x'.repeat(256 * 1024 + 1);
    expect((await send('POST', `/tenants/${T}/exceptions`, { body: big })).statusCode).toBe(413);
    const b64 = Buffer.from('x'.repeat(200 * 1024)).toString('base64');
    expect(
      (
        await send('POST', `/tenants/${T}/exceptions`, {
          body: b64,
          base64: true,
          headers: { 'content-type': 'text/plain' },
        })
      ).statusCode,
    ).toBe(415);
    expect(
      (
        await send('POST', `/tenants/${T}/exceptions`, {
          body: VALID,
          headers: { 'content-type': 'text/plain' },
        })
      ).statusCode,
    ).toBe(415);
    expect(
      (
        await send('POST', `/tenants/${T}/exceptions`, {
          body: VALID,
          headers: { 'content-type': 'application/json; charset=UTF-8' },
        })
      ).statusCode,
    ).toBe(201);
    expect(calls.map((c) => c.id)).toEqual(['exceptions.create']);
  });
});

describe('the dispatcher', () => {
  it('hands the implementation the parsed params, query, body, principal and request id', async () => {
    const { send, calls } = setup();
    const r = await send('GET', `/tenants/${T}/exceptions`, {
      query: { status: 'open', limit: '5' },
      headers: { 'x-request-id': 'req-123' },
    });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json).toEqual({ ok: 'exceptions.list' });
    expect(calls[0]!.req).toMatchObject({
      params: { tenant_id: T },
      query: { status: 'open', limit: 5 },
      body: undefined,
      principal: { user_id: 'u-owner' },
      requestId: 'req-123',
    });
  });

  it('a body or query its schema refuses is 422 with every field error, and the implementation is not called', async () => {
    const { send, calls } = setup();
    const r = await send('POST', `/tenants/${T}/exceptions`, {
      body: JSON.stringify({ ...JSON.parse(VALID), severity: 'huge', extra: 1 }),
    });
    expect(r.statusCode).toBe(422);
    expect(r.json.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'severity', code: 'invalid_value' }),
        { path: 'extra', code: 'unrecognized_key', message: 'Unknown field' },
      ]),
    );
    expect((await send('GET', `/tenants/${T}/exceptions`, { query: { limit: '0' } })).statusCode).toBe(422);
    expect(calls).toEqual([]);
  });

  it('HttpResult sets headers and status; undefined and 204 answers have no body', async () => {
    const { send } = setup({
      'exceptions.get': () => new HttpResult({ id: 'e1' }, { etag: '"1"' }, 202),
      'exceptions.list': () => undefined,
      'exceptions.changeStatus': () => new HttpResult('{"raw":true}'),
    });
    const got = await send('GET', `/tenants/${T}/exceptions/e1`);
    expect(got).toMatchObject({
      statusCode: 202,
      headers: { etag: '"1"', 'content-type': 'application/json' },
    });
    expect(got.json).toEqual({ id: 'e1' });
    const empty = await send('GET', `/tenants/${T}/exceptions`);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toBeUndefined();
    expect(empty.headers['content-type']).toBeUndefined();
    const raw = await send('POST', `/tenants/${T}/exceptions/e1/status`, {
      body: '{"status":"acknowledged"}',
    });
    expect(raw.body).toBe('{"raw":true}');
  });

  it('an idempotent operation with a key goes through idempotency, scoped to the tenant; without a key it does not', async () => {
    const { send, idempotent } = setup();
    await send('POST', `/tenants/${T}/exceptions`, { body: VALID });
    expect(idempotent).toEqual([]);
    const r = await send('POST', `/tenants/${T}/exceptions`, {
      body: VALID,
      headers: { 'idempotency-key': 'k-1', 'x-request-id': 'rid-9' },
    });
    expect(r.statusCode).toBe(201);
    expect(idempotent).toEqual([
      {
        key: 'k-1',
        scope: T,
        operation: 'exceptions.create',
        fingerprint: JSON.stringify([{ tenant_id: T }, JSON.parse(VALID)]),
        requestId: 'rid-9',
      },
    ]);
    // Not idempotent: a key is ignored.
    await send('POST', `/tenants/${T}/exceptions/e1/status`, {
      body: '{"status":"resolved"}',
      headers: { 'idempotency-key': 'k-2' },
    });
    expect(idempotent).toHaveLength(1);
  });

  it('a 204 answer has no body even when the implementation returns one; a bodiless answer keeps its headers', async () => {
    const { send } = setup({
      'exceptions.get': () => new HttpResult({ ignored: true }, { etag: '"2"' }, 204),
      'exceptions.list': () => new HttpResult(undefined, { location: '/elsewhere' }, 303),
    });
    const noContent = await send('GET', `/tenants/${T}/exceptions/e1`);
    expect(noContent.statusCode).toBe(204);
    expect(noContent.body).toBeUndefined();
    expect(noContent.headers.etag).toBe('"2"');
    expect(noContent.headers['content-type']).toBeUndefined();
    const moved = await send('GET', `/tenants/${T}/exceptions`);
    expect(moved.statusCode).toBe(303);
    expect(moved.headers.location).toBe('/elsewhere');
  });

  it('an operation of the manifest without an implementation is a 404 problem, not a 500', async () => {
    const handler = httpHandler(EXCEPTIONS_OPERATIONS, { 'exceptions.list': async () => ({}) } as never, {
      idempotency: async (_c, run) => run(),
    });
    const r = (await handler(
      {
        version: '2.0',
        routeKey: '$default',
        rawPath: `/tenants/${T}/exceptions/e1`,
        rawQueryString: '',
        headers: {},
        requestContext: {
          http: { method: 'GET', path: '/', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
          authorizer: { lambda: { principal: JSON.stringify(member('owner')) } },
        },
        isBase64Encoded: false,
      } as never,
      lambdaContext('api-exceptions') as never,
    )) as { statusCode: number; body: string };
    expect(r.statusCode).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ code: 'not_found', detail: 'No such route.' });
  });

  it('on a tenant-less idempotent route the key is scoped to the calling user', async () => {
    const seen: Parameters<Idempotency>[0][] = [];
    const handler = httpHandler(
      { 'tenants.create': TENANTS_OPERATIONS['tenants.create'] },
      { 'tenants.create': async () => ({ id: 'beta' }) },
      {
        idempotency: async (c, run) => {
          seen.push(c);
          return run();
        },
      },
    );
    const r = (await handler(
      {
        version: '2.0',
        routeKey: '$default',
        rawPath: '/tenants',
        rawQueryString: '',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k-t' },
        requestContext: {
          http: {
            method: 'POST',
            path: '/tenants',
            protocol: 'HTTP/1.1',
            sourceIp: '127.0.0.1',
            userAgent: 't',
          },
          authorizer: { lambda: { principal: JSON.stringify(admin) } },
        },
        body: JSON.stringify({ id: 'beta', name: 'Beta' }),
        isBase64Encoded: false,
      } as never,
      lambdaContext('api-tenants') as never,
    )) as { statusCode: number };
    expect(r.statusCode).toBe(201);
    expect(seen).toMatchObject([{ key: 'k-t', scope: 'user:root', operation: 'tenants.create' }]);
  });

  it('a group with idempotent operations cannot be built without idempotency', () => {
    expect(() =>
      httpHandler(EXCEPTIONS_OPERATIONS, {
        'exceptions.create': async () => ({}),
        'exceptions.list': async () => ({}),
        'exceptions.get': async () => ({}),
        'exceptions.changeStatus': async () => ({}),
      }),
    ).toThrow(/exceptions: idempotent operations need options.idempotency/);
  });
});

describe('the group handler', () => {
  const event = (method: string, rawPath: string) =>
    ({
      version: '2.0',
      routeKey: '$default',
      rawPath,
      rawQueryString: '',
      headers: {},
      requestContext: {
        http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
        authorizer: { lambda: { principal: JSON.stringify(member('owner')) } },
      },
      isBase64Encoded: false,
    }) as never;

  it('a group with no operations still builds, answers 404 and logs as the group "unknown"', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    const handler = httpHandler({}, {});
    const r = (await handler(event('GET', '/anything'), lambdaContext('api-none') as never)) as {
      statusCode: number;
      headers: Record<string, string>;
    };
    expect(r.statusCode).toBe(404);
    expect(r.headers['content-type']).toBe('application/problem+json');
    const line = info.mock.calls.find(([m]) => m === 'request')![1] as Record<string, unknown>;
    expect(line).toMatchObject({ group: 'unknown', status: 404 });
  });

  it("captures the ColdStart metric and drops a request's log keys after it, answered or failed", async () => {
    vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const coldStart = vi.spyOn(metricsFor('exceptions'), 'captureColdStartMetric');
    const resetKeys = vi.spyOn(logger, 'resetKeys');
    const { send } = setup({
      'exceptions.get': () => {
        throw new Error('boom');
      },
    });
    await send('GET', `/tenants/${T}/exceptions`);
    expect(coldStart).toHaveBeenCalledTimes(1);
    expect(resetKeys).toHaveBeenCalledTimes(1);
    expect((await send('GET', `/tenants/${T}/exceptions/e1`)).statusCode).toBe(500);
    expect(resetKeys).toHaveBeenCalledTimes(2);
  });
});

describe('the envelope', () => {
  it('echoes a sane x-request-id and replaces anything else with a fresh UUID', async () => {
    expect(requestIdOf('abc-123')).toBe('abc-123');
    expect(requestIdOf('!'.repeat(128))).toBe('!'.repeat(128));
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const bad of [undefined, 42, '', 'has space', 'x'.repeat(129), 'tab\there', 'é'])
      expect(requestIdOf(bad)).toMatch(uuid);

    const { send } = setup({ 'exceptions.get': () => Promise.reject(new ConflictError('Taken.')) });
    const ok = await send('GET', `/tenants/${T}/exceptions`, { headers: { 'x-request-id': 'mine-1' } });
    expect(ok.headers['x-request-id']).toBe('mine-1');
    const failed = await send('GET', `/tenants/${T}/exceptions/e1`, {
      headers: { 'x-request-id': 'mine-2' },
    });
    expect(failed.headers['x-request-id']).toBe('mine-2');
    expect(failed.json.request_id).toBe('mine-2');
    const fresh = await send('GET', '/nothing');
    expect(fresh.headers['x-request-id']).toMatch(uuid);
    expect(fresh.json.request_id).toBe(fresh.headers['x-request-id']);
  });

  it('logs one access line per answer and counts requests, latency and 4xx or 5xx', async () => {
    const added: [string, number][] = [];
    const metrics = { addMetric: (name: string, _unit: string, value: number) => added.push([name, value]) };
    const info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const mw = envelope('exceptions', metrics as unknown as Metrics);
    const run = async (status: number | Error, principal?: Principal) => {
      added.length = 0;
      info.mockClear();
      const request = {
        event: {
          headers: {},
          rawPath: `/tenants/${T}/exceptions`,
          requestContext: { http: { method: 'GET' } },
        },
        context: {} as { http?: unknown },
        response: undefined as unknown,
        error: undefined as unknown,
      };
      await mw.before!(request as never);
      Object.assign(request.context.http as object, {
        route: { id: 'exceptions.list', params: { tenant_id: T } },
        principal,
        started: performance.now() - 50,
      });
      if (status instanceof Error) {
        request.error = status;
        await mw.onError!(request as never);
      } else {
        request.response = { statusCode: status, headers: {} };
        await mw.after!(request as never);
      }
      return request.response as { statusCode: number };
    };

    await run(200, member('owner'));
    expect(added.map(([n]) => n)).toEqual([METRICS.apiRequest, METRICS.apiLatency]);
    expect(added[1]![1]).toBeGreaterThanOrEqual(50);
    expect(added[1]![1]).toBeLessThan(60_000);
    expect(info).toHaveBeenCalledTimes(1);
    const [message, line] = info.mock.calls[0]! as unknown as [string, Record<string, unknown>];
    expect(message).toBe('request');
    expect(line).toMatchObject({
      event: LOG_EVENTS.request,
      group: 'exceptions',
      route: 'exceptions.list',
      method: 'GET',
      path: `/tenants/${T}/exceptions`,
      status: 200,
      tenant_id: T,
      user_id: 'u-owner',
    });
    expect(line.latency_ms).toBeGreaterThanOrEqual(50);
    expect(Math.round((line.latency_ms as number) * 100) / 100).toBe(line.latency_ms);

    await run(399);
    expect(added.map(([n]) => n)).toEqual([METRICS.apiRequest, METRICS.apiLatency]);
    expect((info.mock.calls[0]![1] as Record<string, unknown>).user_id).toBeNull();
    await run(400);
    expect(added.map(([n]) => n)).toContain(METRICS.apiClientError);
    expect(added.map(([n]) => n)).not.toContain(METRICS.apiServerError);
    await run(499);
    expect(added.map(([n]) => n)).toContain(METRICS.apiClientError);
    await run(500);
    expect(added.map(([n]) => n)).toContain(METRICS.apiServerError);
    expect(added.map(([n]) => n)).not.toContain(METRICS.apiClientError);
    const failed = await run(new UnavailableError());
    expect(failed.statusCode).toBe(503);
    expect(added.map(([n]) => n)).toContain(METRICS.apiServerError);
  });

  it('an error before the envelope ran still gets a request id, a problem body and its log line', async () => {
    const info = vi.spyOn(logger, 'info').mockImplementation(() => undefined);
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const mw = envelope('exceptions', { addMetric: () => undefined } as unknown as Metrics);
    const request = {
      event: { headers: {}, rawPath: '/x', requestContext: { http: { method: 'GET' } } },
      context: {} as { http?: { requestId: string } },
      response: undefined as unknown as { statusCode: number; headers: Record<string, string>; body: string },
      error: new Error('powertools failed'),
    };
    await mw.onError!(request as never);
    expect(request.response.statusCode).toBe(500);
    expect(request.context.http?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.response.headers['x-request-id']).toBe(request.context.http?.requestId);
    expect(info).toHaveBeenCalledTimes(1);
  });
});

describe('the error mapper', () => {
  it('a 4xx AppError shows its own title, code, detail and field errors', () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const r = toProblem(new ValidationError([{ path: 'a', code: 'too_big', message: 'm' }]), 'rid');
    expect(r.statusCode).toBe(422);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(r.body!)).toMatchObject({
      type: 'about:blank',
      status: 422,
      code: 'validation_failed',
      request_id: 'rid',
      errors: [{ path: 'a', code: 'too_big', message: 'm' }],
    });
    const conflict = JSON.parse(toProblem(new ConflictError('Taken.'), 'rid').body!);
    expect(conflict).toMatchObject({ status: 409, detail: 'Taken.' });
    expect(conflict.errors).toBeUndefined();
  });

  it('anything else is a bare 500 that shows nothing of the error and logs it', () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const r = toProblem(new Error('arn:aws:dynamodb:table/secret-table exploded'), 'rid');
    expect(r.statusCode).toBe(500);
    expect(r.body).not.toContain('secret-table');
    expect(JSON.parse(r.body!)).toMatchObject({ title: 'Internal error', code: 'internal', status: 500 });
    expect(error.mock.calls[0]![1]).toMatchObject({ event: LOG_EVENTS.unhandledError });
  });

  it('unavailable is a 503 with its Retry-After and a fixed detail, logged as a dependency failure', () => {
    const error = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const r = toProblem(new UnavailableError(), 'rid');
    expect(r.statusCode).toBe(503);
    expect(r.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(r.body!)).toMatchObject({
      code: 'unavailable',
      detail: expect.stringMatching(/Retry-After/),
    });
    expect(error.mock.calls[0]![1]).toMatchObject({ event: LOG_EVENTS.dependencyUnavailable });
  });
});

describe('field errors (422) say what is wrong in words', () => {
  // The local runtime also holds classic zod schemas (the demo's), and the first one built makes
  // English zod's global locale: the words below must still be ours.
  classicZod.string();
  const errorsOf = (schema: Parameters<typeof parse>[0], value: unknown) => {
    try {
      parse(schema, value);
    } catch (e) {
      return (e as ValidationError).errors;
    }
    throw new Error('parsed');
  };
  it.each([
    [
      z.string().check(z.minLength(3)),
      'ab',
      { path: '', code: 'too_small', message: 'must be at least 3 characters' },
    ],
    [
      z.string().check(z.maxLength(2)),
      'abc',
      { path: '', code: 'too_big', message: 'must be at most 2 characters' },
    ],
    [
      z.array(z.string()).check(z.minLength(1)),
      [],
      { path: '', code: 'too_small', message: 'must be at least 1 items' },
    ],
    [
      z.array(z.string()).check(z.maxLength(1)),
      ['a', 'b'],
      { path: '', code: 'too_big', message: 'must be at most 1 items' },
    ],
    [z.number().check(z.minimum(5)), 1, { path: '', code: 'too_small', message: 'must be at least 5' }],
    [z.number().check(z.maximum(5)), 9, { path: '', code: 'too_big', message: 'must be at most 5' }],
    [z.object({ a: z.string() }), { a: 1 }, { path: 'a', code: 'invalid_type', message: 'expected string' }],
    [z.enum(['x', 'y']), 'z', { path: '', code: 'invalid_value', message: 'expected one of "x", "y"' }],
    [z.iso.date(), '2020-13-01', { path: '', code: 'invalid_format', message: 'must be a valid date' }],
    [
      z.union([z.literal('a'), z.literal(1)]),
      true,
      { path: '', code: 'invalid_union', message: 'matches none of the allowed forms' },
    ],
    [
      z.string().check(z.refine(() => false, { message: 'own words' })),
      'a',
      { path: '', code: 'custom', message: 'own words' },
    ],
    [
      z.string().check(z.refine(() => false, { params: { code: 'total_mismatch' } })),
      'a',
      { path: '', code: 'total_mismatch', message: 'Invalid value' },
    ],
    [
      z.object({ a: z.object({ b: z.strictObject({}) }) }),
      { a: { b: { c: 1 } } },
      { path: 'a.b.c', code: 'unrecognized_key', message: 'Unknown field' },
    ],
  ])('%#', (schema, value, expected) => {
    expect(errorsOf(schema, value)).toEqual([expected]);
  });
});
