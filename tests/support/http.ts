import { assertDocumented } from './openapi-check';

/**
 * A small HTTP client for end-to-end tests against the local runtime. Every reply is checked
 * against the OpenAPI document (tests/support/openapi-check.ts): an answer the document does not
 * describe fails the test that received it.
 */
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export function client(baseUrl: string) {
  const call = async <T = any>(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
  ): Promise<Reply<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const reply = { status: res.status, headers: res.headers, body: parsed as T };
    assertDocumented(method, path, reply);
    return reply;
  };

  const login = async (email: string, password: string): Promise<string> => {
    const r = await call('POST', '/auth/sessions', { body: { email, password } });
    if (r.status !== 201) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.access_token;
  };

  return { call, login };
}
