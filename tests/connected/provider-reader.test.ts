import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerReader, PROVIDER_RECORDS_MAX } from '#functions/adapters/provider-reader';
import type { Connection, ProviderRecord } from '#shared/domain/integrations/ports';
import { ProviderSandbox, type SandboxProviderRecord } from '#local/provider-sandbox';

/**
 * The hub's HTTP client of the providers (functions/adapters/provider-reader.ts) against the loopback
 * sandbox and a bare provider on loopback: the reconciliation read accepts only well-formed
 * records (docs/api.md section 9.3), and every failure of the provider is a short reason, never
 * a throw or the provider's own text.
 */

const sandbox = new ProviderSandbox();
beforeAll(async () => {
  process.env.OPS_LOCAL_QUIET = '1';
  await sandbox.listen();
});
afterAll(() => sandbox.stop());

let n = 0;
const connection = (): Connection => ({
  id: `c-${++n}`,
  tenant_id: 't-1',
  adapter_key: 'ledgerly',
  category: 'accounting',
  name: 'Books',
  status: 'active',
  scopes: [],
  config: {},
  mapping: {},
  secret_configured: true,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});
const gateway = (providerUrl: string, timeoutMs = 2000) =>
  providerReader({ providerUrl, timeoutMs, region: undefined, endpoints: {}, allowLoopback: false });

const RECORD: ProviderRecord = {
  external_id: 'prv-inv-1',
  document_type: 'invoice',
  number: 'INV-1',
  amount: '120.50',
  currency: 'EUR',
};
/** The records the sandbox serves to a fresh connection, read through the gateway. */
const read = async (records: unknown[]) => {
  const c = connection();
  sandbox.setProviderRecords(c.id, records as SandboxProviderRecord[]);
  return gateway(`${sandbox.url}/providers`).records(c);
};
const MALFORMED = { ok: false, reason: 'malformed answer' };

describe('the reconciliation read (records)', () => {
  it('passes well-formed records on, of every document type, and asks for its own connection', async () => {
    const records = [
      RECORD,
      { ...RECORD, external_id: 'prv-pay-1', document_type: 'payment', amount: '7' },
      { ...RECORD, external_id: 'prv-cn-1', document_type: 'credit_note', currency: 'USD' },
    ];
    const c = connection();
    sandbox.setProviderRecords(c.id, records as SandboxProviderRecord[]);
    expect(await gateway(`${sandbox.url}/providers`).records(c)).toEqual({ ok: true, records });
    expect(sandbox.providerCalls.at(-1)).toEqual({
      adapter_key: 'ledgerly',
      what: 'records',
      connection_id: c.id,
      status: 200,
    });
  });

  it.each([
    ['null', null],
    ['a string', 'INV-1'],
    ['no external_id', { ...RECORD, external_id: undefined }],
    ['a numeric external_id', { ...RECORD, external_id: 17 }],
    ['a numeric number', { ...RECORD, number: 1001 }],
    ['no document_type', { ...RECORD, document_type: undefined }],
    ['an unknown document_type', { ...RECORD, document_type: 'receipt' }],
    ['a numeric amount', { ...RECORD, amount: 120.5 }],
    ['an amount in a list', { ...RECORD, amount: ['120.50'] }],
    ['an amount that is not money', { ...RECORD, amount: '12.345' }],
    ['no currency', { ...RECORD, currency: undefined }],
    ['a currency in a list', { ...RECORD, currency: ['EUR'] }],
    ['a lower-case currency', { ...RECORD, currency: 'eur' }],
    ['a currency with a suffix', { ...RECORD, currency: 'EURO' }],
    ['a currency with a prefix', { ...RECORD, currency: 'XEUR' }],
  ])('one record with %s among good ones makes the whole answer malformed', async (_, bad) => {
    expect(await read([RECORD, bad, { ...RECORD, external_id: 'prv-inv-2' }])).toEqual(MALFORMED);
  });

  it(`reads at most ${PROVIDER_RECORDS_MAX} records: one more is a malformed answer, not a truncation`, async () => {
    const many = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ ...RECORD, external_id: `prv-${i}`, number: `INV-${i}` }));
    const full = many(PROVIDER_RECORDS_MAX);
    expect(await read(full)).toEqual({ ok: true, records: full });
    expect(await read(many(PROVIDER_RECORDS_MAX + 1))).toEqual(MALFORMED);
  });

  it('a failing provider is its status; health and records alike', async () => {
    const c = connection();
    sandbox.scriptProvider(c.id, [503, 401]);
    expect(await gateway(`${sandbox.url}/providers`).records(c)).toEqual({ ok: false, reason: 'HTTP 503' });
    expect(await gateway(`${sandbox.url}/providers`).probe(c)).toEqual({ ok: false, reason: 'HTTP 401' });
    expect(await gateway(`${sandbox.url}/providers`).probe(c)).toEqual({ ok: true });
  });
});

describe('a provider that misbehaves', () => {
  let server: Server;
  let base: string;
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  let answer: (res: ServerResponse) => void = (res) => res.end();

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      answer(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const json =
    (body: string, status = 200) =>
    (res: ServerResponse) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);

  it('asks for JSON at <base>/<adapter>/<what>?connection=<id>', async () => {
    answer = json('{"records":[]}');
    const c = connection();
    expect(await gateway(base).records(c)).toEqual({ ok: true, records: [] });
    expect(seen.at(-1)?.url).toBe(`/ledgerly/records?connection=${c.id}`);
    expect(seen.at(-1)?.headers.accept).toBe('application/json');
  });

  it.each([
    ['a body that is not JSON', json('<html>provider text</html>')],
    ['a JSON null', json('null')],
    ['no records field', json('{"items":[]}')],
    ['records that are not a list', json('{"records":"INV-1"}')],
    ['records that are an object', json('{"records":{"length":1}}')],
  ])('%s is a malformed answer', async (_, respond) => {
    answer = respond;
    expect(await gateway(base).records(connection())).toEqual(MALFORMED);
  });

  it('a health answer that is not JSON is a malformed answer, without the text', async () => {
    answer = json('provider text that must not leak');
    expect(await gateway(base).probe(connection())).toEqual(MALFORMED);
  });

  it('a non-2xx answer without a body is its status', async () => {
    answer = (res) => res.writeHead(304).end();
    expect(await gateway(base).records(connection())).toEqual({ ok: false, reason: 'HTTP 304' });
  });

  it('a redirect is not followed: a network error, and the target is never asked', async () => {
    answer = (res) => res.writeHead(302, { location: `${base}/elsewhere` }).end();
    const before = seen.length;
    expect(await gateway(base).records(connection())).toEqual({ ok: false, reason: 'network error' });
    expect(seen.slice(before).map((s) => s.url.split('?')[0])).toEqual(['/ledgerly/records']);
  });

  it('a provider that does not answer in time is a timeout', async () => {
    answer = () => undefined;
    expect(await gateway(base, 150).probe(connection())).toEqual({ ok: false, reason: 'timeout' });
    expect(await gateway(base, 150).records(connection())).toEqual({ ok: false, reason: 'timeout' });
  });

  it('a refused connection is a network error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await gateway(`http://127.0.0.1:${port}`).records(connection())).toEqual({
      ok: false,
      reason: 'network error',
    });
  });
});
