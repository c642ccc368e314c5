import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { providerSender } from '#functions/adapters/providers';
import type { AwsClientSettings, ProviderSettings } from '#functions/config';
import type { Notification, ProviderConnection, SendResult } from '#shared/domain/notifications/ports';
import { ProviderSandbox } from '#local/provider-sandbox';

/**
 * The channel senders (functions/adapters/providers.ts) against the loopback provider sandbox,
 * started in-process: the real Telegram HTTP call and the real SES v2 and SNS clients. Each
 * sender's request carries what the provider needs, each provider answer becomes the right
 * failure class (a 4xx is permanent, a 429 or a 5xx is worth a retry), a provider that does not
 * answer is a retryable timeout, and no result ever carries a connection's secret.
 */

const sandbox = new ProviderSandbox();
const BOT_TOKEN = '123456:AAsecret-bot-token';
const SIGNING_SECRET = `whsec_${Buffer.from('a-signing-secret-of-enough-length').toString('base64')}`;
const TIMEOUT_MS = 600;

const awsClient = (endpoint: string): AwsClientSettings => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

const settings = (o: Partial<ProviderSettings> = {}): ProviderSettings => ({
  telegramApiUrl: `${sandbox.url}/telegram`,
  accountingApiUrls: { ledgerly: `${sandbox.url}/ledgerly`, tallybook: `${sandbox.url}/tallybook` },
  timeoutMs: TIMEOUT_MS,
  clients: { sesv2: awsClient(`${sandbox.url}/sesv2`), sns: awsClient(`${sandbox.url}/sns`) },
  ...o,
});

let seq = 0;
const notification = (channel: Notification['channel'], o: Partial<Notification> = {}): Notification => {
  seq++;
  return {
    id: `n-${seq}`,
    tenant_id: 't-providers',
    channel,
    recipient: 'r',
    recipient_user_id: null,
    category: 'general',
    priority: 'normal',
    subject: 'Invoice overdue',
    body: `body ${seq}`,
    metadata_json: '{}',
    status: 'delivering',
    policy_reasons: [],
    idempotency_key: `key-${seq}`,
    attempts: [],
    review_item_id: null,
    created_by: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    queued_at: null,
    delivered_at: null,
    ...o,
  };
};

const telegramConnection = (config: Record<string, unknown> = {}): ProviderConnection => ({
  config,
  secret: { bot_token: BOT_TOKEN },
});
const emailConnection = (config: Record<string, unknown> = {}): ProviderConnection => ({
  config: { from_address: 'billing@acme.example', ...config },
  secret: undefined,
});
const webhookConnection = (url: string, secret = SIGNING_SECRET): ProviderConnection => ({
  config: { url },
  secret: { signing_secret: secret },
});

/** No result may carry a secret of the connection: results are stored and shown to the tenant. */
const expectNoSecret = (result: SendResult) => {
  const text = JSON.stringify(result);
  expect(text).not.toContain(BOT_TOKEN);
  expect(text).not.toContain('AAsecret');
  expect(text).not.toContain(SIGNING_SECRET);
};

const servers: { server: Pick<Server, 'close'>; sockets: Set<Socket> }[] = [];
/** A TCP server that accepts connections and never answers. */
async function silentServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push({ server, sockets });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
/** An HTTP server on loopback answering with `answer`; its open sockets are tracked. */
async function httpServer(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    req.resume();
    answer(req, res);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push({ server, sockets });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets };
}
/** A loopback address where nothing listens (a port that was free a moment ago). */
async function closedPort(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  process.env.OPS_LOCAL_QUIET = '1';
  await sandbox.listen();
});
afterEach(() => {
  sandbox.requests.splice(0);
});
afterAll(async () => {
  for (const { server, sockets } of servers) {
    for (const s of sockets) s.destroy();
    server.close();
  }
  await sandbox.stop();
});

const lastOf = (channel: 'telegram' | 'email' | 'sms' | 'webhook') => {
  const all = sandbox.received(channel);
  expect(all).toHaveLength(1);
  return all[0]!;
};
/** The SNS Query protocol's form body as a map. */
const formOf = (body: string) => Object.fromEntries(new URLSearchParams(body));

