import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './wait';
import { client } from './http';

/**
 * The console's webhook screens' local receiver: one loopback server whose answer is set per path
 * while it runs (fail it, then fix it), keeping what came. The local runtime allows loopback
 * targets (OPS_WEBHOOK_ALLOW_LOOPBACK), so an endpoint may name it.
 */
export async function switchableReceiver() {
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const answers = new Map<string, { status: number; headers?: Record<string, string> }>();
  const held = new Map<string, { released: Promise<void>; release: () => void }>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      void (held.get(path)?.released ?? Promise.resolve()).then(() => {
        const answer = answers.get(path) ?? { status: 200 };
        res.writeHead(answer.status, answer.headers).end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path: string) => `${base}${path}`,
    received,
    /** What `path` answers from now on (200 until set). */
    answer: (path: string, status: number, headers?: Record<string, string>) =>
      void answers.set(path, { status, headers }),
    /**
     * `path` answers nothing until `release`: a test sees the page before the outcome lands. Keep
     * it short, within the sender's deadline (5 s), or the attempt ends as a timeout.
     */
    hold: (path: string) => {
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      held.set(path, { released, release });
    },
    release: (path: string) => {
      held.get(path)?.release();
      held.delete(path);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type SwitchableReceiver = Awaited<ReturnType<typeof switchableReceiver>>;

/**
 * Endpoints for the pictures (`npm run screenshot:console`): an ERP endpoint whose receiver failed
 * once (503, retry in an hour) and took the resend, with a delivered test beside it; and a chat
 * bot's endpoint that answered 410 and was disabled. Returns the ERP endpoint's id.
 */
export async function seedWebhookShots(
  baseUrl: string,
  tenant: string,
  token: string,
  rx: SwitchableReceiver,
): Promise<string> {
  const api = client(baseUrl);
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await api.call<any>(method, `/tenants/${tenant}${path}`, { token, body });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const messages = (id: string) => call('GET', `/webhook-endpoints/${id}/messages`);
  const landed = (id: string, done: (items: any[]) => boolean, what: string) =>
    until(async () => {
      const { items } = await messages(id);
      return done(items) ? items : undefined;
    }, what);

  rx.answer('/erp', 503, { 'retry-after': '3600' });
  const erp = await call('POST', '/webhook-endpoints', {
    url: rx.url('/erp'),
    description: 'ERP: orders and invoices',
    event_types: ['exception.created', 'document.status_changed'],
  });
  const first = await call('POST', `/webhook-endpoints/${erp.id}/test`);
  await landed(erp.id, (items) => items[0]?.attempts.length === 1, 'the first attempt');
  rx.answer('/erp', 200);
  await call('POST', `/webhook-endpoints/${erp.id}/messages/${first.message_id}/resend`);
  await landed(erp.id, (items) => items[0]?.status === 'delivered', 'the resend');
  await call('POST', `/webhook-endpoints/${erp.id}/test`);
  await landed(
    erp.id,
    (items) => items.length === 2 && items.every((m) => m.status === 'delivered'),
    'the second test',
  );

  rx.answer('/chat', 410);
  const chat = await call('POST', '/webhook-endpoints', {
    url: rx.url('/chat'),
    description: 'Chat bot (retired)',
    event_types: ['*'],
  });
  await call('POST', `/webhook-endpoints/${chat.id}/test`);
  await until(async () => {
    const e = await call('GET', `/webhook-endpoints/${chat.id}`);
    return e.status === 'disabled' ? e : undefined;
  }, 'the 410 to disable the chat endpoint');
  return erp.id as string;
}
