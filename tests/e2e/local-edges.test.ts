import { once } from 'node:events';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoSiteSecurityHeaders } from '#shared/demo/site-headers';
import { client } from '#tests/support/http';
import { startRuntime, type TestRuntime } from '#tests/support/runtime';

/** The local runtime's own edges: what Node refuses before a request exists, odd paths, static files. */

let rt: TestRuntime;
let api: ReturnType<typeof client>['call'];
let token: string;
beforeAll(async () => {
  rt = await startRuntime();
  api = client(rt.baseUrl).call;
  token = await client(rt.baseUrl).login(rt.admin.email, rt.admin.password);
});
afterAll(() => rt?.stop());

/** Sends raw bytes and returns what came back before the server closed the connection. */
async function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  const { port } = new URL(rt.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.write(request);
  await once(socket, 'close');
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body };
}

const expectProblem = (
  r: { status: number; headers: string; body: string },
  status: number,
  code: string,
) => {
  expect(r.status).toBe(status);
  expect(r.headers).toContain('content-type: application/problem+json');
  expect(r.headers).toMatch(/x-request-id: [0-9a-f-]{36}/);
  expect(JSON.parse(r.body)).toMatchObject({ status, code });
};

describe('local runtime edges', () => {
  it('has no clock route without OPS_LOCAL_CLOCK=manual: 404, and the clock is the system clock', async () => {
    const r = await api('POST', '/_local/clock', { body: { advance_seconds: 60 } });
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers an oversized request header 431 problem+json', async () => {
    const r = await raw(`GET /health HTTP/1.1\r\nHost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectProblem(r, 431, 'request_header_fields_too_large');
  });

  it('answers a request that is not HTTP 400 problem+json', async () => {
    expectProblem(await raw('NOT HTTP AT ALL\r\n\r\n'), 400, 'malformed_request');
  });

  it('answers a malformed percent-escape in a path parameter 400 or 404, never 500', async () => {
    for (const path of [
      '/tenants/acme/exceptions/%zz',
      '/tenants/%zz',
      '/tenants/%zz/exceptions',
      '/tenants/acme/exceptions/%E0%A4%A',
    ]) {
      for (const auth of [{ token }, {}]) {
        const r = await api('GET', path, auth);
        expect([400, 404], `${path} ${r.status}`).toContain(r.status);
        expect(r.headers.get('content-type')).toBe('application/problem+json');
      }
    }
  });

  it('answers a malformed percent-escape in a static path 404 problem+json, never 500', async () => {
    for (const path of ['/%zz', '/data/%zz.json', '/app.js%', '/%E0%A4%A']) {
      const r = await api('GET', path);
      expect(r.status, path).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it("serves static files with the security headers CloudFront adds to the demo site's", async () => {
    for (const path of ['/', '/index.html', '/app.js', '/style.css', '/data/index.json']) {
      const r = await api('GET', path);
      expect(r.status, path).toBe(200);
      const sent = Object.fromEntries(
        Object.keys(demoSiteSecurityHeaders()).map((name) => [name, r.headers.get(name)]),
      );
      expect(sent, path).toEqual(demoSiteSecurityHeaders());
    }
  });

  it("after a 413 for a body over API Gateway's 10 MB, the next request on a keep-alive agent is answered at once", async () => {
    // One socket, kept alive: the second request goes where the first went unless told to close.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const { port } = new URL(rt.baseUrl);
    const send = (method: string, path: string, body?: Buffer) =>
      new Promise<{ status: number; connection: string | undefined; body: string; socket: unknown }>(
        (resolve, reject) => {
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port: Number(port),
              method,
              path,
              agent,
              headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () =>
                resolve({
                  status: res.statusCode!,
                  connection: res.headers.connection,
                  body: Buffer.concat(chunks).toString('utf8'),
                  socket: req.socket,
                }),
              );
            },
          );
          req.on('error', reject);
          req.end(body);
        },
      );
    try {
      const big = await send('POST', '/tenants/acme/exceptions', Buffer.alloc(11 * 1024 * 1024, 0x20));
      expect(big.status).toBe(413);
      expect(JSON.parse(big.body)).toMatchObject({ status: 413, code: 'payload_too_large' });
      // The body was not read: the connection is not reused for another request.
      expect(big.connection).toBe('close');
      const started = performance.now();
      const next = await send('GET', '/health');
      expect(next.status).toBe(200);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(next.socket).not.toBe(big.socket);
    } finally {
      agent.destroy();
    }
  });
});
