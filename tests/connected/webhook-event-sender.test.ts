import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loopbackServers } from '#tests/support/loopback';
import { onMovedClock, turns } from '#tests/support/moved-clock';
import { ioUntil, tracked, untilTrue } from '#tests/support/wait';
import { retryAfterSeconds, webhookSender } from '#functions/adapters/webhook-sender';

/**
 * The event subscriptions' sender (functions/adapters/webhook-sender.ts) against real sockets on
 * loopback: what it sends, what it refuses without connecting, how it names each failure and
 * status, where the deadline and the body cap end a call, and how it reads Retry-After.
 * (tests/connected/webhook-sender.test.ts covers the integration hub's sender, webhook.ts.)
 */

const secretA = `whsec_${Buffer.from('a-test-secret-of-enough-length!!').toString('base64')}`;
const secretB = `whsec_${Buffer.from('another-secret-of-enough-length!').toString('base64')}`;
const message = { id: 'msg_1', body: '{"type":"webhook.test"}', secrets: [secretA, secretB] };
const sender = (o: Partial<Parameters<typeof webhookSender>[0]> = {}) =>
  webhookSender({ allowLoopback: true, timeoutMs: 2_000, maxResponseBytes: 64 * 1024, ...o });

const { listen, silentServer, closeAll } = loopbackServers();
afterEach(closeAll);

const receiver = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
  const hits: { req: IncomingMessage; body: Promise<string> }[] = [];
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    hits.push({ req, body: once(req, 'end').then(() => Buffer.concat(chunks).toString('utf8')) });
    answer(req, res);
  });
  return { hits, ...(await listen(server)) };
};

const failed = (error_code: string) => ({
  status_code: null,
  error_code,
  duration_ms: expect.any(Number),
  retry_after_s: null,
});
describe('what it sends', () => {
  it('a POST signed with every secret given, verifiable by the reference library', async () => {
    const rx = await receiver((_req, res) => res.writeHead(204).end());
    const before = Math.floor(Date.now() / 1000);
    const out = await sender().send(`http://127.0.0.1:${rx.port}/hooks`, message);
    expect(out).toEqual({
      status_code: 204,
      error_code: null,
      duration_ms: expect.any(Number),
      retry_after_s: null,
    });
    expect(out.duration_ms).toBeGreaterThanOrEqual(0);
    expect(out.duration_ms).toBeLessThan(2_000);
    const [{ req, body }] = rx.hits as [(typeof rx.hits)[number]];
    expect(req.method).toBe('POST');
    expect(req.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'ops-platform-webhooks/1',
      'webhook-id': 'msg_1',
      'content-length': String(Buffer.byteLength(message.body)),
    });
    expect(Number(req.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    const text = await body;
    expect(text).toBe(message.body);
    const headers = req.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [secretA, secretB])
      expect(new Webhook(secret).verify(text, headers)).toEqual({ type: 'webhook.test' });
  });
});

describe('what it refuses without connecting', () => {
  it('what is not a URL, a scheme other than https (http only where loopback is allowed), a forbidden literal', async () => {
    const server = await silentServer((s) => s.destroy());
    expect(await sender().send('not a url', message)).toEqual(failed('invalid_url'));
    expect(
      await sender({ allowLoopback: false }).send(`http://127.0.0.1:${server.port}/hooks`, message),
    ).toEqual(failed('not_https'));
    expect(await sender().send(`ftp://127.0.0.1:${server.port}/hooks`, message)).toEqual(failed('not_https'));
    for (const host of ['127.0.0.1', '[::1]'])
      expect(
        await sender({ allowLoopback: false }).send(`https://${host}:${server.port}/hooks`, message),
        host,
      ).toEqual(failed('forbidden_target'));
    expect(await sender().send(`https://10.0.0.1:${server.port}/hooks`, message)).toEqual(
      failed('forbidden_target'),
    );
    expect(server.connections()).toBe(0);
  });

  it('a name that resolves to a forbidden address, at connect time', async () => {
    const server = await silentServer((s) => s.destroy());
    expect(
      await sender({ allowLoopback: false }).send(`https://localhost:${server.port}/hooks`, message),
    ).toEqual(failed('forbidden_target'));
    expect(server.connections()).toBe(0);
  });
});

