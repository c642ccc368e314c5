import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

/**
 * The providers on loopback: a Telegram Bot API, SES v2, SNS and a webhook receiver that record
 * what they receive, so the real channel clients run on the local runtime and nothing leaves the
 * machine. `script(channel, [503, 503])` makes the next answers fail, for retry demos and tests.
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

export class ProviderSandbox {
  readonly requests: SandboxRequest[] = [];
  private readonly scripts = new Map<SandboxChannel, number[]>();
  private server: Server | undefined;
  url = '';

  script(channel: SandboxChannel, statuses: number[]): void {
    this.scripts.set(channel, [...statuses]);
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
      const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
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
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}
