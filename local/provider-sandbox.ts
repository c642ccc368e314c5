import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { ACCOUNTING_TARGETS, AccountingSandbox } from './accounting-sandbox';
import { OAUTH_PROVIDERS, OAuthSandbox } from './oauth-sandbox';

/**
 * The providers on loopback: a Telegram Bot API, SES v2, SNS and a webhook receiver that record
 * what they receive, so the real channel clients run on the local runtime and nothing leaves the
 * machine. `script(channel, [503, 503])` makes the next answers fail, for retry demos and tests.
 * The integration hub's providers answer `GET /providers/<adapter>/health|records` the same way
 * (`scriptProvider`, `setProviderRecords`).
 *
 * And the two accounting test doubles, behaving like real systems (`accounting-sandbox.ts`), and
 * Xero and QuickBooks Online with their OAuth 2 (`oauth-sandbox.ts`, `oauth-apis*.ts`).
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
  readonly oauth = new OAuthSandbox();
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
        return {
          type: 'application/json',
          body: JSON.stringify({ received: ok }),
          // A subscription honours it: the README's broken receiver asks for a retry in a second.
          ...((status === 429 || status === 503) && { headers: { 'retry-after': '1' } }),
        };
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
      const oauthProvider = OAUTH_PROVIDERS.find((p) => path.startsWith(`/${p}/`));
      if (oauthProvider) {
        this.oauth.answer(oauthProvider, req, res, url, Buffer.concat(chunks).toString('utf8'));
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
