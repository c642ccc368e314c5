import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import type { ProviderSettings } from '#functions/config';
import type { AccountingTarget, TargetDocument } from '#shared/domain/accounting/ports';
import type { Connection, ConnectionSecret } from '#shared/domain/integrations/ports';
import { sha256 } from '#shared/kernel/secrets';
import type { AccountingTargetName } from '#local/accounting-sandbox';
import { ProviderSandbox } from '#local/provider-sandbox';

/**
 * The accounting adapters' clients on the wire (functions/adapters/accounting-targets.ts): what
 * each call sends to the loopback sandbox's Ledgerly and Tallybook, and how each answer becomes a
 * document's result. The worker's guarantees over these clients are in accounting-export.test.ts;
 * here the request a real system would read, and the answers the sandbox cannot give (a
 * Retry-After date, a batch with failed items) injected as the only fetch answer of their call.
 */

let sandbox: ProviderSandbox;
let settings: ProviderSettings;
/** Every request the clients made, as fetch received it. */
let sent: { url: string; init: RequestInit }[];
/** Answers for the next requests whose URL contains the key, instead of the sandbox's. */
let injected: { path: string; answer: () => Response }[];

const realFetch = globalThis.fetch;

beforeEach(async () => {
  // A sandbox per test: its per-minute limit counts every call, and each test reads its own log.
  sandbox = new ProviderSandbox();
  const url = await sandbox.listen();
  settings = {
    telegramApiUrl: `${url}/telegram`,
    accountingApiUrls: { ledgerly: `${url}/ledgerly`, tallybook: `${url}/tallybook` },
    // Generous: a loaded machine must not turn a slow loopback answer into a timeout.
    timeoutMs: 5000,
  };
  sent = [];
  injected = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = String(input);
    sent.push({ url, init: init ?? {} });
    const i = injected.findIndex((a) => url.includes(a.path));
    if (i >= 0) return Promise.resolve(injected.splice(i, 1)[0]!.answer());
    return realFetch(input, init);
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await sandbox.stop();
});

const LEDGERLY_CONFIG = {
  organisation_id: '6f1c2a44-8a3e-4b1f-9a57-2f0e4c1d9b10',
  sales_account_code: '200',
};
const LEDGERLY_SECRET = { client_id: 'client-id-0123456789', client_secret: 'client-secret-0123456789' };
const TALLYBOOK_SECRET = { api_key: 'tb-key-0123456789' };

