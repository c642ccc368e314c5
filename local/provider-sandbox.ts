import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ledgerly } from '#shared/domain/integrations/adapters/ledgerly';
import { tallybook } from '#shared/domain/integrations/adapters/tallybook';

/**
 * The providers on loopback: a Telegram Bot API, SES v2, SNS and a webhook receiver that record
 * what they receive, so the real channel clients run on the local runtime and nothing leaves the
 * machine. `script(channel, [503, 503])` makes the next answers fail, for retry demos and tests.
 * The integration hub's providers answer `GET /providers/<adapter>/health|records` the same way
 * (`scriptProvider`, `setProviderRecords`).
 *
 * And the two accounting targets, behaving like the real systems (see `AccountingSandbox`).
 */

export type SandboxChannel = 'telegram' | 'email' | 'sms' | 'webhook';

export interface SandboxRequest {
  channel: SandboxChannel;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  status: number;
  at: number;
}

const channelOf = (path: string): SandboxChannel | undefined => {
  if (path.startsWith('/telegram/')) return 'telegram';
  if (path.startsWith('/sesv2/')) return 'email';
  if (path.startsWith('/sns')) return 'sms';
  if (path.startsWith('/webhook')) return 'webhook';
  return undefined;
};

/** A record the hub's providers serve for reconciliation (shared/domain/integrations/ports.ts ProviderRecord). */
export interface SandboxProviderRecord {
  external_id: string;
  document_type: 'invoice' | 'payment' | 'credit_note';
  number: string;
  amount: string;
  currency: string;
}

/**
 * What each reconcilable adapter's provider holds unless a test sets a connection's own records:
 * the README walkthrough's payments (PAY-1001 agrees with the document it creates, PAY-1002
 * does not).
 */
export const SANDBOX_PROVIDER_RECORDS: readonly SandboxProviderRecord[] = [
  {
    external_id: 'prv-pay-1001',
    document_type: 'payment',
    number: 'PAY-1001',
    amount: '250.00',
    currency: 'EUR',
  },
  {
    external_id: 'prv-pay-1002',
    document_type: 'payment',
    number: 'PAY-1002',
    amount: '245.00',
    currency: 'EUR',
  },
];

/** A call of the hub to a provider: `GET /providers/<adapter>/<health|records>?connection=<id>`. */
export interface SandboxProviderCall {
  adapter_key: string;
  what: string;
  connection_id: string;
  status: number;
}

export class ProviderSandbox {
  readonly requests: SandboxRequest[] = [];
  readonly providerCalls: SandboxProviderCall[] = [];
  readonly accounting = new AccountingSandbox();
  private readonly scripts = new Map<SandboxChannel, number[]>();
  private readonly providerScripts = new Map<string, number[]>();
  private readonly providerRecords = new Map<string, SandboxProviderRecord[]>();
  private server: Server | undefined;
  url = '';

  script(channel: SandboxChannel, statuses: number[]): void {
    this.scripts.set(channel, [...statuses]);
  }

  /** The next answers of the hub's provider for one connection (health and records alike). */
  scriptProvider(connectionId: string, statuses: number[]): void {
    this.providerScripts.set(connectionId, [...statuses]);
  }

  /** The records the provider serves to one connection (instead of SANDBOX_PROVIDER_RECORDS). */
  setProviderRecords(connectionId: string, records: SandboxProviderRecord[]): void {
    this.providerRecords.set(connectionId, records);
  }

