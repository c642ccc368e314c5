import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubGateway, type HubGatewaySettings, probeTarget } from '#functions/adapters/hub-gateway';
import { probeUrl } from '#functions/adapters/probe';
import { ADAPTERS } from '#shared/domain/integrations/adapters/index';
import type { Connection } from '#shared/domain/integrations/ports';

/**
 * "Provider reachable" without a sandbox (docs/api.md section 9.3): each adapter's declared
 * endpoint, the connection's own url for a webhook, one HEAD through the webhook address guard.
 */

const connection = (adapter_key: string, config: Record<string, unknown> = {}): Connection => ({
  id: 'c-1',
  tenant_id: 't-1',
  adapter_key,
  category: 'notification',
  name: 'probe',
  status: 'active',
  scopes: [],
  config,
  mapping: {},
  secret_configured: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const cloud = (over: Partial<HubGatewaySettings> = {}): HubGatewaySettings => ({
  providerUrl: undefined,
  timeoutMs: 2000,
  region: 'eu-west-1',
  endpoints: {},
  allowLoopback: false,
  ...over,
});

describe('the probe target of each adapter', () => {
  it('every adapter declares an https endpoint or the config field of its url', () => {
    for (const a of ADAPTERS) {
      if ('endpoint' in a.probe) expect(a.probe.endpoint, a.key).toMatch(/^https:\/\//);
      else expect(a.target_url_fields, a.key).toContain(a.probe.config_field);
    }
  });

  it('names the real endpoints: Telegram, the regional SES and SNS, the webhook url, a configured base', () => {
    expect(probeTarget(connection('telegram'), cloud())).toBe('https://api.telegram.org');
    expect(probeTarget(connection('email'), cloud())).toBe('https://email.eu-west-1.amazonaws.com');
    expect(probeTarget(connection('sms'), cloud())).toBe('https://sns.eu-west-1.amazonaws.com');
    expect(probeTarget(connection('webhook', { url: 'https://hooks.acme.example/x' }), cloud())).toBe(
      'https://hooks.acme.example/x',
    );
    expect(probeTarget(connection('ledgerly'), cloud())).toBe('https://api.ledgerly.example');
    expect(
      probeTarget(connection('ledgerly'), cloud({ endpoints: { ledgerly: 'https://eu.ledgerly.example' } })),
    ).toBe('https://eu.ledgerly.example');
  });

  it('cannot name one without a region or a url: not probed (undefined)', async () => {
    expect(probeTarget(connection('email'), cloud({ region: undefined }))).toBeUndefined();
    expect(probeTarget(connection('webhook'), cloud())).toBeUndefined();
    expect(await hubGateway(cloud()).probe(connection('webhook'))).toBeUndefined();
  });
});

describe('the probe request', () => {
  let server: Server;
  let base: string;
  const seen: { method: string; url: string }[] = [];
  let status = 200;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '' });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end('provider text that must not leak');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('any answer below 500 is reachable; a 5xx is not, with the status only', async () => {
    const local = { allowLoopback: true, timeoutMs: 2000 };
    status = 200;
    expect(await probeUrl(`${base}/hook`, local)).toEqual({ ok: true });
    status = 404;
    expect(await probeUrl(`${base}/hook`, local)).toEqual({ ok: true });
    status = 503;
    expect(await probeUrl(`${base}/hook`, local)).toEqual({ ok: false, reason: 'HTTP 503' });
    expect(seen.at(-1)).toEqual({ method: 'HEAD', url: '/hook' });
  });

  it("a webhook connection's url is probed through the gateway (HEAD to the url itself)", async () => {
    status = 204;
    const before = seen.length;
    const gateway = hubGateway(cloud({ allowLoopback: true }));
    expect(await gateway.probe(connection('webhook', { url: `${base}/in` }))).toEqual({ ok: true });
    expect(seen.slice(before)).toEqual([{ method: 'HEAD', url: '/in' }]);
  });

  it('the webhook address guard holds: loopback, private and metadata targets are refused unsent', async () => {
    const before = seen.length;
    const guarded = { allowLoopback: false, timeoutMs: 2000 };
    const port = new URL(base).port;
    expect(await probeUrl(base, guarded)).toEqual({ ok: false, reason: 'not https' });
    expect(await probeUrl(`https://127.0.0.1:${port}/`, guarded)).toEqual({
      ok: false,
      reason: 'forbidden address',
    });
    expect(await probeUrl('https://169.254.169.254/latest', guarded)).toEqual({
      ok: false,
      reason: 'forbidden address',
    });
    expect(await probeUrl(`https://localhost:${port}/`, guarded)).toEqual({
      ok: false,
      reason: 'forbidden address',
    });
    expect(seen.length).toBe(before);
  });
});
