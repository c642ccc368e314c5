import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { notificationStore } from '#functions/adapters/notification-store';
import { APP_SECRETS_TENANT, oauthProvider } from '#functions/adapters/oauth-provider';
import { refreshClaims } from '#functions/adapters/oauth-store';
import { quickbooksTarget } from '#functions/adapters/quickbooks-target';
import { xeroTarget } from '#functions/adapters/xero-target';
import type { OAuthSettings } from '#functions/config';
import { type ExportRunDeps, runExport } from '#shared/domain/accounting/export-run';
import { documentIdempotencyKey } from '#shared/domain/accounting/export-send';
import type { AccountingExport } from '#shared/domain/accounting/ports';
import { createExport } from '#shared/domain/accounting/use-cases';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { Connection } from '#shared/domain/integrations/ports';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { accessToken, type TokenDeps } from '#shared/domain/oauth/tokens';
import type { Clock } from '#shared/kernel/ids';
import { QBO_MINOR_VERSION } from '#shared/domain/integrations/adapters/booking-rules';
import type { Booked } from '#local/oauth-book';
import { xeroTotals } from '#local/oauth-apis-xero-writes';
import { type OAuthProviderName, SANDBOX_APPS, SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import type { ProviderSandbox } from '#local/provider-sandbox';
import { principal } from '#tests/support/fixtures';
import { accountingConnection, type OAuthWorld, oauthWorld, storeConsentedPair } from '#tests/support/oauth';

/**
 * Each document type booked as itself at Xero and QuickBooks Online (the sandbox answers in their
 * documented shapes), on DynamoDB Local with a clock the test moves: an invoice as an invoice, a
 * credit note as a credit note set against its invoice, a payment as a payment linked to its
 * invoice; the amounts as sent (Xero's total, tax included, equals the document's amount); a
 * redelivered export or a lost answer books nothing twice; a payment before its invoice waits for
 * it, then goes to review naming the invoice; a QuickBooks number is refused whole, never cut; and
 * the provider's own words reach the export's attempt and its review item.
 */

let db: Db;
let sandbox: ProviderSandbox;
let settings: OAuthSettings;
let secrets: OAuthWorld['secrets'];
let world: OAuthWorld;
let at = Date.now();
const clock: Clock = { now: () => new Date(at) };
const MAX_ATTEMPTS = 3;

const tokens = (): TokenDeps => ({
  secrets,
  claims: refreshClaims(db),
  provider: oauthProvider(settings, secrets),
  clock,
  wait: async () => {},
  revoked: async () => {},
});
const tokenFor = (c: Connection, stale?: string) => accessToken(tokens(), c, stale);

const worker = (): ExportRunDeps => ({
  exports: accountingStore(db),
  connections: activeConnectionReader(connectionStore(db), secrets),
  results: connectionResults(db),
  targets: accountingTargets(
    { telegramApiUrl: '', accountingApiUrls: { ledgerly: '', tallybook: '' }, timeoutMs: 5000 },
    { settings, token: tokenFor },
  ),
  clock,
  wait: async (ms) => {
    at += ms;
  },
  maxAttempts: MAX_ATTEMPTS,
  backoff: DELIVERY_BACKOFF,
  leaseSeconds: 60,
  queueSecondMs: 1000,
});

const CONFIG: Record<OAuthProviderName, Record<string, unknown>> = {
  xero: {
    sales_account_code: '200',
    payment_account_code: '090',
    tax_type: 'OUTPUT2',
    organisation_id: SANDBOX_ORGANISATIONS.xero.tenantId,
  },
  quickbooks_online: {
    customer_id: '58',
    item_id: '1',
    realm_id: SANDBOX_ORGANISATIONS.quickbooks_online.realmId,
  },
};

async function connected(provider: OAuthProviderName, config = CONFIG[provider]): Promise<Connection> {
  const c = await accountingConnection(db, clock, {
    adapter_key: provider,
    name: provider,
    scopes: provider === 'xero' ? ['accounting.transactions'] : ['com.intuit.quickbooks.accounting'],
    config,
  });
  await storeConsentedPair(world, c, (s) => new Date(at + s * 1000));
  return c;
}

type Doc = Record<string, unknown> & { number: string; amount: string; currency: string };
const n = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const invoice = (number = n('INV'), amount = '120.00'): Doc => ({
  document_type: 'invoice',
  number,
  amount,
  currency: 'EUR',
  counterparty: 'Acme',
  issued_on: '2026-11-02',
});
const applied = (type: 'payment' | 'credit_note', invoiceNumber: string, amount: string): Doc => ({
  ...invoice(n(type === 'payment' ? 'PAY' : 'CN'), amount),
  document_type: type,
  invoice_number: invoiceNumber,
});

const exportOf = async (c: Connection, documents: Doc[]) =>
  (
    await createExport(
      { exports: accountingStore(db), documents: documentStore(db), connections: connectionStore(db), clock },
      principal('acct-1'),
      c.tenant_id,
      {
        export_batch_id: `B-${randomUUID()}`,
        integration_connection_id: c.id,
        documents,
      } as Parameters<typeof createExport>[3],
    )
  ).export;

const booked = (provider: OAuthProviderName, type: Booked['type'], number: string) =>
  sandbox.oauth.apis.booked.filter((b) => b.provider === provider && b.type === type && b.number === number);
const only = (provider: OAuthProviderName, type: Booked['type'], number: string) => {
  const found = booked(provider, type, number);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const creates = (provider: OAuthProviderName) =>
  sandbox.oauth.apis.calls.filter((x) => x.provider === provider && x.method !== 'GET');

beforeAll(async () => {
  world = await oauthWorld('xero');
  ({ db, sandbox, settings, secrets } = world);
  // Both providers in one world: QuickBooks' app beside Xero's.
  settings.clientIds = { ...settings.clientIds, quickbooks_online: SANDBOX_APPS.quickbooks_online.client_id };
  await secrets.put(APP_SECRETS_TENANT, 'quickbooks_online', {
    client_secret: SANDBOX_APPS.quickbooks_online.client_secret,
  });
});

afterAll(async () => {
  await sandbox?.stop();
});

describe.each(['xero', 'quickbooks_online'] as const)(
  '%s: each document type booked as itself',
  (provider) => {
    it('an invoice, a credit note set against it and a payment linked to it, each its own kind with its amount; the invoice first whatever the order', async () => {
      const c = await connected(provider);
      const inv = invoice(undefined, '120.00');
      const pay = applied('payment', inv.number, '50.00');
      const credit = applied('credit_note', inv.number, '20.00');
      // The payment and the credit note come first: the run books the invoice before them.
      const e = await exportOf(c, [pay, credit, inv]);
      const out = await runExport(worker(), e.id, c.tenant_id, 1);
      expect(out).toMatchObject({ action: 'ack', result: 'exported' });

      const i = only(provider, 'invoice', inv.number);
      const cn = only(provider, 'credit_note', credit.number);
      const p = only(provider, 'payment', pay.number);
      expect([i.amount, cn.amount, p.amount]).toEqual([120, 20, 50]);
      // Linked as the provider links them: Xero's Payment.Invoice.InvoiceID and the credit note's
      // allocation; QuickBooks' Payment Line[].LinkedTxn and the credit memo applied to the invoice.
      expect([cn.invoice_id, p.invoice_id]).toEqual([i.id, i.id]);
      expect(i.due).toBe(50);
      expect(out.export!.items.map((x) => x.external_id)).toEqual([p.id, cn.id, i.id]);
      if (provider === 'quickbooks_online') {
        expect(p.lines).toEqual([{ Amount: 50, LinkedTxn: [{ TxnId: i.id, TxnType: 'Invoice' }] }]);
        // The credit memo's application: a payment of nothing linking the invoice and the memo.
        const application = sandbox.oauth.apis.booked.find(
          (b) => b.type === 'payment' && b.lines?.some((l) => l.LinkedTxn[0]!.TxnId === cn.id),
        )!;
        expect(application).toMatchObject({ amount: 0, invoice_id: i.id });
        expect(application.lines!.map((l) => l.LinkedTxn[0]!.TxnType)).toEqual(['Invoice', 'CreditMemo']);
        // Every QuickBooks call pins the minor version, as Intuit's SDKs do.
        const qbo = sandbox.oauth.apis.calls.filter((x) => x.provider === 'quickbooks_online');
        expect(new Set(qbo.map((x) => x.minorversion))).toEqual(new Set([QBO_MINOR_VERSION]));
      }
    });

    it('a redelivered export, and a run after a lost answer, book nothing twice', async () => {
      const c = await connected(provider);
      const inv = invoice();
      const docs = [
        inv,
        applied('credit_note', inv.number, '20.00'),
        applied('payment', inv.number, '30.00'),
      ];
      const e = await exportOf(c, docs);
      // An earlier run booked all three, but their answers were lost: their claims stay `sending`,
      // their lease over.
      const past = new Date(at - 120_000).toISOString();
      const target = (provider === 'xero' ? xeroTarget : quickbooksTarget)(settings, tokenFor, c);
      for (const index of [0, 1, 2]) {
        const key = documentIdempotencyKey(e, e.items[index]!);
        await accountingStore(db).claimBooking(
          c.tenant_id,
          e.id,
          { index, state: 'sending', idempotency_key: key, claimed_at: past, lease_until: past },
          past,
        );
        expect(await target.book([{ index, idempotency_key: key, document: docs[index]! }])).toMatchObject([
          { ok: true },
        ]);
      }
      // The next run resolves each: by its key (Xero; QuickBooks' requestid) or by the invoice's
      // DocNumber (QuickBooks), and records what the provider had booked.
      const out = await runExport(worker(), e.id, c.tenant_id, 1);
      expect(out).toMatchObject({ action: 'ack', result: 'exported' });
      expect(out.export!.items.map((x) => x.external_id)).toEqual([
        only(provider, 'invoice', inv.number).id,
        only(provider, 'credit_note', docs[1]!.number).id,
        only(provider, 'payment', docs[2]!.number).id,
      ]);
      expect(only(provider, 'invoice', inv.number).due).toBe(70);

      // The same message again, after the export ended: nothing is sent.
      const before = sandbox.oauth.apis.calls.length;
      expect(await runExport(worker(), e.id, c.tenant_id, 2)).toMatchObject({
        action: 'ack',
        result: 'duplicate',
      });
      expect(sandbox.oauth.apis.calls.length).toBe(before);
    });

    it('a payment before its invoice waits for it (retried), then is booked once linked to it', async () => {
      const c = await connected(provider);
      const inv = invoice();
      const pay = applied('payment', inv.number, '120.00');
      const e = await exportOf(c, [pay]);
      const first = await runExport(worker(), e.id, c.tenant_id, 1);
      expect(first).toMatchObject({ action: 'retry', result: 'retrying', reason: 'invoice_not_booked' });
      const provName = provider === 'xero' ? 'Xero' : 'QuickBooks';
      expect(first.export!.items[0]).toMatchObject({
        status: 'pending',
        error_code: 'invoice_not_booked',
        error_message: `invoice ${inv.number} is not booked in ${provName} yet: the document waits for it`,
      });
      expect(first.export!.attempts[0]).toMatchObject({ error_code: 'invoice_not_booked' });
      expect(booked(provider, 'payment', pay.number)).toHaveLength(0);

      // The invoice arrives by its own export; the payment's retry finds it.
      expect(await runExport(worker(), (await exportOf(c, [inv])).id, c.tenant_id, 1)).toMatchObject({
        result: 'exported',
      });
      at += 3600_000;
      expect(await runExport(worker(), e.id, c.tenant_id, 2)).toMatchObject({ result: 'exported' });
      expect(only(provider, 'payment', pay.number).invoice_id).toBe(only(provider, 'invoice', inv.number).id);
    });

    it('a credit note that names no invoice is booked on its own; a payment that names none is refused, saying why', async () => {
      const c = await connected(provider);
      const credit = { ...applied('credit_note', '', '15.00'), invoice_number: undefined };
      const pay = { ...applied('payment', '', '15.00'), invoice_number: undefined };
      const out = await runExport(worker(), (await exportOf(c, [credit, pay])).id, c.tenant_id, 1);
      expect(out.export!.items.map((i) => [i.status, i.error_code, i.error_message])).toEqual([
        ['exported', null, null],
        [
          'failed',
          'validation_rejected',
          'a payment is booked against its invoice: the document names none (applies_to)',
        ],
      ]);
      expect(only(provider, 'credit_note', credit.number)).toMatchObject({ amount: 15 });
      expect(only(provider, 'credit_note', credit.number).invoice_id).toBeUndefined();
      expect(booked(provider, 'payment', pay.number)).toHaveLength(0);
    });

    it('a payment whose invoice never comes: the last attempt fails it with a review item naming the invoice', async () => {
      const c = await connected(provider);
      const missing = n('INV');
      const e = await exportOf(c, [applied('payment', missing, '10.00')]);
      const out = await runExport(worker(), e.id, c.tenant_id, MAX_ATTEMPTS);
      expect(out).toMatchObject({ action: 'dead_letter', result: 'failed', reason: 'invoice_not_booked' });
      const review = await notificationStore(db).getReviewItem(c.tenant_id, out.export!.review_item_id!);
      expect(review!.detail).toContain(`invoice ${missing} is not booked`);
    });
  },
);

describe('Xero: totals that agree, and its words', () => {
  it("the booked total equals the document's amount: tax inside it (Inclusive, config.tax_type), never added on top", async () => {
    const c = await connected('xero');
    const inv = invoice(undefined, '115.00');
    const credit = applied('credit_note', inv.number, '23.00');
    const e = await exportOf(c, [inv, credit]);
    expect(await runExport(worker(), e.id, c.tenant_id, 1)).toMatchObject({ result: 'exported' });
    expect(only('xero', 'invoice', inv.number)).toMatchObject({ amount: 115, tax: 15 });
    expect(only('xero', 'credit_note', credit.number)).toMatchObject({ amount: 23, tax: 3 });
    // The sandbox totals as Xero does: the same line Exclusive would have booked 132.25.
    const line = [{ UnitAmount: 115, Quantity: 1, TaxType: 'OUTPUT2' }];
    expect(xeroTotals('Exclusive', line)).toMatchObject({ Total: 132.25 });
    // Without a tax type: NoTax, the amount as it is.
    const plain = await connected('xero', { ...CONFIG.xero, tax_type: undefined });
    const untaxed = invoice(undefined, '99.99');
    await runExport(worker(), (await exportOf(plain, [untaxed])).id, plain.tenant_id, 1);
    expect(only('xero', 'invoice', untaxed.number)).toMatchObject({ amount: 99.99, tax: 0 });
  });

  it("a ValidationException's messages reach the export's attempt, item and review item", async () => {
    const c = await connected('xero', { ...CONFIG.xero, tax_type: 'BOGUS' });
    const inv = invoice();
    const e = await exportOf(c, [inv]);
    const out = await runExport(worker(), e.id, c.tenant_id, 1);
    const words = "The TaxType code 'BOGUS' does not exist or cannot be used for this type of transaction.";
    expect(out).toMatchObject({ action: 'ack', result: 'failed', reason: 'validation_rejected' });
    expect(out.export!.items[0]).toMatchObject({ error_code: 'validation_rejected', error_message: words });
    expect(out.export!.attempts[0]).toMatchObject({
      error_code: 'validation_rejected',
      error_message: words,
    });
    const review = await notificationStore(db).getReviewItem(c.tenant_id, out.export!.review_item_id!);
    expect(review!.detail).toBe(`the target refused: validation_rejected (${words})`);
    // Never a token: the export's record carries none of the connection's secret.
    const secret = await secrets.read(c.tenant_id, c.id);
    expect(JSON.stringify(out.export)).not.toContain(secret!.access_token);
  });

  it('a payment without a payment account is refused, naming the config field', async () => {
    const c = await connected('xero', { ...CONFIG.xero, payment_account_code: undefined });
    const inv = invoice();
    const e = await exportOf(c, [inv, applied('payment', inv.number, '10.00')]);
    const out = await runExport(worker(), e.id, c.tenant_id, 1);
    expect(out.export!.items[1]).toMatchObject({
      status: 'failed',
      error_code: 'not_configured',
      error_message: expect.stringContaining('payment_account_code'),
    });
  });
});

describe('QuickBooks Online: DocNumber kept whole, and its words', () => {
  it('two numbers sharing their first 21 characters are refused, never cut into one; 21 characters are booked whole', async () => {
    const c = await connected('quickbooks_online');
    const stem = `INV-${randomUUID().replace(/-/g, '').slice(0, 17)}`; // 21 characters
    const e = await exportOf(c, [invoice(`${stem}A`), invoice(`${stem}B`), invoice(stem)]);
    const before = creates('quickbooks_online').length;
    const out: { export?: AccountingExport } = await runExport(worker(), e.id, c.tenant_id, 1);
    expect(out.export!.items.map((i) => [i.status, i.error_code])).toEqual([
      ['failed', 'validation_rejected'],
      ['failed', 'validation_rejected'],
      ['exported', null],
    ]);
    expect(out.export!.items[0]!.error_message).toBe(
      `QuickBooks Online keeps a document number to 21 characters; "${stem}A" has 22: give the document a shorter number`,
    );
    // One create only (the 21-character number, whole): the refused ones made no call.
    expect(creates('quickbooks_online').length - before).toBe(1);
    expect(booked('quickbooks_online', 'invoice', stem)).toHaveLength(1);
    expect(sandbox.oauth.apis.booked.filter((b) => b.number.startsWith(stem) && b.number !== stem)).toEqual(
      [],
    );
  });

  it("Intuit's Fault Message and Detail reach the export's attempt and review item", async () => {
    const c = await connected('quickbooks_online');
    const inv = invoice();
    await runExport(worker(), (await exportOf(c, [inv])).id, c.tenant_id, 1);
    const again = await exportOf(c, [inv]);
    const out = await runExport(worker(), again.id, c.tenant_id, 1);
    const id = only('quickbooks_online', 'invoice', inv.number).id;
    const words = `Duplicate Document Number Error: Duplicate Document Number Error : You must specify a different number. This number has already been used. DocNumber=${inv.number} is assigned to TxnType=Invoice with TxnId=${id}`;
    expect(out.export!.attempts[0]).toMatchObject({
      error_code: 'validation_rejected',
      error_message: words,
    });
    const review = await notificationStore(db).getReviewItem(c.tenant_id, out.export!.review_item_id!);
    expect(review!.detail).toBe(`the target refused: validation_rejected (${words})`);
  });
});