const connection = (adapter_key: string, config: Record<string, unknown> = {}): Connection => ({
  id: 'c-1',
  tenant_id: 't-1',
  adapter_key,
  category: 'accounting',
  name: adapter_key,
  status: 'active',
  scopes: [],
  config,
  mapping: {},
  secret_configured: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

const open = (target: AccountingTargetName, config: Record<string, unknown>, secret: ConnectionSecret) =>
  accountingTargets(settings).open(connection(target, config), secret)!;

const doc = (index: number, number: string, fields: Record<string, unknown> = {}): TargetDocument => ({
  index,
  idempotency_key: `key-${number}`,
  document: { number, amount: '120.00', currency: 'EUR', ...fields },
});

const headersOf = (init: RequestInit) => init.headers as Record<string, string>;
const bodyOf = (init: RequestInit) => JSON.parse(init.body as string) as unknown;
const bookedId = (target: AccountingTargetName, number: string) =>
  sandbox.accounting.booked.find((b) => b.target === target && b.number === number)!.id;
const tokenCalls = () => sandbox.accounting.calls.filter((c) => c.path === '/oauth/token').length;
const failedAnswer = (status: number, retryAfter: string) => () =>
  new Response('{}', { status, headers: { 'retry-after': retryAfter } });

describe('open: a client per adapter the service speaks to', () => {
  it('a client for Ledgerly (no lookup) and Tallybook (with lookup); none without a secret or for another adapter', () => {
    const targets = accountingTargets(settings);
    const ledgerly = targets.open(connection('ledgerly'), LEDGERLY_SECRET);
    const tallybook = targets.open(connection('tallybook'), TALLYBOOK_SECRET);
    expect(ledgerly).toBeDefined();
    expect(ledgerly!.lookup).toBeUndefined();
    expect(tallybook!.lookup).toBeTypeOf('function');
    expect(targets.open(connection('ledgerly'), undefined)).toBeUndefined();
    expect(targets.open(connection('tallybook'), undefined)).toBeUndefined();
    expect(targets.open(connection('telegram'), { bot_token: 'x' })).toBeUndefined();
  });
});

describe('Ledgerly', () => {
  it('books a document: a client-credentials token, then one POST with the bearer token, the organisation and its own key', async () => {
    const d = doc(3, 'INV-1', {
      document_type: 'invoice',
      counterparty: 'Acme',
      issued_on: '2026-11-01',
      due_on: '2026-12-01',
    });
    const results = await open('ledgerly', LEDGERLY_CONFIG, LEDGERLY_SECRET).book([d]);
    expect(results).toStrictEqual([{ index: 3, ok: true, external_id: bookedId('ledgerly', 'INV-1') }]);

    expect(sent.map((s) => [s.url, s.init.method])).toEqual([
      [`${sandbox.url}/ledgerly/oauth/token`, 'POST'],
      [`${sandbox.url}/ledgerly/api/v2/invoices`, 'POST'],
    ]);
    const [token, booking] = sent;
    expect(headersOf(token!.init)).toEqual({ 'content-type': 'application/x-www-form-urlencoded' });
    expect(String(token!.init.body)).toBe(
      'grant_type=client_credentials&client_id=client-id-0123456789&client_secret=client-secret-0123456789',
    );
    expect(headersOf(booking!.init)).toEqual({
      'content-type': 'application/json',
      authorization: expect.stringMatching(/^Bearer [0-9a-f-]{36}$/) as unknown,
      'ledgerly-organisation': LEDGERLY_CONFIG.organisation_id,
      'idempotency-key': 'key-INV-1',
    });
    expect(bodyOf(booking!.init)).toEqual({
      Items: [
        {
          IdempotencyKey: 'key-INV-1',
          InvoiceNumber: 'INV-1',
          Contact: { Name: 'Acme' },
          Date: '2026-11-01',
          DueDate: '2026-12-01',
          CurrencyCode: 'EUR',
          Total: '120.00',
          AccountCode: '200',
        },
      ],
    });
    // Never follows a redirect (a credential must not go elsewhere) and never waits unbounded.
    for (const { init } of sent) {
      expect(init.redirect).toBe('error');
      expect(init.signal).toBeInstanceOf(AbortSignal);
    }
  });

  it('a batch is one call under a key derived from its documents; a credit note goes to credit-notes', async () => {
    const docs = [
      doc(0, 'CN-1', { document_type: 'credit_note', counterparty: null }),
      doc(1, 'CN-2', { document_type: 'credit_note' }),
    ];
    const results = await open('ledgerly', {}, LEDGERLY_SECRET).book(docs);
    expect(results).toStrictEqual([
      { index: 0, ok: true, external_id: bookedId('ledgerly', 'CN-1') },
      { index: 1, ok: true, external_id: bookedId('ledgerly', 'CN-2') },
    ]);
    expect(sandbox.accounting.booked.map((b) => [b.number, b.type, b.key])).toEqual([
      ['CN-1', 'credit_note', 'key-CN-1'],
      ['CN-2', 'credit_note', 'key-CN-2'],
    ]);
    const booking = sent[1]!;
    expect(booking.url).toBe(`${sandbox.url}/ledgerly/api/v2/credit-notes`);
    expect(headersOf(booking.init)['idempotency-key']).toBe(`ops-${sha256('key-CN-1,key-CN-2')}`);
    expect(headersOf(booking.init)['ledgerly-organisation']).toBe('');
    // What the document does not have is left out, not sent as "null" or "undefined".
    expect((bodyOf(booking.init) as { Items: unknown[] }).Items[0]).toStrictEqual({
      IdempotencyKey: 'key-CN-1',
      InvoiceNumber: 'CN-1',
      Contact: {},
      CurrencyCode: 'EUR',
      Total: '120.00',
    });
  });

  it('one token per client: the next call reuses it; a document without a type is an invoice', async () => {
    const target = open('ledgerly', LEDGERLY_CONFIG, LEDGERLY_SECRET);
    await target.book([doc(0, 'INV-2', { document_type: 'invoice' })]);
    const results = await target.book([doc(0, 'INV-3')]);
    expect(results).toStrictEqual([{ index: 0, ok: true, external_id: bookedId('ledgerly', 'INV-3') }]);
    expect(tokenCalls()).toBe(1);
    expect(sent.map((s) => s.url.slice(sandbox.url.length))).toEqual([
      '/ledgerly/oauth/token',
      '/ledgerly/api/v2/invoices',
      '/ledgerly/api/v2/invoices',
    ]);
  });

  it('a refused token fails every document with auth_failed, books nothing, and is asked for again next call', async () => {
    const target = open('ledgerly', LEDGERLY_CONFIG, {});
    const docs = [doc(4, 'INV-4'), doc(5, 'INV-5')];
    const failed = [
      { index: 4, ok: false, error: 'auth_failed' },
      { index: 5, ok: false, error: 'auth_failed' },
    ];
    expect(await target.book(docs)).toStrictEqual(failed);
    expect(String(sent[0]!.init.body)).toBe('grant_type=client_credentials&client_id=&client_secret=');
    expect(await target.book(docs)).toStrictEqual(failed);
    expect(tokenCalls()).toBe(2);
    expect(sandbox.accounting.booked).toEqual([]);
  });

  it('a failed call fails each document with the error of its status and the Retry-After in seconds', async () => {
    const target = open('ledgerly', LEDGERLY_CONFIG, LEDGERLY_SECRET);
    const docs = [doc(0, 'INV-6'), doc(1, 'INV-7')];
    sandbox.accounting.script('ledgerly', [{ status: 429, retryAfter: 7 }, { status: 503 }, { status: 422 }]);
    expect(await target.book(docs)).toStrictEqual([
      { index: 0, ok: false, error: 'rate_limited', retry_after_seconds: 7 },
      { index: 1, ok: false, error: 'rate_limited', retry_after_seconds: 7 },
    ]);
    expect(await target.book(docs)).toStrictEqual([
      { index: 0, ok: false, error: 'target_unavailable' },
      { index: 1, ok: false, error: 'target_unavailable' },
    ]);
    expect(await target.book(docs.slice(1))).toStrictEqual([
      { index: 1, ok: false, error: 'validation_rejected' },
    ]);
    expect(sandbox.accounting.booked).toEqual([]);
  });

  it("a batch's answer decides per document: a failed item by its code; one without an id, without an error code or left out is target_unavailable", async () => {
    const docs = ['A', 'B', 'C', 'D', 'E', 'F'].map((n, i) => doc(i, `INV-${n}`));
    injected.push({
      path: '/api/v2/invoices',
      answer: () =>
        Response.json({
          Items: [
            { IdempotencyKey: 'key-INV-A', Status: 'OK', Id: 'L-1' },
            { IdempotencyKey: 'key-INV-B', Status: 'Error', Error: 422, Id: 'L-2' },
            { IdempotencyKey: 'key-INV-C', Status: 'OK' },
            { IdempotencyKey: 'key-INV-D', Status: 'Error', Error: 401 },
            { IdempotencyKey: 'key-INV-F', Status: 'Pending', Error: 202 },
          ],
        }),
    });
    expect(await open('ledgerly', LEDGERLY_CONFIG, LEDGERLY_SECRET).book(docs)).toStrictEqual([
      { index: 0, ok: true, external_id: 'L-1' },
      { index: 1, ok: false, error: 'validation_rejected' },
      { index: 2, ok: false, error: 'target_unavailable' },
      { index: 3, ok: false, error: 'auth_failed' },
      { index: 4, ok: false, error: 'target_unavailable' },
      { index: 5, ok: false, error: 'target_unavailable' },
    ]);
    injected.push({ path: '/api/v2/invoices', answer: () => Response.json({}) });
    expect(await open('ledgerly', LEDGERLY_CONFIG, LEDGERLY_SECRET).book([doc(7, 'INV-F')])).toStrictEqual([
      { index: 7, ok: false, error: 'target_unavailable' },
    ]);
  });

  it('a call with no answer fails within the provider timeout (the worker classifies it as timeout)', async () => {
    sandbox.accounting.script('ledgerly', [{ hang: true }]);
    const target = accountingTargets({ ...settings, timeoutMs: 1500 }).open(
      connection('ledgerly', LEDGERLY_CONFIG),
      LEDGERLY_SECRET,
    )!;
    const started = Date.now();
    const err = await target.book([doc(0, 'INV-8')]).catch((e: unknown) => e);
    expect((err as Error).name).toBe('TimeoutError');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('Tallybook', () => {
  const target = (
    config: Record<string, unknown> = { company_id: '104 522/b' },
    secret: ConnectionSecret = TALLYBOOK_SECRET,
  ) => open('tallybook', config, secret) as Required<AccountingTarget>;

  it("books one document under the company's path with the API key, and answers its id", async () => {
    const results = await target().book([
      doc(2, 'INV-1', { document_type: 'invoice', counterparty: 'Acme', issued_on: '2026-11-01' }),
    ]);
    expect(results).toStrictEqual([{ index: 2, ok: true, external_id: bookedId('tallybook', 'INV-1') }]);
    const [call] = sent;
    expect(sent).toHaveLength(1);
    expect(call!.url).toBe(`${sandbox.url}/tallybook/v1/companies/104%20522%2Fb/invoices`);
    expect(call!.init.method).toBe('POST');
    expect(headersOf(call!.init)).toEqual({
      'x-api-key': 'tb-key-0123456789',
      'content-type': 'application/json',
    });
    expect(bodyOf(call!.init)).toEqual({
      doc_no: 'INV-1',
      party_name: 'Acme',
      gross_total: '120.00',
      ccy: 'EUR',
      doc_date: '2026-11-01',
    });
    expect(call!.init.redirect).toBe('error');
    expect(call!.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('lookup finds a booked document by number and type, null when there is none', async () => {
    const t = target();
    await t.book([doc(0, 'INV 9', { document_type: 'credit_note' })]);
    await t.book([doc(0, 'INV-10')]);
    expect(sandbox.accounting.booked.map((b) => [b.number, b.type])).toEqual([
      ['INV 9', 'credit_note'],
      ['INV-10', 'invoice'],
    ]);
    expect(await t.lookup(doc(0, 'INV 9', { document_type: 'credit_note' }))).toBe(
      bookedId('tallybook', 'INV 9'),
    );
    expect(await t.lookup(doc(0, 'INV-10'))).toBe(bookedId('tallybook', 'INV-10'));
    expect(await t.lookup(doc(0, 'INV 9', { document_type: 'invoice' }))).toBeNull();
    expect(await t.lookup(doc(0, 'INV-11'))).toBeNull();
    const lookup = sent[2]!;
    expect(lookup.url).toBe(
      `${sandbox.url}/tallybook/v1/companies/104%20522%2Fb/documents?number=INV%209&type=credit_note`,
    );
    expect(lookup.init.method).toBeUndefined();
    expect(headersOf(lookup.init)).toEqual({ 'x-api-key': 'tb-key-0123456789' });
    expect(lookup.init.redirect).toBe('error');
    expect(lookup.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('a failed create or lookup answers the error of its status; a missing API key is auth_failed', async () => {
    sandbox.accounting.script('tallybook', [{ status: 422 }, { status: 503, retryAfter: 5 }]);
    expect(await target().book([doc(1, 'INV-12')])).toStrictEqual([
      { index: 1, ok: false, error: 'validation_rejected' },
    ]);
    expect(await target().lookup(doc(1, 'INV-12'))).toStrictEqual({ error: 'target_unavailable' });
    expect(await target({}, {}).book([doc(1, 'INV-12')])).toStrictEqual([
      { index: 1, ok: false, error: 'auth_failed' },
    ]);
    expect(await target({}, {}).lookup(doc(1, 'INV-12'))).toStrictEqual({ error: 'auth_failed' });
    expect(sent.at(-1)!.url).toBe(
      `${sandbox.url}/tallybook/v1/companies//documents?number=INV-12&type=invoice`,
    );
    expect(sandbox.accounting.booked).toEqual([]);
  });

  it('reads Retry-After as seconds or as an HTTP date; never negative, and absent when unreadable', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    const before = Date.now();
    injected.push(
      { path: '/invoices', answer: failedAnswer(429, inAMinute) },
      { path: '/invoices', answer: failedAnswer(429, new Date(Date.now() - 60_000).toUTCString()) },
      { path: '/invoices', answer: failedAnswer(503, '-3') },
      { path: '/invoices', answer: failedAnswer(503, 'soon') },
    );
    const [dated] = (await target().book([doc(0, 'INV-13')])) as { retry_after_seconds?: number }[];
    const expected = Math.ceil((Date.parse(inAMinute) - before) / 1000);
    expect(dated!.retry_after_seconds).toBeGreaterThanOrEqual(expected - 5);
    expect(dated!.retry_after_seconds).toBeLessThanOrEqual(expected);
    expect(await target().book([doc(0, 'INV-13')])).toStrictEqual([
      { index: 0, ok: false, error: 'rate_limited', retry_after_seconds: 0 },
    ]);
    expect(await target().book([doc(0, 'INV-13')])).toStrictEqual([
      { index: 0, ok: false, error: 'target_unavailable', retry_after_seconds: 0 },
    ]);
    expect(await target().book([doc(0, 'INV-13')])).toStrictEqual([
      { index: 0, ok: false, error: 'target_unavailable' },
    ]);
  });
});
