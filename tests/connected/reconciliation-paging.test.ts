import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { refreshClaims } from '#functions/adapters/oauth-store';
import { APP_SECRETS_TENANT, oauthProvider } from '#functions/adapters/oauth-provider';
import { oauthRecords } from '#functions/adapters/oauth-records';
import { providerReader } from '#functions/adapters/provider-reader';
import { hubStore } from '#functions/adapters/hub-store';
import { connectionStore } from '#functions/adapters/connection-store';
import { reconciliationStore } from '#functions/adapters/reconciliation-store';
import { toOutboxEvent } from '#functions/adapters/outbox';
import { createStores } from '#functions/adapters/stores';
import type { BusinessDocument } from '#shared/domain/documents/ports';
import type { Connection } from '#shared/domain/integrations/ports';
import {
  ReconciliationWaits,
  type ReconciliationWorkerDeps,
  runReconciliation,
} from '#shared/domain/integrations/reconciliation';
import { QBO_MINOR_VERSION } from '#shared/domain/integrations/adapters/booking-rules';
import { reconciliationRequest } from '#shared/domain/integrations/reconciliation-requests';
import { accessToken } from '#shared/domain/oauth/tokens';
import type { OutboxEvent } from '#shared/domain/outbox';
import { EVENT_KINDS } from '#shared/kernel/names';
import { newId } from '#shared/kernel/ids';
import { document } from '#shared/table/entities/document';
import { PAGE_SIZES } from '#local/oauth-book';
import { XERO_LIMITS } from '#local/oauth-apis-xero';
import { type OAuthProviderName, SANDBOX_APPS, SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import type { ProviderSandbox } from '#local/provider-sandbox';
import { loadItems } from '#tests/support/db';
import { accountingConnection, type OAuthWorld, oauthWorld, storeConsentedPair } from '#tests/support/oauth';

/**
 * Reconciliation against the sandbox's Xero and QuickBooks Online on DynamoDB Local, with books
 * larger than one page (Xero pages by 100, QuickBooks by at most 1,000 rows): every page is read,
 * so nothing past the first page is reported missing; payments are matched by the invoice the
 * provider links them to, not by their optional reference; a run the provider's rate limit stops
 * resumes on a later firing after its last page instead of starting again.
 */

let world: OAuthWorld;
let db: Db;
let sandbox: ProviderSandbox;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  world = await oauthWorld('xero');
  ({ db, sandbox } = world);
  // Both providers' apps in the same world.
  world.settings = {
    ...world.settings,
    clientIds: {
      ...world.settings.clientIds,
      quickbooks_online: SANDBOX_APPS.quickbooks_online.client_id,
    },
  };
  await world.secrets.put(APP_SECRETS_TENANT, 'quickbooks_online', {
    client_secret: SANDBOX_APPS.quickbooks_online.client_secret,
  });
  sandbox.oauth.apis.now = () => clock.now().getTime();
});
afterAll(() => sandbox?.stop());

const tokenDeps = () => ({
  secrets: world.secrets,
  claims: refreshClaims(db),
  provider: oauthProvider(world.settings, world.secrets),
  clock,
  wait: async () => {},
  revoked: async () => {},
});

const deps = (): ReconciliationWorkerDeps => {
  const stores = createStores(db);
  return {
    runs: reconciliationStore(db),
    connections: connectionStore(db),
    clock,
    documents: stores.documents,
    exceptions: stores.exceptions,
    hub: hubStore(db),
    provider: providerReader(
      { providerUrl: undefined, timeoutMs: 5000, region: undefined, endpoints: {}, allowLoopback: false },
      (c, cursor) =>
        oauthRecords(world.settings, (conn, stale) => accessToken(tokenDeps(), conn, stale), c, cursor),
    ),
    maxAttempts: 3,
  };
};

async function connected(provider: OAuthProviderName): Promise<Connection> {
  const c = await accountingConnection(
    db,
    clock,
    provider === 'xero'
      ? {
          adapter_key: 'xero',
          name: 'Xero books',
          scopes: ['accounting.transactions'],
          config: { sales_account_code: '200', organisation_id: SANDBOX_ORGANISATIONS.xero.tenantId },
        }
      : {
          adapter_key: 'quickbooks_online',
          name: 'QuickBooks',
          scopes: ['com.intuit.quickbooks.accounting'],
          config: {
            customer_id: '58',
            item_id: '1',
            realm_id: SANDBOX_ORGANISATIONS.quickbooks_online.realmId,
          },
        },
  );
  await storeConsentedPair(world, c, (s) => new Date(clock.now().getTime() + s * 1000));
  return c;
}

const localDocument = (
  tenantId: string,
  fields: Pick<BusinessDocument, 'document_type' | 'number' | 'amount'> & Partial<BusinessDocument>,
): BusinessDocument => {
  const now = clock.now().toISOString();
  return {
    id: newId(),
    tenant_id: tenantId,
    counterparty: 'Globex Ltd',
    currency: 'EUR',
    issued_on: '2026-01-31',
    due_on: null,
    external_refs: {},
    lines: [],
    applies_to: null,
    status: 'open',
    created_at: now,
    updated_at: now,
    ...fields,
  };
};