  /** The hub's providers: a health answer and the records, per adapter and connection. */
  private provider(url: URL, res: ServerResponse): void {
    const [, , adapterKey = '', what = ''] = url.pathname.split('/');
    const connectionId = url.searchParams.get('connection') ?? '';
    const status =
      this.providerScripts.get(connectionId)?.shift() ??
      (what === 'health' || what === 'records' ? 200 : 404);
    this.providerCalls.push({ adapter_key: adapterKey, what, connection_id: connectionId, status });
    if (!process.env.OPS_LOCAL_QUIET) console.log(`[provider-sandbox] ${adapterKey} ${what} -> ${status}`);
    const body =
      status !== 200
        ? { error: 'sandbox' }
        : what === 'health'
          ? { status: 'ok', adapter_key: adapterKey }
          : { records: this.providerRecords.get(connectionId) ?? SANDBOX_PROVIDER_RECORDS };
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  received(channel: SandboxChannel): SandboxRequest[] {
    return this.requests.filter((r) => r.channel === channel);
  }

  private answer(
    channel: SandboxChannel,
    status: number,
  ): { type: string; body: string; headers?: Record<string, string> } {
    const ok = status >= 200 && status < 300;
    switch (channel) {
      case 'telegram':
        return {
          type: 'application/json',
          body: JSON.stringify(
            ok
              ? { ok: true, result: { message_id: this.requests.length } }
              : { ok: false, error_code: status, description: 'sandbox' },
          ),
        };
      case 'email':
        return {
          type: 'application/json',
          body: JSON.stringify(ok ? { MessageId: randomUUID() } : { message: 'sandbox' }),
          headers: ok
            ? {}
            : {
                'x-amzn-errortype':
                  status === 429
                    ? 'TooManyRequestsException'
                    : status >= 500
                      ? 'InternalServiceErrorException'
                      : 'BadRequestException',
              },
        };
      case 'sms':
        return {
          type: 'text/xml',
          body: ok
            ? `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>${randomUUID()}</MessageId></PublishResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></PublishResponse>`
            : `<ErrorResponse><Error><Type>${status >= 500 ? 'Receiver' : 'Sender'}</Type><Code>${status >= 500 ? 'InternalError' : status === 429 ? 'Throttling' : 'InvalidParameter'}</Code><Message>sandbox</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
        };
      case 'webhook':
        return { type: 'application/json', body: JSON.stringify({ received: ok }) };
    }
  }

  async listen(): Promise<string> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const path = url.pathname;
      if (path.startsWith('/providers/') && req.method === 'GET') {
        this.provider(url, res);
        return;
      }
      const target = ACCOUNTING_TARGETS.find((t) => path.startsWith(`/${t}/`));
      if (target) {
        this.accounting.answer(target, req, res, url, Buffer.concat(chunks).toString('utf8'));
        return;
      }
      const channel = channelOf(path);
      if (!channel || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      const status = this.scripts.get(channel)?.shift() ?? 200;
      this.requests.push({
        channel,
        path,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        status,
        at: Date.now(),
      });
      if (!process.env.OPS_LOCAL_QUIET)
        console.log(`[provider-sandbox] ${channel} ${path.replace(/bot[^/]+/, 'bot***')} -> ${status}`);
      const a = this.answer(channel, status);
      res.writeHead(status, { 'content-type': a.type, ...a.headers });
      res.end(a.body);
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.accounting.stop();
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

export const ACCOUNTING_TARGETS = ['ledgerly', 'tallybook'] as const;
export type AccountingTargetName = (typeof ACCOUNTING_TARGETS)[number];

/** A scripted answer to the next call: a status (with Retry-After), or no answer at all. */
export type AccountingScript =
  /** Answers as it would unscripted (books). */
  | { ok: true }
  | { status: number; retryAfter?: number }
  /** Never answers (the client times out); with `book`, it books the documents first. */
  | { hang: true; book?: boolean };

const MINUTE_MS = 60_000;
const KEY_RETENTION_MS = 24 * 3600_000;

/**
 * Ledgerly and Tallybook on loopback, as their adapter declarations describe them: each books a
 * document and answers its external id; past the published per-minute limit it answers 429 with
 * Retry-After; Ledgerly remembers each document's idempotency key for 24 hours and answers a
 * repeated key with the booking it made (Tallybook has no such thing: every create books, and
 * `GET .../documents?number=` finds what is booked). `bookingCount` is what tests prove
 * "booked once" with; `script` makes the next calls fail or hang.
 */
export class AccountingSandbox {
  /** Booked documents per target: external id, number, type, idempotency key, when. */
  readonly booked: {
    target: AccountingTargetName;
    id: string;
    number: string;
    type: string;
    key?: string;
    at: number;
  }[] = [];
  /** Calls that reached a target (token and lookup calls included), with when they arrived. */
  readonly calls: {
    target: AccountingTargetName;
    method: string;
    path: string;
    status: number;
    at: number;
  }[] = [];
  private readonly scripts = new Map<AccountingTargetName, AccountingScript[]>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly timers = new Set<NodeJS.Timeout>();

  script(target: AccountingTargetName, answers: AccountingScript[]): void {
    this.scripts.set(target, [...answers]);
  }

  /** How many times a target booked the document with this number. */
  bookingCount(target: AccountingTargetName, number: string): number {
    return this.booked.filter((b) => b.target === target && b.number === number).length;
  }

  private rateLimit(target: AccountingTargetName) {
    const declared = (target === 'ledgerly' ? ledgerly : tallybook).operations[0]!.rate_limit!;
    const recent = this.calls.filter((c) => c.target === target && c.at > Date.now() - MINUTE_MS);
    if (recent.length < declared.per_minute) return undefined;
    return Math.max(1, Math.ceil((recent[0]!.at + MINUTE_MS - Date.now()) / 1000));
  }

  private book(target: AccountingTargetName, number: string, type: string, key?: string) {
    if (key) {
      const kept = this.booked.find(
        (b) => b.target === target && b.key === key && b.at > Date.now() - KEY_RETENTION_MS,
      );
      if (kept) return kept.id;
    }
    const id = `${target}-${randomUUID()}`;
    this.booked.push({ target, id, number, type, ...(key ? { key } : {}), at: Date.now() });
    return id;
  }

  /** The documents a create call carries: number, type and (Ledgerly) idempotency key. */
  private documentsOf(target: AccountingTargetName, path: string, body: string) {
    const type = (path.split('/').pop() ?? 'invoices').replace(/s$/, '').replace('-', '_');
    const parsed = JSON.parse(body || '{}') as Record<string, unknown>;
    if (target === 'tallybook') return [{ number: String(parsed.doc_no), type, key: undefined }];
    return ((parsed.Items ?? []) as Record<string, unknown>[]).map((i) => ({
      number: String(i.InvoiceNumber),
      type,
      key: String(i.IdempotencyKey),
    }));
  }

  answer(
    target: AccountingTargetName,
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: string,
  ): void {
    const path = url.pathname.slice(target.length + 1);
    const method = req.method ?? 'GET';
    const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      this.calls.push({ target, method, path, status, at: Date.now() });
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
    };
    const isToken = path === '/oauth/token';
    const isCreate = method === 'POST' && !isToken;
    const scripted = isToken ? undefined : this.scripts.get(target)?.shift();
    if (scripted && 'hang' in scripted) {
      this.calls.push({ target, method, path, status: 0, at: Date.now() });
      if (scripted.book && isCreate)
        for (const d of this.documentsOf(target, path, body)) this.book(target, d.number, d.type, d.key);
      this.hanging.add(res);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.hanging.delete(res);
        if (!res.writableEnded) res.writeHead(504).end();
      }, 30_000);
      this.timers.add(timer);
      return;
    }
    if (scripted && 'status' in scripted) {
      json(
        scripted.status,
        { error: 'scripted' },
        scripted.retryAfter === undefined ? {} : { 'retry-after': String(scripted.retryAfter) },
      );
      return;
    }
    const retryAfter = this.rateLimit(target);
    if (retryAfter !== undefined) {
      json(429, { error: 'rate_limited' }, { 'retry-after': String(retryAfter) });
      return;
    }
    if (target === 'ledgerly') {
      if (isToken) {
        const form = new URLSearchParams(body);
        if (!form.get('client_id') || !form.get('client_secret'))
          return json(401, { error: 'invalid_client' });
        return json(200, { access_token: randomUUID(), expires_in: 1800 });
      }
      if (!req.headers.authorization?.startsWith('Bearer ')) return json(401, { error: 'unauthorized' });
      const items = this.documentsOf(target, path, body).map((d) => ({
        IdempotencyKey: d.key,
        Status: 'OK',
        Id: this.book(target, d.number, d.type, d.key),
      }));
      return json(200, { Items: items });
    }
    if (!req.headers['x-api-key']) return json(401, { error: 'unauthorized' });
    if (method === 'GET' && path.endsWith('/documents')) {
      const number = url.searchParams.get('number');
      const type = url.searchParams.get('type');
      const items = this.booked
        .filter((b) => b.target === target && b.number === number && b.type === type)
        .map((b) => ({ id: b.id, number: b.number, type: b.type }));
      return json(200, { items });
    }
    if (!isCreate) return json(404, { error: 'not_found' });
    const [d] = this.documentsOf(target, path, body);
    return json(201, { id: this.book(target, d!.number, d!.type) });
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }
}
