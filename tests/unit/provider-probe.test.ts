import dns, { type LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  providerReader,
  type ProviderReaderSettings,
  probeTarget,
} from '#functions/adapters/provider-reader';
import { guardedLookup, probeUrl } from '#functions/adapters/probe';
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

const cloud = (over: Partial<ProviderReaderSettings> = {}): ProviderReaderSettings => ({
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

  it('an endpoint without a region in it needs no region', () => {
    expect(probeTarget(connection('telegram'), cloud({ region: undefined }))).toBe(
      'https://api.telegram.org',
    );
  });

  it('cannot name one without a region or a url: not probed (undefined)', async () => {
    expect(probeTarget(connection('email'), cloud({ region: undefined }))).toBeUndefined();
    expect(probeTarget(connection('webhook'), cloud())).toBeUndefined();
    expect(probeTarget(connection('webhook', { url: 443 }), cloud())).toBeUndefined();
    expect(probeTarget(connection('no-such-adapter'), cloud())).toBeUndefined();
    expect(await providerReader(cloud()).probe(connection('webhook'))).toBeUndefined();
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
    const gateway = providerReader(cloud({ allowLoopback: true }));
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

describe('the probe request, beyond the status', () => {
  let server: Server;
  let base: string;
  const agents: (string | undefined)[] = [];
  let answers = true;

  beforeAll(async () => {
    server = createServer((req, res) => {
      agents.push(req.headers['user-agent']);
      if (answers) res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const local = { allowLoopback: true, timeoutMs: 2000 };

  it('a 500 is not reachable, and the provider sees who asks', async () => {
    answers = true;
    expect(await probeUrl(`${base}/`, local)).toEqual({ ok: false, reason: 'HTTP 500' });
    expect(agents.at(-1)).toBe('ops-platform-diagnostics/1');
  });

  it('a provider that never answers is a timeout', async () => {
    answers = false;
    expect(await probeUrl(`${base}/`, { allowLoopback: true, timeoutMs: 150 })).toEqual({
      ok: false,
      reason: 'timeout',
    });
  });

  it('a refused connection is a network error; a name that does not resolve is dns not found', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await probeUrl(`http://127.0.0.1:${port}/`, local)).toEqual({
      ok: false,
      reason: 'network error',
    });
    expect(await probeUrl('https://provider.invalid/', local)).toEqual({
      ok: false,
      reason: 'dns not found',
    });
  });

  it('refuses what is not a url, and any scheme but https (http on loopback only)', async () => {
    expect(await probeUrl('not a url', local)).toEqual({ ok: false, reason: 'invalid url' });
    expect(await probeUrl(`ftp://127.0.0.1:${new URL(base).port}/`, local)).toEqual({
      ok: false,
      reason: 'not https',
    });
  });

  it('an IPv6 literal in brackets is checked like any address, and never asked', async () => {
    const guarded = { allowLoopback: false, timeoutMs: 2000 };
    const before = agents.length;
    for (const host of ['[::1]', '[::ffff:169.254.169.254]', '[fd00::1]'])
      expect(await probeUrl(`https://${host}:${new URL(base).port}/`, guarded), host).toEqual({
        ok: false,
        reason: 'forbidden address',
      });
    expect(agents.length).toBe(before);
  });
});

describe('the address guard of the lookup', () => {
  type Answer = { code: string | undefined; address: string | LookupAddress[]; family?: number };
  const lookup = (allowLoopback: boolean, hostname: string, opts: object) =>
    new Promise<Answer>((resolve) =>
      guardedLookup(allowLoopback)(hostname, opts, (err, address, family) =>
        resolve({ code: err?.code, address, family }),
      ),
    );

  /** DNS answering `list` for every name, for the duration of `run` (the real lookup after it). */
  async function withDns<T>(list: LookupAddress[], run: () => Promise<T>): Promise<T> {
    const real = dns.lookup;
    (dns as { lookup: unknown }).lookup = (
      _h: string,
      _o: object,
      cb: (e: null, l: LookupAddress[]) => void,
    ) => cb(null, list);
    syncBuiltinESMExports();
    try {
      return await run();
    } finally {
      dns.lookup = real;
      syncBuiltinESMExports();
    }
  }
  const PUBLIC = { address: '93.184.216.34', family: 4 };

  it('passes a public answer on: one address, or the list when all are asked for', async () => {
    const both = [PUBLIC, { address: '2606:2800:220:1::1', family: 6 }];
    await withDns(both, async () => {
      expect(await lookup(false, 'provider.example', {})).toEqual({
        code: undefined,
        address: PUBLIC.address,
        family: 4,
      });
      expect(await lookup(false, 'provider.example', { all: true })).toEqual({
        code: undefined,
        address: both,
      });
    });
  });

  it('refuses the whole answer when any address of it is forbidden, or when it is empty', async () => {
    for (const list of [
      [PUBLIC, { address: '10.0.0.1', family: 4 }],
      [{ address: '169.254.169.254', family: 4 }],
      [],
    ])
      await withDns(list, async () => {
        expect(await lookup(false, 'provider.example', { all: true }), JSON.stringify(list)).toMatchObject({
          code: 'EFORBIDDENTARGET',
        });
      });
  });

  it('loopback is refused unless allowed; a DNS error passes through', async () => {
    expect(await lookup(false, 'localhost', {})).toMatchObject({ code: 'EFORBIDDENTARGET' });
    const allowed = await lookup(true, 'localhost', {});
    expect(allowed.code).toBeUndefined();
    expect(['127.0.0.1', '::1']).toContain(allowed.address);
    expect(await lookup(true, 'provider.invalid', {})).toMatchObject({ code: 'ENOTFOUND' });
  });
});