describe('in_app', () => {
  it('is delivered without any provider call', async () => {
    expect(
      await providerSender(settings(), true).send(notification('in_app'), { config: {}, secret: undefined }),
    ).toEqual({ ok: true });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('works with the cloud settings, where no client endpoint is overridden', async () => {
    const port = providerSender(settings({ clients: undefined }), false);
    expect(await port.send(notification('in_app'), { config: {}, secret: undefined })).toEqual({ ok: true });
  });
});

describe('telegram', () => {
  it('posts the message to the bot API with the connection token, and nothing else', async () => {
    const n = notification('telegram', { recipient: '-100200300' });
    expect(await providerSender(settings(), true).send(n, telegramConnection())).toEqual({ ok: true });
    const req = lastOf('telegram');
    expect(req.path).toBe(`/telegram/bot${BOT_TOKEN}/sendMessage`);
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ chat_id: '-100200300', text: n.body });
  });

  it('asks for a silent message only when the connection says so', async () => {
    const port = providerSender(settings(), true);
    await port.send(notification('telegram'), telegramConnection({ disable_notification: true }));
    await port.send(notification('telegram'), telegramConnection({ disable_notification: 'yes' }));
    const [silent, loud] = sandbox.received('telegram');
    expect(JSON.parse(silent!.body).disable_notification).toBe(true);
    expect(JSON.parse(loud!.body)).not.toHaveProperty('disable_notification');
  });

  it('classifies the answers: a 4xx is permanent, a 429 or a 5xx is worth a retry', async () => {
    const port = providerSender(settings(), true);
    sandbox.script('telegram', [400, 403, 429, 502]);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await port.send(notification('telegram'), telegramConnection()));
    expect(results).toEqual([
      { ok: false, kind: 'permanent', reason: 'http_400' },
      { ok: false, kind: 'permanent', reason: 'http_403' },
      { ok: false, kind: 'transient', reason: 'http_429' },
      { ok: false, kind: 'transient', reason: 'http_502' },
    ]);
    for (const r of results) expectNoSecret(r);
  });

  it('gives up at the provider timeout: a retryable timeout that names no token', async () => {
    const port = providerSender(settings({ telegramApiUrl: await silentServer() }), true);
    const started = performance.now();
    const result = await port.send(notification('telegram'), telegramConnection());
    expect(result).toEqual({ ok: false, kind: 'transient', reason: 'timeout' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 4);
  });

  it('a provider that cannot be reached is a retryable network error', async () => {
    const port = providerSender(settings({ telegramApiUrl: await closedPort() }), true);
    const result = await port.send(notification('telegram'), telegramConnection());
    expect(result).toEqual({ ok: false, kind: 'transient', reason: 'network_error' });
    expectNoSecret(result);
  });

  it('never follows a redirect to another host', async () => {
    const { url } = await httpServer((_req, res) =>
      res.writeHead(302, { location: `${sandbox.url}/telegram/bot${BOT_TOKEN}/sendMessage` }).end(),
    );
    const result = await providerSender(settings({ telegramApiUrl: url }), true).send(
      notification('telegram'),
      telegramConnection(),
    );
    expect(result).toMatchObject({ ok: false, kind: 'transient' });
    expect(sandbox.received('telegram')).toHaveLength(0);
  });

  it('an answer without a body is read as its status', async () => {
    const { url } = await httpServer((_req, res) => res.writeHead(204).end());
    expect(
      await providerSender(settings({ telegramApiUrl: url }), true).send(
        notification('telegram'),
        telegramConnection(),
      ),
    ).toEqual({ ok: true });
  });
});