describe('how a call ends', () => {
  it('a name that does not resolve, a refused connection over http or https', async () => {
    expect(await sender().send('https://nothing-here.invalid/hooks', message)).toEqual(
      failed('dns_not_found'),
    );
    const server = await silentServer();
    const port = server.port;
    closeAll();
    for (const scheme of ['http', 'https'])
      expect(await sender().send(`${scheme}://127.0.0.1:${port}/hooks`, message), scheme).toEqual(
        failed('network_error'),
      );
  });

  it('the deadline, on a server that never answers', async () => {
    const server = await silentServer();
    await onMovedClock(async () => {
      const call = tracked(sender({ timeoutMs: 300 }).send(`http://127.0.0.1:${server.port}/hooks`, message));
      expect(await ioUntil(() => server.connections() === 1)).toBe(true);
      vi.advanceTimersByTime(299);
      await turns();
      expect(call.done, 'ended before its deadline').toBe(false);
      vi.advanceTimersByTime(1);
      expect(await ioUntil(() => call.done)).toBe(true);
      expect(call.value).toEqual(failed('timeout'));
    });
    expect(server.connections()).toBe(1);
  });

  it('tells the slow signal once when no answer has come by its time, and goes on to the deadline', async () => {
    const server = await silentServer();
    let told = 0;
    await onMovedClock(async () => {
      const call = tracked(
        sender({ timeoutMs: 400 }).send(`http://127.0.0.1:${server.port}/hooks`, message, {
          afterMs: 100,
          onSlow: () => told++,
        }),
      );
      expect(await ioUntil(() => server.connections() === 1)).toBe(true);
      vi.advanceTimersByTime(99);
      expect(told).toBe(0);
      vi.advanceTimersByTime(1);
      expect(told).toBe(1);
      vi.advanceTimersByTime(299);
      await turns();
      expect(call.done, 'ended before its deadline').toBe(false);
      vi.advanceTimersByTime(1);
      expect(await ioUntil(() => call.done)).toBe(true);
      expect(call.value).toEqual(failed('timeout'));
    });
    expect(told).toBe(1);
  });

  it('never tells the slow signal for an answer before its time, nor for a refused call, nor later', async () => {
    let told = 0;
    const slow = { afterMs: 150, onSlow: () => told++ };
    let endBody = () => {};
    // The head comes at once; the body when the test ends it: the receiver answered, it is not slow.
    const rx = await receiver((_req, res) => {
      res.writeHead(200);
      res.write('{');
      endBody = () => res.end('}');
    });
    await onMovedClock(async () => {
      const answered = sender().send(`http://127.0.0.1:${rx.port}/hooks`, message, slow);
      // The head has arrived once only the deadline's timer is left (the signal's is cleared with
      // it); a signal left armed fails below, when the clock passes its time.
      await ioUntil(() => vi.getTimerCount() <= 1);
      vi.advanceTimersByTime(slow.afterMs + 100);
      endBody();
      expect((await answered).status_code).toBe(200);
      expect(await sender().send(`http://127.0.0.1:1/hooks`, message, slow)).toEqual(failed('network_error'));
      // Later: nothing of either call is left to fire.
      vi.advanceTimersByTime(60_000);
      expect(vi.getTimerCount()).toBe(0);
    });
    expect(told).toBe(0);
  });

  it('names each status: 2xx none, 3xx a redirect, others http_<status>, with Retry-After read', async () => {
    const cases: [number, string | null][] = [
      [200, null],
      [299, null],
      [300, 'redirect_300'],
      [399, 'redirect_399'],
      [400, 'http_400'],
      [503, 'http_503'],
    ];
    for (const [status, error_code] of cases) {
      const rx = await receiver((_req, res) => res.writeHead(status, { 'retry-after': '30' }).end());
      expect(await sender().send(`http://127.0.0.1:${rx.port}/hooks`, message), String(status)).toEqual({
        status_code: status,
        error_code,
        duration_ms: expect.any(Number),
        retry_after_s: 30,
      });
    }
  });

  it('an endless body is cut at the cap: the call answers at once', async () => {
    let closed: Promise<unknown> = Promise.resolve();
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const rx = await receiver((_req, res) => {
      closed = once(res, 'close');
      res.writeHead(200);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    await onMovedClock(async () => {
      const call = tracked(sender({ timeoutMs: 6_000 }).send(`http://127.0.0.1:${rx.port}/hooks`, message));
      // Answered with the clock standing still: the cap ended it, not the deadline.
      expect(await ioUntil(() => call.done)).toBe(true);
      expect(call.value).toMatchObject({ status_code: 200, error_code: null });
    });
    await closed;
  });

  it('a body of exactly the cap is read whole and its connection kept; one byte more closes it', async () => {
    const cap = 4 * 1024;
    for (const [size, keptOpen] of [
      [cap, true],
      [cap + 1, false],
    ] as const) {
      const rx = await receiver((_req, res) =>
        res.writeHead(200, { 'content-length': String(size) }).end(Buffer.alloc(size, 'x')),
      );
      const out = sender({ maxResponseBytes: cap });
      const send = () => out.send(`http://127.0.0.1:${rx.port}/hooks`, message);
      expect(await send()).toMatchObject({ status_code: 200 });
      // The socket goes back to the pool (the next call goes over it) or is closed after the answer.
      if (keptOpen) {
        expect(await send()).toMatchObject({ status_code: 200 });
        expect(rx.hits[1]!.req.socket, `${size} bytes`).toBe(rx.hits[0]!.req.socket);
      } else await untilTrue(() => rx.sockets.size === 0, `the connection closed after ${size} bytes`, 5_000);
    }
  });
});

describe('Retry-After', () => {
  const now = new Date('2031-05-01T09:00:00.000Z');

  it('reads delta-seconds, trimmed, or the first of several values', () => {
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 7 ', now)).toBe(7);
    expect(retryAfterSeconds(['15', '99'], now)).toBe(15);
  });

  it('reads an HTTP date as the seconds until it, none for a date gone by', () => {
    expect(retryAfterSeconds('Thu, 01 May 2031 09:01:30 GMT', now)).toBe(90);
    expect(retryAfterSeconds('Thu, 01 May 2031 08:00:00 GMT', now)).toBe(0);
  });

  it('is none when absent or unreadable, digits mixed with words included', () => {
    for (const value of [undefined, '', 'soon', 'x5', '5 seconds'])
      expect(retryAfterSeconds(value, now), String(value)).toBeNull();
  });
});