/**
 * A book of `invoices` invoices held alike by the tenant and the provider, and `payments` of them
 * paid in both, the provider's payments carrying no reference (Xero's example leaves it empty).
 */
async function book(c: Connection, invoices: number, payments: number) {
  const tag = randomUUID().slice(0, 6);
  const docs = Array.from({ length: invoices }, (_, i) =>
    localDocument(c.tenant_id, {
      document_type: 'invoice',
      number: `INV-${tag}-${i}`,
      amount: `${100 + i}.00`,
    }),
  );
  const ids = sandbox.oauth.apis.seedInvoices(
    c.adapter_key as OAuthProviderName,
    docs.map((d) => ({ number: d.number, amount: Number(d.amount), currency: 'EUR' })),
  );
  const paid = docs.slice(0, payments).map((invoice, i) => {
    sandbox.oauth.apis.seedPayment({
      provider: c.adapter_key as OAuthProviderName,
      invoice_id: ids[i]!,
      amount: Number(invoice.amount),
      currency: 'EUR',
    });
    return localDocument(c.tenant_id, {
      document_type: 'payment',
      number: `PAY-${tag}-${i}`,
      amount: invoice.amount,
      applies_to: invoice.id,
    });
  });
  await loadItems(
    db,
    [...docs, ...paid].map((d) => document.item(d)),
  );
  return { docs, ids, paid };
}

const request = async (c: Connection) => {
  const r = reconciliationRequest(clock, c, 'payment_reconciliation', null, newId());
  await reconciliationStore(db).create(r.run, r.audit, r.outbox);
  return r;
};