describe('email (SES v2)', () => {
  it('sends the subject and text body from the connection address to the recipient', async () => {
    const n = notification('email', { recipient: 'ap@customer.example' });
    expect(await providerSender(settings(), true).send(n, emailConnection())).toEqual({ ok: true });
    const req = lastOf('email');
    expect(req.path).toBe('/sesv2/v2/email/outbound-emails');
    expect(JSON.parse(req.body)).toEqual({
      FromEmailAddress: 'billing@acme.example',
      Destination: { ToAddresses: ['ap@customer.example'] },
      Content: {
        Simple: {
          Subject: { Data: 'Invoice overdue', Charset: 'UTF-8' },
          Body: { Text: { Data: n.body, Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('adds the reply-to address and the configuration set when the connection has them', async () => {
    const n = notification('email', { subject: null });
    await providerSender(settings(), true).send(
      n,
      emailConnection({ reply_to: 'help@acme.example', configuration_set: 'tracked' }),
    );
    const body = JSON.parse(lastOf('email').body);
    expect(body.ReplyToAddresses).toEqual(['help@acme.example']);
    expect(body.ConfigurationSetName).toBe('tracked');
    expect(body.Content.Simple.Subject).toEqual({ Data: '', Charset: 'UTF-8' });
  });

  it('classifies the answers by status, naming the error type', async () => {
    const port = providerSender(settings(), true);
    sandbox.script('email', [400, 429, 500]);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await port.send(notification('email'), emailConnection()));
    expect(results).toEqual([
      { ok: false, kind: 'permanent', reason: 'http_400_BadRequestException' },
      { ok: false, kind: 'transient', reason: 'http_429_TooManyRequestsException' },
      { ok: false, kind: 'transient', reason: 'http_500_InternalServiceErrorException' },
    ]);
    // One attempt each: retries are the queue's, not the SDK's.
    expect(sandbox.received('email')).toHaveLength(3);
  });

  it('gives up at the provider timeout with a retryable failure', async () => {
    const silent = await silentServer();
    const port = providerSender(settings({ clients: { sesv2: awsClient(silent) } }), true);
    const started = performance.now();
    const result = await port.send(notification('email'), emailConnection());
    expect(result).toMatchObject({ ok: false, kind: 'transient' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 4);
  });
});

describe('sms (SNS)', () => {
  it('publishes the body to the phone number, with sender id and type when configured', async () => {
    const port = providerSender(settings(), true);
    const n = notification('sms', { recipient: '+15550100' });
    expect(
      await port.send(n, { config: { sender_id: 'ACME', sms_type: 'Transactional' }, secret: undefined }),
    ).toEqual({ ok: true });
    const form = formOf(lastOf('sms').body);
    expect(form).toMatchObject({ Action: 'Publish', PhoneNumber: '+15550100', Message: n.body });
    const attributes = Object.fromEntries(
      [1, 2].map((i) => [
        form[`MessageAttributes.entry.${i}.Name`],
        form[`MessageAttributes.entry.${i}.Value.StringValue`],
      ]),
    );
    expect(attributes).toEqual({ 'AWS.SNS.SMS.SenderID': 'ACME', 'AWS.SNS.SMS.SMSType': 'Transactional' });
    expect([1, 2].map((i) => form[`MessageAttributes.entry.${i}.Value.DataType`])).toEqual([
      'String',
      'String',
    ]);
  });

  it('sends no message attributes the connection does not set', async () => {
    await providerSender(settings(), true).send(notification('sms'), { config: {}, secret: undefined });
    const form = formOf(lastOf('sms').body);
    expect(Object.keys(form).filter((k) => k.startsWith('MessageAttributes'))).toEqual([]);
  });

  it('classifies the answers: a rejected parameter is permanent, throttling and 5xx retry', async () => {
    const port = providerSender(settings(), true);
    sandbox.script('sms', [400, 429, 500]);
    const results = [];
    for (let i = 0; i < 3; i++)
      results.push(await port.send(notification('sms'), { config: {}, secret: undefined }));
    expect(results.map((r) => (r.ok ? 'ok' : r.kind))).toEqual(['permanent', 'transient', 'transient']);
    expect(results.map((r) => (r.ok ? '' : r.reason))).toEqual([
      expect.stringMatching(/^http_400_InvalidParameter/),
      expect.stringMatching(/^http_429_Throttl/),
      expect.stringMatching(/^http_500_InternalError/),
    ]);
    expect(sandbox.received('sms')).toHaveLength(3);
  });

  it('gives up at the provider timeout with a retryable failure', async () => {
    const silent = await silentServer();
    const port = providerSender(settings({ clients: { sns: awsClient(silent) } }), true);
    const started = performance.now();
    const result = await port.send(notification('sms'), { config: {}, secret: undefined });
    expect(result).toMatchObject({ ok: false, kind: 'transient' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 4);
  });
});

describe('SDK errors without an HTTP status', () => {
  // Mocked only inside this block: the other tests use the real clients against the sandbox.
  const mockSes = () => mockClient(SESv2Client);
  const mockSns = () => mockClient(SNSClient);
  let ses: ReturnType<typeof mockSes>;
  let sns: ReturnType<typeof mockSns>;
  beforeAll(() => {
    ses = mockSes();
    sns = mockSns();
  });
  afterAll(() => {
    ses.restore();
    sns.restore();
  });
  const fault = (name: string, extra: object = {}) => Object.assign(new Error('sdk'), { name, ...extra });

  it('throttling, timeouts and retryable errors are transient; validation errors are permanent', async () => {
    const port = providerSender(settings(), true);
    const cases: [Error, SendResult][] = [
      [fault('ThrottlingException'), { ok: false, kind: 'transient', reason: 'provider_unavailable' }],
      [fault('TooManyRequestsException'), { ok: false, kind: 'transient', reason: 'provider_unavailable' }],
      [fault('TimeoutError'), { ok: false, kind: 'transient', reason: 'provider_unavailable' }],
      [fault('ServiceUnavailable'), { ok: false, kind: 'transient', reason: 'provider_unavailable' }],
      [
        fault('SomethingNew', { $retryable: {} }),
        { ok: false, kind: 'transient', reason: 'provider_unavailable' },
      ],
      [fault('InvalidParameterValue'), { ok: false, kind: 'permanent', reason: 'provider_rejected' }],
      [fault('BadRequestException'), { ok: false, kind: 'permanent', reason: 'provider_rejected' }],
      [fault('MessageRejected'), { ok: false, kind: 'permanent', reason: 'provider_rejected' }],
      [fault('NotFoundException'), { ok: false, kind: 'permanent', reason: 'provider_rejected' }],
      [fault('ValidationException'), { ok: false, kind: 'permanent', reason: 'provider_rejected' }],
      [fault('ECONNRESET'), { ok: false, kind: 'transient', reason: 'network_error' }],
    ];
    for (const [err, expected] of cases) {
      ses.reset().on(SendEmailCommand).rejects(err);
      sns.reset().on(PublishCommand).rejects(err);
      expect(await port.send(notification('email'), emailConnection()), err.name).toEqual(expected);
      expect(await port.send(notification('sms'), { config: {}, secret: undefined }), err.name).toEqual(
        expected,
      );
    }
  });

  it('a status on an unnamed error is classified by the status alone', async () => {
    const port = providerSender(settings(), true);
    ses
      .reset()
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('x'), { name: '', $metadata: { httpStatusCode: 403 } }));
    expect(await port.send(notification('email'), emailConnection())).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'http_403_',
    });
    ses
      .reset()
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('x'), { name: undefined, $metadata: { httpStatusCode: 503 } }));
    expect(await port.send(notification('email'), emailConnection())).toEqual({
      ok: false,
      kind: 'transient',
      reason: 'http_503_error',
    });
  });

  it('the error name in a reason keeps its letters only', async () => {
    const port = providerSender(settings(), true);
    ses
      .reset()
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('x'), { name: 'Bad.Request-2', $metadata: { httpStatusCode: 400 } }));
    expect(await port.send(notification('email'), emailConnection())).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'http_400_BadRequest',
    });
  });

  it('a 2xx status on an error does not make it a success', async () => {
    const port = providerSender(settings(), true);
    ses
      .reset()
      .on(SendEmailCommand)
      .rejects(Object.assign(new Error('x'), { name: 'Weird.Name-1', $metadata: { httpStatusCode: 200 } }));
    expect(await port.send(notification('email'), emailConnection())).toEqual({
      ok: false,
      kind: 'transient',
      reason: 'network_error',
    });
  });
});

