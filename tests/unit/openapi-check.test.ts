import { describe, expect, it } from 'vitest';
import { violations } from '#tests/support/openapi-check';

/** The e2e answer check (tests/support/openapi-check.ts) fails on each kind of disagreement. */

const health = { status: 'ok' };
const answer = <B>(
  status: number,
  body: B,
  headers: Record<string, string> = {},
  type = 'application/json',
) => ({
  status,
  body,
  headers: new Headers({ 'content-type': type, 'x-request-id': 'req-1', ...headers }),
});
const problem = (status: number, code: string) => ({
  type: 'about:blank',
  title: 'x',
  status,
  code,
  detail: 'x',
  request_id: 'req-1',
});

describe('the OpenAPI answer check', () => {
  it('accepts a documented answer', () => {
    expect(violations('GET', '/health', answer(200, health, { 'cache-control': 'no-store' }))).toEqual([]);
  });

  it('fails an undocumented status', () => {
    expect(violations('GET', '/health', answer(418, health))).toEqual([
      expect.stringContaining('status 418 is not documented'),
    ]);
  });

  it('fails a field the schema does not have', () => {
    const out = violations(
      'GET',
      '/health',
      answer(200, { ...health, extra: 1 }, { 'cache-control': 'no-store' }),
    );
    expect(out).toEqual([expect.stringContaining('body does not match')]);
  });

  it('fails another content type', () => {
    const out = violations(
      'GET',
      '/health',
      answer(200, health, { 'cache-control': 'no-store' }, 'text/plain'),
    );
    expect(out).toEqual([expect.stringContaining('content type text/plain')]);
  });

  it('fails an undocumented header, and a documented one with a value out of its schema', () => {
    expect(
      violations('GET', '/health', answer(200, health, { 'cache-control': 'no-store', 'x-powered-by': 'x' })),
    ).toEqual([expect.stringContaining('header x-powered-by is not documented')]);
    expect(violations('GET', '/health', answer(200, health, { 'cache-control': 'max-age=60' }))).toEqual([
      expect.stringContaining('header cache-control'),
    ]);
  });

  it('checks errors against the problem schema, and a 405 against the methods of the path', () => {
    const url = '/tenants/t-1/tasks/x';
    const ok = answer(404, problem(404, 'not_found'), {}, 'application/problem+json');
    expect(violations('GET', url, ok)).toEqual([]);
    expect(violations('GET', url, { ...ok, body: { ...ok.body, stack: 'at x' } })).toEqual([
      expect.stringContaining('body does not match'),
    ]);
    const wrong = answer(
      405,
      problem(405, 'method_not_allowed'),
      { allow: 'GET, PATCH' },
      'application/problem+json',
    );
    expect(violations('PUT', url, wrong)).toEqual([]);
    expect(
      violations('PUT', url, {
        ...wrong,
        headers: new Headers({ ...Object.fromEntries(wrong.headers), allow: 'GET' }),
      }),
    ).toEqual([expect.stringContaining('Allow is GET')]);
  });

  it('holds an unknown path to a 404 problem, and leaves the demo site’s static files alone', () => {
    expect(violations('GET', '/nope', answer(200, '<html>', {}, 'text/html'))).toEqual([]);
    expect(violations('POST', '/nope', answer(200, {}))).toEqual([
      expect.stringContaining('the document says 404'),
    ]);
  });
});
