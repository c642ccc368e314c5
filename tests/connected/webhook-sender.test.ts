import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loopbackServers } from '#tests/support/loopback';
import { onMovedClock, turns } from '#tests/support/moved-clock';
import { ioUntil, tracked, until, untilTrue } from '#tests/support/wait';
import { sendWebhook, type WebhookOptions } from '#functions/adapters/webhook';

/**
 * Connected: the webhook sender against real sockets on loopback. Behaviour tests allow loopback
 * (as the local runtime does); the guard tests refuse it and check that no connection was made.
 */

const payload = {
  id: 'msg_1',
  body: '{"type":"test"}',
  secret: `whsec_${Buffer.from('a-test-secret-of-enough-length!!').toString('base64')}`,
};
const options = (o: Partial<WebhookOptions> = {}): WebhookOptions => ({
  allowLoopback: true,
  timeoutMs: 2_000,
  maxResponseBytes: 64 * 1024,
  ...o,
});

const { listen, silentServer, closeAll } = loopbackServers();
afterEach(closeAll);

const httpReceiver = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
  const hits: IncomingMessage[] = [];
  const bodies: string[] = [];
  const server = createHttpServer((req, res) => {
    hits.push(req);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => bodies.push(Buffer.concat(chunks).toString('utf8')));
    answer(req, res);
  });
  const { port, sockets } = await listen(server);
  return { port, hits, bodies, sockets };
};

const forbidden = { ok: false, kind: 'permanent', reason: 'forbidden_target' };