describe('webhook', () => {
  const webhookUrl = () => `${sandbox.url}/webhook/acme`;

  it('posts a signed Standard Webhooks message about the notification', async () => {
    const n = notification('webhook', {
      recipient: `${webhookUrl()}/invoices`,
      idempotency_key: 'tenant:n/1 x',
    });
    const before = Date.now();
    expect(await providerSender(settings(), true).send(n, webhookConnection(webhookUrl()))).toEqual({
      ok: true,
    });
    const req = lastOf('webhook');
    expect(req.path).toBe('/webhook/acme/invoices');
    // The id is the idempotency key, made safe for a header: a receiver deduplicates by it.
    expect(req.headers['webhook-id']).toBe('tenant_n_1_x');
    const body = new Webhook(SIGNING_SECRET).verify(req.body, req.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: unknown;
    };
    expect(body).toMatchObject({
      type: 'notification.delivered',
      data: { notification_id: n.id, tenant_id: n.tenant_id, subject: n.subject, body: n.body },
    });
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.timestamp)).toBeLessThanOrEqual(Date.now());
    expect(req.body).not.toContain(SIGNING_SECRET);
  });

  it('a signature made with another secret does not verify', async () => {
    await providerSender(settings(), true).send(
      notification('webhook', { recipient: webhookUrl() }),
      webhookConnection(webhookUrl()),
    );
    const req = lastOf('webhook');
    const other = `whsec_${Buffer.from('another-secret-of-enough-length!!').toString('base64')}`;
    expect(() => new Webhook(other).verify(req.body, req.headers as Record<string, string>)).toThrow();
  });

  it('refuses a recipient outside the connection endpoint without a call', async () => {
    const port = providerSender(settings(), true);
    const outside = { ok: false, kind: 'permanent', reason: 'recipient_outside_connection' };
    expect(
      await port.send(
        notification('webhook', { recipient: `${sandbox.url}/webhook/other` }),
        webhookConnection(webhookUrl()),
      ),
    ).toEqual(outside);
    expect(
      await port.send(notification('webhook', { recipient: webhookUrl() }), {
        config: { url: 42 },
        secret: { signing_secret: SIGNING_SECRET },
      }),
    ).toEqual(outside);
    expect(sandbox.requests).toHaveLength(0);
  });

  it('classifies the receiver answers like every other provider', async () => {
    const port = providerSender(settings(), true);
    sandbox.script('webhook', [410, 503]);
    const n = () => notification('webhook', { recipient: webhookUrl() });
    expect(await port.send(n(), webhookConnection(webhookUrl()))).toEqual({
      ok: false,
      kind: 'permanent',
      reason: 'http_410',
    });
    expect(await port.send(n(), webhookConnection(webhookUrl()))).toEqual({
      ok: false,
      kind: 'transient',
      reason: 'http_503',
    });
  });

  it('refuses loopback receivers unless the runtime allows them', async () => {
    const result = await providerSender(settings(), false).send(
      notification('webhook', { recipient: webhookUrl() }),
      webhookConnection(webhookUrl()),
    );
    expect(result).toEqual({ ok: false, kind: 'permanent', reason: 'not_https' });
    expect(sandbox.requests).toHaveLength(0);
  });

  it('gives up at the provider timeout', async () => {
    const silent = await silentServer();
    const started = performance.now();
    const result = await providerSender(settings(), true).send(
      notification('webhook', { recipient: `${silent}/hook` }),
      webhookConnection(`${silent}/hook`),
    );
    expect(result).toEqual({ ok: false, kind: 'transient', reason: 'timeout' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 4);
  });

  it('reads an answer of up to 64 KiB whole: the connection is kept for the next delivery', async () => {
    const size = 48 * 1024;
    const connections: Socket[] = [];
    const { url } = await httpServer((req, res) => {
      connections.push(req.socket);
      res.writeHead(200, { 'content-length': String(size) }).end(Buffer.alloc(size, 'x'));
    });
    const sender = providerSender(settings(), true);
    const send = () =>
      sender.send(notification('webhook', { recipient: `${url}/hook` }), webhookConnection(`${url}/hook`));
    expect(await send()).toEqual({ ok: true });
    // Kept: the next delivery goes over the same connection.
    expect(await send()).toEqual({ ok: true });
    expect(connections).toHaveLength(2);
    expect(connections[1]).toBe(connections[0]);
  });
});
