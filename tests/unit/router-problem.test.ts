import { describe, expect, it } from 'vitest';
import { toProblem } from '#functions/http/problem';
import { routerFor } from '#functions/http/router';
import {
  AppError,
  ConflictError,
  MethodNotAllowedError,
  UnauthenticatedError,
  ValidationError,
} from '#shared/kernel/errors';
import { AUTH_OPERATIONS } from '#shared/api/operations/auth';
import { EXCEPTIONS_OPERATIONS } from '#shared/api/operations/exceptions';
import { PUBLIC_OPERATIONS } from '#shared/api/operations/public';
import { TENANTS_OPERATIONS } from '#shared/api/operations/tenants';

describe('router', () => {
  const exceptions = routerFor(EXCEPTIONS_OPERATIONS);

  it('matches a route and decodes its path params', () => {
    const r = exceptions('post', '/tenants/acme/exceptions/e%2D1/status');
    expect(r.kind).toBe('match');
    if (r.kind !== 'match') return;
    expect(r.route.id).toBe('exceptions.changeStatus');
    expect(r.route.params).toEqual({ tenant_id: 'acme', exception_id: 'e-1' });
  });

  it('answers not_found for an unknown path and for paths of other groups', () => {
    expect(exceptions('GET', '/tenants/acme/nothing').kind).toBe('not_found');
    expect(exceptions('GET', '/tenants/acme').kind).toBe('not_found');
    expect(exceptions('GET', '/tenants/acme/exceptions/x/y/z').kind).toBe('not_found');
    expect(routerFor(PUBLIC_OPERATIONS)('GET', '/no/such/path').kind).toBe('not_found');
  });

  it('answers wrong_method with the sorted methods the path allows', () => {
    expect(exceptions('DELETE', '/tenants/acme/exceptions')).toEqual({
      kind: 'wrong_method',
      allow: ['GET', 'POST'],
    });
    expect(routerFor(TENANTS_OPERATIONS)('PUT', '/tenants/acme/members/u1')).toEqual({
      kind: 'wrong_method',
      allow: ['DELETE', 'PATCH'],
    });
    expect(routerFor(AUTH_OPERATIONS)('PUT', '/auth/sessions')).toEqual({
      kind: 'wrong_method',
      allow: ['GET', 'POST'],
    });
  });

  it('treats a malformed percent-escape as not_found', () => {
    expect(exceptions('GET', '/tenants/%E0%A4%A/exceptions').kind).toBe('not_found');
  });
});

describe('problem mapper', () => {
  const parse = (r: ReturnType<typeof toProblem>) => JSON.parse(r.body ?? '{}');

  it('maps an AppError to its status, code, detail and field errors', () => {
    const r = toProblem(
      new ValidationError([{ path: 'title', code: 'too_small', message: 'short' }]),
      'req-1',
    );
    expect(r.statusCode).toBe(422);
    expect(r.headers['content-type']).toBe('application/problem+json');
    expect(parse(r)).toEqual({
      type: 'about:blank',
      title: 'Validation failed',
      status: 422,
      code: 'validation_failed',
      detail: 'The request does not match the schema.',
      request_id: 'req-1',
      errors: [{ path: 'title', code: 'too_small', message: 'short' }],
    });
  });

  it('carries the error headers (WWW-Authenticate, Allow)', () => {
    expect(toProblem(new UnauthenticatedError(), 'r').headers['www-authenticate']).toBe('Bearer');
    const r = toProblem(new MethodNotAllowedError(['GET', 'POST']), 'r');
    expect(r.statusCode).toBe(405);
    expect(r.headers.allow).toBe('GET, POST');
    expect(toProblem(new ConflictError('taken'), 'r').statusCode).toBe(409);
  });

  it('answers anything else with a bare 500 that leaks nothing', () => {
    const err = new Error(
      'AccessDeniedException: User arn:aws:iam::123456789012:role/x is not authorized on table ops-prod-Table',
    );
    err.stack = 'Error: secret stack\n    at /var/task/index.js:1:1';
    const r = toProblem(err, 'req-9');
    const body = parse(r);
    expect(r.statusCode).toBe(500);
    expect(body).toEqual({
      type: 'about:blank',
      title: 'Internal error',
      status: 500,
      code: 'internal',
      detail: expect.any(String),
      request_id: 'req-9',
    });
    for (const leak of ['arn:aws', 'ops-prod-Table', 'AccessDenied', 'stack', '/var/task']) {
      expect(r.body).not.toContain(leak);
    }
  });

  it('treats non-Error throwables and SDK-shaped errors as internal too', () => {
    for (const thrown of [
      'string',
      undefined,
      { name: 'TransactionCanceledException', statusCode: 400, message: 'Transaction cancelled' },
    ]) {
      const r = toProblem(thrown, 'r');
      expect(r.statusCode).toBe(500);
      expect(r.body).not.toContain('Transaction');
    }
  });

  it('an AppError with status 5xx keeps its own code', () => {
    const r = toProblem(new AppError(503, 'unavailable', 'Unavailable'), 'r');
    expect([r.statusCode, parse(r).code]).toEqual([503, 'unavailable']);
  });

  it('never lets a 5xx AppError show its inner detail, field errors, headers or code', () => {
    const inner = 'ProvisionedThroughputExceededException on table ops-prod-Table';
    const err = new AppError(502, 'table_throttled', 'Table throttled', inner, {
      errors: [{ path: 'pk', code: 'throttled', message: inner }],
      headers: { 'x-debug': inner },
    });
    expect(err.expose).toBe(false);
    const r = toProblem(err, 'req-5');
    expect(r.statusCode).toBe(502);
    expect(parse(r)).toEqual({
      type: 'about:blank',
      title: 'Internal error',
      status: 502,
      code: 'internal',
      detail: expect.any(String),
      request_id: 'req-5',
    });
    expect(r.headers).toEqual({ 'content-type': 'application/problem+json' });
    for (const leak of ['ops-prod-Table', 'Throughput', 'throttled']) expect(r.body).not.toContain(leak);
  });

  it('a public 5xx code keeps its code and title, never its inner message', () => {
    const r = toProblem(new AppError(503, 'unavailable', 'Unavailable', 'replica eu-west-1c is down'), 'r');
    expect(parse(r)).toMatchObject({ status: 503, code: 'unavailable', title: 'Unavailable' });
    expect(r.body).not.toContain('eu-west-1c');
    expect(new ValidationError([]).expose).toBe(true);
  });
});
