import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { refreshClaims } from '#functions/adapters/oauth-store';
import { oauthProvider } from '#functions/adapters/oauth-provider';
import { quickbooksTarget } from '#functions/adapters/quickbooks-target';
import { oauthRecords } from '#functions/adapters/oauth-records';
import type { OAuthSettings } from '#functions/config';
import { type ExportRunDeps, runExport } from '#shared/domain/accounting/export-run';
import type { AccountingTarget, TargetDocument } from '#shared/domain/accounting/ports';
import { createExport } from '#shared/domain/accounting/use-cases';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { Connection } from '#shared/domain/integrations/ports';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { accessToken, type TokenDeps } from '#shared/domain/oauth/tokens';
import { systemClock } from '#shared/kernel/ids';
import { SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import type { ProviderSandbox } from '#local/provider-sandbox';
import { principal } from '#tests/support/fixtures';
import { accountingConnection, type OAuthWorld, oauthWorld, storeConsentedPair } from '#tests/support/oauth';

/**
 * The QuickBooks Online client against the sandbox's Intuit (docs/connecting-accounting.md), on
 * DynamoDB Local: one invoice per `POST .../invoice?requestid=`, the same `requestid` answered
 * with the first answer (booked once), a lookup by `DocNumber` through the query endpoint before
 * any resend after an unknown outcome, and Intuit's answers as the export's error classes.
 */

let db: Db;
let sandbox: ProviderSandbox;
let settings: OAuthSettings;
let secrets: OAuthWorld['secrets'];
let world: OAuthWorld;
const REALM = SANDBOX_ORGANISATIONS.quickbooks_online.realmId;

const tokenDeps = (): TokenDeps => ({
  secrets,
  claims: refreshClaims(db),
  provider: oauthProvider(settings, secrets),
  clock: systemClock,
  wait: async () => {},
  revoked: async () => {},
});
const tokenFor = (c: Connection, stale?: string) => accessToken(tokenDeps(), c, stale);

/** An active QuickBooks connection in the table, with a pair from the sandbox's consent. */
async function connected(): Promise<Connection> {
  const c = await accountingConnection(db, systemClock, {
    adapter_key: 'quickbooks_online',
    name: 'QuickBooks',
    scopes: ['com.intuit.quickbooks.accounting'],
    config: { customer_id: '58', item_id: '1', realm_id: REALM },
  });
  await storeConsentedPair(world, c, (s) => new Date(Date.now() + s * 1000));
  return c;
}

const doc = (number = `INV-${randomUUID().slice(0, 8)}`, key = `ops-${randomUUID()}`): TargetDocument => ({
  index: 0,
  idempotency_key: key,
  document: { number, amount: '120.00', currency: 'USD', counterparty: 'Acme' },
});
const qbo = () => sandbox.oauth.apis.calls.filter((x) => x.provider === 'quickbooks_online');
const creates = () => qbo().filter((x) => x.method === 'POST' && x.path.endsWith('/invoice'));
const queries = () => qbo().filter((x) => x.path.endsWith('/query'));
const refreshCalls = () =>
  sandbox.oauth.tokenCalls.filter(
    (t) => t.provider === 'quickbooks_online' && t.grant_type === 'refresh_token',
  );

beforeAll(async () => {
  world = await oauthWorld('quickbooks_online');
  ({ db, sandbox, settings, secrets } = world);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('QuickBooks Online: requestid idempotency', () => {
  it("books one invoice per call under the company's path, requestid the document's key; the same requestid answers the first answer and books nothing twice", async () => {
    const c = await connected();
    const target: AccountingTarget = quickbooksTarget(settings, tokenFor, c);
    const d = doc();
    const [first] = await target.book([d]);
    expect(first).toMatchObject({ index: 0, ok: true });
    const booked = sandbox.oauth.apis.booked.find((b) => b.number === d.document.number)!;
    expect(booked).toMatchObject({ provider: 'quickbooks_online', key: d.idempotency_key, currency: 'USD' });
    expect(creates().at(-1)!.path).toBe(`/v3/company/${REALM}/invoice`);
    // A resend of the same document (a retry whose answer was lost): the kept answer, no new invoice.
    expect(await target.book([d])).toEqual([first]);
    expect(sandbox.oauth.apis.bookingCount('quickbooks_online', d.document.number)).toBe(1);
    // Another key for a number already booked: Intuit's duplicate DocNumber (6140), never a second invoice.
    expect(await target.book([doc(d.document.number)])).toEqual([
      {
        index: 0,
        ok: false,
        error: 'validation_rejected',
        message: expect.stringMatching(
          new RegExp(
            `^Duplicate Document Number Error: .*DocNumber=${d.document.number} is assigned to TxnType=Invoice`,
          ),
        ),
      },
    ]);
    expect(sandbox.oauth.apis.bookingCount('quickbooks_online', d.document.number)).toBe(1);
  });

  it('lookup finds an invoice by DocNumber through the query endpoint (quotes escaped), null when there is none', async () => {
    const c = await connected();
    const target = quickbooksTarget(settings, tokenFor, c);
    const d = doc(`INV-${randomUUID().slice(0, 6)}'A`);
    const [booked] = await target.book([d]);
    expect(await target.lookup!(d)).toBe((booked as { external_id: string }).external_id);
    expect(await target.lookup!(doc())).toBeNull();
  });
});

describe('QuickBooks Online: after an unknown outcome, a lookup before any resend', () => {
  const actor = principal('acct-1');
  const worker = (): ExportRunDeps => ({
    exports: accountingStore(db),
    connections: activeConnectionReader(connectionStore(db), secrets),
    results: connectionResults(db),
    targets: accountingTargets(
      { telegramApiUrl: '', accountingApiUrls: { ledgerly: '', tallybook: '' }, timeoutMs: 5000 },
      { settings, token: tokenFor },
    ),
    clock: systemClock,
    wait: async () => {},
    maxAttempts: 3,
    backoff: DELIVERY_BACKOFF,
    leaseSeconds: 60,
    queueSecondMs: 1000,
  });

  /** An export of two invoices whose first an earlier run sent without learning the outcome. */
  async function interrupted(bookedAtProvider: boolean) {
    const c = await connected();
    const numbers = [`INV-${randomUUID().slice(0, 8)}`, `INV-${randomUUID().slice(0, 8)}`];
    const { export: e } = await createExport(
      {
        exports: accountingStore(db),
        documents: documentStore(db),
        connections: connectionStore(db),
        clock: systemClock,
      },
      actor,
      c.tenant_id,
      {
        export_batch_id: `B-${randomUUID()}`,
        integration_connection_id: c.id,
        documents: numbers.map((number) => ({
          number,
          amount: '120.00',
          currency: 'USD',
          counterparty: 'Acme',
        })),
      } as Parameters<typeof createExport>[3],
    );
    // The earlier run: its claim on document 0, its lease over, its call's answer lost.
    const past = new Date(Date.now() - 120_000).toISOString();
    expect(
      await accountingStore(db).claimBooking(
        c.tenant_id,
        e.id,
        { index: 0, state: 'sending', idempotency_key: 'lost-call', claimed_at: past, lease_until: past },
        past,
      ),
    ).toBe('claimed');
    if (bookedAtProvider) await quickbooksTarget(settings, tokenFor, c).book([doc(numbers[0], 'lost-call')]);
    return { c, e, numbers };
  }

  it('booked by the lost call: found by DocNumber and recorded, never sent again', async () => {
    const { c, e, numbers } = await interrupted(true);
    const [creates0, queries0] = [creates().length, queries().length];
    expect(await runExport(worker(), e.id, c.tenant_id, 2)).toMatchObject({ result: 'exported' });
    expect(queries().length - queries0).toBe(1);
    expect(creates().length - creates0).toBe(1); // the second document only
    for (const n of numbers) expect(sandbox.oauth.apis.bookingCount('quickbooks_online', n)).toBe(1);
  });

  it('not booked by the lost call: the lookup finds nothing, then it is sent once', async () => {
    const { c, e, numbers } = await interrupted(false);
    const [creates0, queries0] = [creates().length, queries().length];
    expect(await runExport(worker(), e.id, c.tenant_id, 2)).toMatchObject({ result: 'exported' });
    expect(queries().length - queries0).toBe(1);
    expect(creates().length - creates0).toBe(2);
    for (const n of numbers) expect(sandbox.oauth.apis.bookingCount('quickbooks_online', n)).toBe(1);
  });
});

describe("QuickBooks Online: Intuit's answers as the export's error classes", () => {
  it('429 with Retry-After, 5xx, 403, a 401 refreshed once and repeated, a refused lookup', async () => {
    const c = await connected();
    const target = quickbooksTarget(settings, tokenFor, c);
    sandbox.oauth.apis.script('quickbooks_online', [{ status: 429, retryAfter: 12 }]);
    expect(await target.book([doc()])).toEqual([
      { index: 0, ok: false, error: 'rate_limited', retry_after_seconds: 12 },
    ]);
    sandbox.oauth.apis.script('quickbooks_online', [{ status: 503 }]);
    expect(await target.book([doc()])).toEqual([{ index: 0, ok: false, error: 'target_unavailable' }]);
    sandbox.oauth.apis.script('quickbooks_online', [{ status: 403 }]);
    expect(await target.book([doc()])).toEqual([{ index: 0, ok: false, error: 'auth_failed' }]);
    sandbox.oauth.apis.script('quickbooks_online', [{ status: 500 }]);
    expect(await target.lookup!(doc())).toEqual({ error: 'target_unavailable' });

    sandbox.oauth.expireAccessTokens();
    const refreshes = refreshCalls().length;
    const d = doc();
    expect(await target.book([d])).toMatchObject([{ index: 0, ok: true }]);
    expect(refreshCalls().length).toBe(refreshes + 1);
    expect(sandbox.oauth.apis.bookingCount('quickbooks_online', d.document.number)).toBe(1);
    // Still 401 after the refresh: auth_failed, and no second refresh.
    sandbox.oauth.apis.script('quickbooks_online', [{ status: 401 }, { status: 401 }]);
    expect(await target.book([doc()])).toEqual([{ index: 0, ok: false, error: 'auth_failed' }]);
    expect(refreshCalls().length).toBe(refreshes + 2);
  });
});

describe('QuickBooks Online: the reconciliation reads', () => {
  it("reads the company's invoices through the query endpoint as provider records; a refused read names its class", async () => {
    const c = await connected();
    const d = doc();
    const [booked] = await quickbooksTarget(settings, tokenFor, c).book([d]);
    const read = await oauthRecords(settings, tokenFor, c);
    expect(read.ok).toBe(true);
    expect((read as { records: unknown[] }).records).toContainEqual({
      external_id: (booked as { external_id: string }).external_id,
      document_type: 'invoice',
      number: d.document.number,
      amount: '120.00',
      currency: 'USD',
    });
    sandbox.oauth.apis.script('quickbooks_online', [{ status: 429, retryAfter: 5 }]);
    // The run continues after the provider's wait instead of failing.
    expect(await oauthRecords(settings, tokenFor, c)).toEqual({
      ok: false,
      reason: 'rate_limited',
      retry_after_seconds: 5,
    });
  });
});