describe('webhook sender', () => {
  it('posts the signed body to a loopback receiver when loopback is allowed', async () => {
    const { port, hits } = await httpReceiver((_req, res) => res.writeHead(204).end());
    for (const host of ['127.0.0.1', 'localhost'])
      expect(await sendWebhook(`http://${host}:${port}/hook`, payload, options())).toEqual({ ok: true });
    expect(hits).toHaveLength(2);
    expect(hits[0]!.headers).toMatchObject({ 'webhook-id': 'msg_1', 'content-type': 'application/json' });
    expect(hits[0]!.headers['webhook-signature']).toMatch(/^v1,/);
  });

  it('refuses IP literals without connecting, in every form the URL parser turns into one', async () => {
    const server = await silentServer((s) => s.destroy());
    for (const host of [
      '127.0.0.1',
      '2130706433', // decimal
      '0177.0.0.1', // octal
      '0x7f.1', // hex, short
      '127.1', // short
      '0', // 0.0.0.0
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:0:127.0.0.1]',
      '[::127.0.0.1]',
      '[2002:7f00:1::1]',
    ]) {
      const target = `https://${host}:${server.port}/hook`;
      expect(await sendWebhook(target, payload, options({ allowLoopback: false })), target).toEqual(
        forbidden,
      );
    }
    expect(server.connections()).toBe(0);
  });

  it('refuses metadata and private literals even where loopback is allowed', async () => {
    for (const target of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://10.0.0.1/',
      'http://[fe80::1]/',
    ])
      expect(await sendWebhook(target, payload, options()), target).toEqual(forbidden);
  });

  it('checks what a name resolves to at connect time: localhost is refused without a connection', async () => {
    const server = await silentServer((s) => s.destroy());
    const target = `https://localhost:${server.port}/hook`;
    expect(await sendWebhook(target, payload, options({ allowLoopback: false }))).toEqual(forbidden);
    expect(server.connections()).toBe(0);
  });

  it('never follows a redirect: the answer is a permanent failure and the second URL is never hit', async () => {
    const second = await httpReceiver((_req, res) => res.writeHead(204).end());
    for (const status of [302, 307]) {
      const first = await httpReceiver((_req, res) =>
        res.writeHead(status, { location: `http://127.0.0.1:${second.port}/elsewhere` }).end(),
      );
      expect(await sendWebhook(`http://127.0.0.1:${first.port}/hook`, payload, options())).toEqual({
        ok: false,
        kind: 'permanent',
        reason: `redirect_${status}`,
      });
      expect(first.hits).toHaveLength(1);
    }
    expect(second.hits).toHaveLength(0);
  });

  it('cuts off a response body past the cap instead of reading it to the end', async () => {
    let closed = false;
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const { port } = await httpReceiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => {
        closed = true;
      });
      // An endless body, written as fast as the client reads it.
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    await onMovedClock(async () => {
      const call = tracked(
        sendWebhook(`http://127.0.0.1:${port}/hook`, payload, options({ timeoutMs: 6_000 })),
      );
      // Answered with the clock standing still: the cap ended it, not the deadline.
      expect(await ioUntil(() => call.done)).toBe(true);
      expect(call.value).toEqual({ ok: true });
    });
    await untilTrue(() => closed, 'the receiver to see its connection closed', 5_000);
  });

  it('gives up at the deadline on a server that never answers: a retryable timeout', async () => {
    const server = await silentServer();
    await onMovedClock(async () => {
      const call = tracked(
        sendWebhook(`http://127.0.0.1:${server.port}/hook`, payload, options({ timeoutMs: 500 })),
      );
      expect(await ioUntil(() => server.connections() === 1)).toBe(true);
      vi.advanceTimersByTime(499);
      await turns();
      expect(call.done, 'ended before its deadline').toBe(false);
      vi.advanceTimersByTime(1);
      expect(await ioUntil(() => call.done)).toBe(true);
      expect(call.value).toEqual({ ok: false, kind: 'transient', reason: 'timeout' });
    });
    expect(server.connections()).toBe(1);
  });

  it('gives up at the deadline on a server that trickles its headers forever', async () => {
    let socket: Socket | undefined;
    let dripped = 0;
    const server = await silentServer((s) => {
      socket = s;
      s.write('HTTP/1.1 200 OK\r\n');
    });
    // A header line each time the test moves the clock: bytes keep coming, the answer never does.
    const drip = () => {
      socket!.write('x-slow: 1\r\n', () => dripped++);
    };
    await onMovedClock(async () => {
      const call = tracked(
        sendWebhook(`http://127.0.0.1:${server.port}/hook`, payload, options({ timeoutMs: 700 })),
      );
      expect(await ioUntil(() => socket !== undefined)).toBe(true);
      for (const step of [300, 300, 99]) {
        drip();
        expect(await ioUntil(() => dripped > 0)).toBe(true);
        dripped = 0;
        await turns();
        vi.advanceTimersByTime(step);
      }
      await turns();
      expect(call.done, 'ended before its deadline').toBe(false);
      vi.advanceTimersByTime(1);
      expect(await ioUntil(() => call.done)).toBe(true);
      expect(call.value).toEqual({ ok: false, kind: 'transient', reason: 'timeout' });
    });
  });

  it('refuses what is not a URL, and plain http unless loopback is allowed, without connecting', async () => {
    const { port, hits } = await httpReceiver((_req, res) => res.writeHead(204).end());
    const notHttps = { ok: false, kind: 'permanent', reason: 'not_https' };
    expect(await sendWebhook('not a url', payload, options())).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'invalid_url',
    });
    expect(
      await sendWebhook(`http://127.0.0.1:${port}/hook`, payload, options({ allowLoopback: false })),
    ).toEqual(notHttps);
    expect(
      await sendWebhook(`http://example.com:${port}/hook`, payload, options({ allowLoopback: false })),
    ).toEqual(notHttps);
    // Allowing loopback allows plain http, no other scheme.
    expect(await sendWebhook(`ftp://127.0.0.1:${port}/hook`, payload, options())).toEqual(notHttps);
    expect(hits).toHaveLength(0);
  });

  it('sends a POST the receiver can verify with the secret: signature, current timestamp, user agent', async () => {
    const { port, hits, bodies } = await httpReceiver((_req, res) => res.writeHead(200).end());
    expect(await sendWebhook(`http://127.0.0.1:${port}/hook`, payload, options())).toEqual({ ok: true });
    const req = await until(() => (bodies.length ? hits[0] : undefined), 'the request and its body', 5_000);
    expect(req!.method).toBe('POST');
    expect(req!.headers['user-agent']).toBe('ops-platform-webhooks/1');
    expect(bodies[0]).toBe(payload.body);
    expect(Number(req!.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -1);
    const headers = req!.headers as Record<string, string>;
    expect(new Webhook(payload.secret).verify(bodies[0]!, headers)).toEqual({ type: 'test' });
  });

  it('a name that does not resolve is a permanent failure; a refused connection a retryable one', async () => {
    expect(await sendWebhook('https://nothing-here.invalid/hook', payload, options())).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'dns_not_found',
    });
    const server = await silentServer();
    const port = server.port;
    await closeAll();
    expect(await sendWebhook(`http://127.0.0.1:${port}/hook`, payload, options())).toEqual({
      ok: false,
      kind: 'transient',
      reason: 'network_error',
    });
  });

  it('classifies by status: only 3xx is a redirect, 4xx is permanent, 5xx retryable', async () => {
    const cases: [number, unknown][] = [
      [300, { ok: false, kind: 'permanent', reason: 'redirect_300' }],
      [399, { ok: false, kind: 'permanent', reason: 'redirect_399' }],
      [400, { ok: false, kind: 'permanent', reason: 'http_400' }],
      [404, { ok: false, kind: 'permanent', reason: 'http_404' }],
      [299, { ok: true }],
      [503, { ok: false, kind: 'transient', reason: 'http_503' }],
    ];
    for (const [status, expected] of cases) {
      const { port } = await httpReceiver((_req, res) => res.writeHead(status).end());
      expect(await sendWebhook(`http://127.0.0.1:${port}/hook`, payload, options()), String(status)).toEqual(
        expected,
      );
    }
  });

  it('reads an answer up to the cap to its end: the connection stays open for the next call', async () => {
    // A body of exactly the cap is read whole, so the keep-alive connection goes back to the pool;
    // one byte more and the sender closes it mid-body.
    const cap = 64 * 1024;
    for (const [size, keptOpen] of [
      [cap, true],
      [cap + 1, false],
    ] as const) {
      const { port, sockets, hits } = await httpReceiver((_req, res) =>
        res.writeHead(200, { 'content-length': String(size) }).end(Buffer.alloc(size, 'x')),
      );
      const send = () =>
        sendWebhook(`http://127.0.0.1:${port}/hook`, payload, options({ maxResponseBytes: cap }));
      expect(await send()).toEqual({ ok: true });
      if (keptOpen) {
        // Kept: the next call goes over the same connection.
        expect(await send()).toEqual({ ok: true });
        expect(hits[1]!.socket, `${size} bytes`).toBe(hits[0]!.socket);
      } else await untilTrue(() => sockets.size === 0, `the connection closed after ${size} bytes`, 5_000);
    }
  });

  it('the deadline ends with the call: a kept-alive connection is not cut after a quick answer', async () => {
    const { port, hits } = await httpReceiver((_req, res) => res.writeHead(204).end());
    // The deadline's timer on a moved clock: past it, a timer left running would cut the connection.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const send = () => sendWebhook(`http://127.0.0.1:${port}/hook`, payload, options({ timeoutMs: 200 }));
      expect(await send()).toEqual({ ok: true });
      vi.advanceTimersByTime(400);
      expect(await send()).toEqual({ ok: true });
    } finally {
      vi.useRealTimers();
    }
    expect(hits[1]!.socket).toBe(hits[0]!.socket);
  });
});