/** The continuations a run queued, as the outbox holds them. */
const continuations = async (tenantId: string, runId: string): Promise<OutboxEvent[]> => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await db.doc.send(
      new ScanCommand({
        TableName: db.tableName,
        FilterExpression: 'tenant_id = :t AND kind = :k',
        ExpressionAttributeValues: { ':t': tenantId, ':k': EVENT_KINDS.reconciliationRunRequested },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items.map(toOutboxEvent).filter((e) => e.payload.run_id === runId && e.payload.not_before);
};

/** The sandbox's organisation holds only what the next test puts there (each test's own book). */
const emptyBooks = (provider: OAuthProviderName) => {
  const { apis } = sandbox.oauth;
  for (const list of [apis.booked, apis.calls] as { provider: string }[][]) {
    const kept = list.filter((x) => x.provider !== provider);
    list.splice(0, list.length, ...kept);
  }
};

const apiCalls = (provider: OAuthProviderName, path: string) =>
  sandbox.oauth.apis.calls.filter((x) => x.provider === provider && x.path.endsWith(path));

describe('reconciliation reads every page of the provider', () => {
  it('Xero: 260 invoices (3 pages of 100) and 150 payments (2 pages), none reported missing', async () => {
    const c = await connected('xero');
    const { paid } = await book(c, 260, 150);
    // A payment whose Reference names another invoice's payment: matched by its link, not by it.
    sandbox.oauth.apis.booked.filter((b) => b.type === 'payment').at(-1)!.number = paid[0]!.number;
    const invoicesBefore = apiCalls('xero', '/Invoices').length;
    const { run, outbox } = await request(c);
    const done = await runReconciliation(deps(), outbox, 1);
    expect(done).toMatchObject({
      status: 'completed',
      matched: 410,
      mismatched: 0,
      missing_in_provider: 0,
      missing_locally: 0,
      exception_ids: [],
    });
    expect(apiCalls('xero', '/Invoices').length - invoicesBefore).toBe(3);
    expect((await reconciliationStore(db).pages(c.tenant_id, run.id)).map((p) => p.next)).toEqual([
      'Invoices:2',
      'Invoices:3',
      'Payments:1',
      'Payments:2',
      null,
    ]);
  });

  it(`QuickBooks: 1,005 invoices (pages of ${PAGE_SIZES.quickbooks_max} by STARTPOSITION) and 40 payments linked by LinkedTxn`, async () => {
    const c = await connected('quickbooks_online');
    await book(c, 1005, 40);
    const queriesBefore = apiCalls('quickbooks_online', '/query').length;
    const { outbox } = await request(c);
    const done = await runReconciliation(deps(), outbox, 1);
    expect(done).toMatchObject({
      status: 'completed',
      matched: 1045,
      mismatched: 0,
      missing_in_provider: 0,
      missing_locally: 0,
      exception_ids: [],
    });
    // Invoice at 1 and 1001, Payment at 1; each pins the minor version, as the export's calls do.
    const queries = apiCalls('quickbooks_online', '/query').slice(queriesBefore);
    expect(queries.length).toBe(3);
    expect(new Set(queries.map((q) => q.minorversion))).toEqual(new Set([QBO_MINOR_VERSION]));
    // About 5 s alone; loading 1,045 documents into DynamoDB Local is most of it, and slower on a busy machine.
  }, 90_000);

  it("QuickBooks: a credit memo's application (a payment of nothing linking the invoice and the memo) is no payment", async () => {
    emptyBooks('quickbooks_online');
    const c = await connected('quickbooks_online');
    const { ids } = await book(c, 2, 1);
    // What the export books to apply a credit note: Intuit's zero-amount Payment with two lines.
    sandbox.oauth.apis.booked.push({
      provider: 'quickbooks_online',
      type: 'payment',
      id: String(100 + sandbox.oauth.apis.booked.length),
      number: '',
      amount: 0,
      tax: 0,
      currency: 'EUR',
      key: undefined,
      invoice_id: ids[1]!,
      lines: [
        { Amount: 10, LinkedTxn: [{ TxnId: ids[1]!, TxnType: 'Invoice' }] },
        { Amount: 10, LinkedTxn: [{ TxnId: 'memo-1', TxnType: 'CreditMemo' }] },
      ],
    });
    const { outbox } = await request(c);
    const done = await runReconciliation(deps(), outbox, 1);
    expect(done).toMatchObject({ status: 'completed', matched: 3, missing_locally: 0, exception_ids: [] });
  });

  it('a payment linked to another invoice than the local one is a mismatch, whatever its reference', async () => {
    emptyBooks('xero');
    const c = await connected('xero');
    const { ids } = await book(c, 2, 0);
    // The provider's payment of invoice 1 carries the number of the local payment of invoice 0.
    const local = localDocument(c.tenant_id, {
      document_type: 'payment',
      number: `PAY-${randomUUID().slice(0, 6)}`,
      amount: '100.00',
      applies_to: (
        await deps().documents.list(c.tenant_id, { document_type: 'invoice' }, { limit: 10 })
      ).items.find((d) => d.amount === '100.00')!.id,
    });
    await loadItems(db, [document.item(local)]);
    sandbox.oauth.apis.seedPayment({
      provider: 'xero',
      invoice_id: ids[1]!,
      amount: 100,
      currency: 'EUR',
      reference: local.number,
    });
    const { outbox } = await request(c);
    const done = await runReconciliation(deps(), outbox, 1);
    // Both invoices match; the local payment is not found at the provider, the provider's is not found here.
    expect(done).toMatchObject({ matched: 2, mismatched: 0, missing_in_provider: 1, missing_locally: 1 });
  });
});

describe('a run the rate limit stops resumes after its last page', () => {
  it("a firing's share of pages read, the run continues at once from the next page", async () => {
    emptyBooks('xero');
    const c = await connected('xero');
    await book(c, 260, 0);
    const { run, outbox } = await request(c);
    const d = { ...deps(), pagesPerFiring: 2 };
    expect(await runReconciliation(d, outbox, 1)).toBeUndefined();
    const [first] = await continuations(c.tenant_id, run.id);
    // No wait: the provider did not ask for one.
    expect(Date.parse(String(first!.payload.not_before))).toBeLessThanOrEqual(clock.now().getTime());
    const done = await runReconciliation(d, first!, 1);
    expect(done).toMatchObject({
      status: 'completed',
      matched: 260,
      missing_in_provider: 0,
      missing_locally: 0,
    });
    // 3 invoice pages and 1 payments page over two firings, each read once.
    expect((await reconciliationStore(db).pages(c.tenant_id, run.id)).map((p) => p.seq)).toEqual([
      0, 1, 2, 3,
    ]);
    expect(apiCalls('xero', '/Invoices').length).toBe(3);
  });

  it("Xero's 429 after two pages: the run stays queued, continues after Retry-After, and reads no page twice", async () => {
    emptyBooks('xero');
    const c = await connected('xero');
    await book(c, 260, 0);
    const { run, outbox } = await request(c);
    // Other calls of this minute leave room for two.
    const at = clock.now().getTime();
    for (let i = 0; i < XERO_LIMITS.per_minute - 2; i += 1)
      sandbox.oauth.apis.calls.push({ provider: 'xero', method: 'GET', path: '/other', status: 200, at });
    const pagesRead = () =>
      sandbox.oauth.apis.calls.filter((x) => x.path === '/api.xro/2.0/Invoices' && x.status === 200).length;
    expect(await runReconciliation(deps(), outbox, 1)).toBeUndefined();
    expect((await reconciliationStore(db).get(c.tenant_id, run.id))!.status).toBe('queued');
    expect((await reconciliationStore(db).pages(c.tenant_id, run.id)).length).toBe(2);
    const [next] = await continuations(c.tenant_id, run.id);
    expect(next).toBeDefined();
    // Before the provider's Retry-After the continuation waits; it is not a failure.
    const early = await runReconciliation(deps(), next!, 1).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(ReconciliationWaits);
    expect((early as ReconciliationWaits).seconds).toBeGreaterThan(0);
    expect((early as ReconciliationWaits).seconds).toBeLessThanOrEqual(60);
    offsetMs += 61_000;
    const done = await runReconciliation(deps(), next!, 1);
    expect(done).toMatchObject({
      status: 'completed',
      matched: 260,
      missing_in_provider: 0,
      missing_locally: 0,
      exception_ids: [],
    });
    // Pages 1 and 2 once, page 3 once (after the 429), and the payments page.
    expect(pagesRead()).toBe(3);
  });
});
