import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountingStore } from '#functions/adapters/accounting-store';
import { accountingTargets } from '#functions/adapters/accounting-targets';
import { auditStore } from '#functions/adapters/audit-store';
import { connectionResults } from '#functions/adapters/connection-results';
import { connectionStore } from '#functions/adapters/connection-store';
import { documentStore } from '#functions/adapters/document-store';
import type { Db } from '#functions/adapters/dynamo';
import { refreshClaims } from '#functions/adapters/oauth-store';
import { oauthProvider } from '#functions/adapters/oauth-provider';
import { pendingOlderThan } from '#functions/adapters/outbox';
import { armTimer } from '#functions/adapters/timer-arm';
import { timerStore } from '#functions/adapters/timer-store';
import type { OAuthSettings } from '#functions/config';
import { timerFireDeps } from '#functions/workers/timers';
import { type ExportRunDeps, runExport } from '#shared/domain/accounting/export-run';
import { createExport } from '#shared/domain/accounting/use-cases';
import { activeConnectionReader } from '#shared/domain/integrations/active';
import type { Connection } from '#shared/domain/integrations/ports';
import { DELIVERY_BACKOFF } from '#shared/domain/notifications/channels';
import { accessToken, type TokenDeps } from '#shared/domain/oauth/tokens';
import { fireTimer, sweepTimers, timerFired } from '#shared/domain/timers/use-cases';
import type { Clock } from '#shared/kernel/ids';
import { EVENT_KINDS } from '#shared/kernel/names';
import { XERO_LIMITS } from '#local/oauth-apis-xero';
import { SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import type { ProviderSandbox } from '#local/provider-sandbox';
import { principal } from '#tests/support/fixtures';
import { accountingConnection, type OAuthWorld, oauthWorld, storeConsentedPair } from '#tests/support/oauth';

/**
 * Faults of a Xero export on DynamoDB Local and the sandbox, with a clock the test moves. A consent
 * revoked mid-export stops sending and keeps what was not sent for a retry. The daily limit: the run that
 * meets it books nothing more, says that it waits for the next day's window (the export's audit,
 * its items' error code, an `export_window` timer at the window), and lets its message go; the
 * timer asks for the run again at the window, and the documents are booked once each.
 */

let db: Db;
let sandbox: ProviderSandbox;
let settings: OAuthSettings;
let secrets: OAuthWorld['secrets'];
let world: OAuthWorld;
let at = Date.now();
const clock: Clock = { now: () => new Date(at) };

const tokens = (): TokenDeps => ({
  secrets,
  claims: refreshClaims(db),
  provider: oauthProvider(settings, secrets),
  clock,
  wait: async () => {},
  revoked: async () => {},
});

const worker = (): ExportRunDeps => ({
  exports: accountingStore(db),
  connections: activeConnectionReader(connectionStore(db), secrets),
  results: connectionResults(db),
  targets: accountingTargets(
    { telegramApiUrl: '', accountingApiUrls: { ledgerly: '', tallybook: '' }, timeoutMs: 5000 },
    { settings, token: (c, stale) => accessToken(tokens(), c, stale) },
  ),
  clock,
  wait: async (ms) => {
    at += ms;
  },
  maxAttempts: 3,
  backoff: DELIVERY_BACKOFF,
  leaseSeconds: 60,
  queueSecondMs: 1000,
  armWindow: (t) => armTimer(db, t),
});

async function xeroConnection(): Promise<Connection> {
  const c = await accountingConnection(db, clock, {
    adapter_key: 'xero',
    name: 'Xero books',
    scopes: ['accounting.transactions'],
    config: { sales_account_code: '200', organisation_id: SANDBOX_ORGANISATIONS.xero.tenantId },
  });
  await storeConsentedPair(world, c, (s) => new Date(at + s * 1000));
  return c;
}

const exportOf = async (c: Connection, numbers: string[]) =>
  (
    await createExport(
      { exports: accountingStore(db), documents: documentStore(db), connections: connectionStore(db), clock },
      principal('acct-1'),
      c.tenant_id,
      {
        export_batch_id: `B-${randomUUID()}`,
        integration_connection_id: c.id,
        documents: numbers.map((number) => ({
          number,
          amount: '120.00',
          currency: 'EUR',
          counterparty: 'Acme',
        })),
      } as Parameters<typeof createExport>[3],
    )
  ).export;

const invoicePuts = () => sandbox.oauth.apis.calls.filter((x) => x.provider === 'xero' && x.method === 'PUT');

beforeAll(async () => {
  world = await oauthWorld('xero');
  ({ db, sandbox, settings, secrets } = world);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe("Xero's daily limit", () => {
  it("the run waits for the next day's window, says so, and a timer runs it again there; each invoice is booked once", async () => {
    const c = await xeroConnection();
    const numbers = [`INV-${randomUUID().slice(0, 8)}`, `INV-${randomUUID().slice(0, 8)}`];
    const e = await exportOf(c, numbers);

    sandbox.oauth.apis.xeroDayUsed = XERO_LIMITS.per_day;
    const started = clock.now().getTime();
    const first = await runExport(worker(), e.id, c.tenant_id, 1);
    // The message goes (acknowledged): no 12-hour visibility, no receive counted towards the DLQ.
    expect(first).toMatchObject({ action: 'ack', result: 'waiting', reason: 'daily_limit_reached' });
    expect(first.export).toMatchObject({ status: 'retrying' });
    expect(first.export!.items.map((i) => [i.status, i.error_code])).toEqual([
      ['pending', 'daily_limit_reached'],
      ['pending', 'daily_limit_reached'],
    ]);
    const [timer] = (await timerStore(db).list(c.tenant_id, { kind: 'export_window' }, { limit: 10 })).items;
    expect(timer).toMatchObject({ subject_type: 'accounting_export', subject_id: e.id });
    const window = Date.parse(timer!.due_at);
    expect(window - started).toBeGreaterThan(0);
    expect(window - started).toBeLessThanOrEqual(86_400_000);
    const audit = (await auditStore(db).list(c.tenant_id, { entity_id: e.id }, { limit: 20 })).items;
    expect(audit.find((a) => a.event_type === 'accounting_export.retrying')!.summary).toContain(
      `waiting for the next day's window at ${timer!.due_at}`,
    );
    for (const n of numbers) expect(sandbox.oauth.apis.bookingCount('xero', n)).toBe(0);

    // A copy of the message before the window: not due, no call.
    const calls = sandbox.oauth.apis.calls.length;
    expect(await runExport(worker(), e.id, c.tenant_id, 1)).toMatchObject({
      result: 'busy',
      reason: 'not_due',
    });
    expect(sandbox.oauth.apis.calls.length).toBe(calls);

    // The window opens: the sweep fires the timer, whose firing asks for the run again.
    sandbox.oauth.apis.xeroDayUsed = 0;
    at = window - 1000;
    expect((await sweepTimers({ timers: timerStore(db), clock })).fired).toEqual([]);
    at = window;
    const { fired } = await sweepTimers({ timers: timerStore(db), clock });
    const mine = fired.find((t) => t.subject_id === e.id)!;
    expect(await fireTimer(timerFireDeps(db, clock, tokens()), timerFired(clock, mine))).toBe('written');
    const requested = [];
    for await (const ev of pendingOlderThan(db, '9999'))
      if (ev.kind === EVENT_KINDS.accountingExportRequested && ev.payload.export_id === e.id)
        requested.push(ev);
    expect(requested.length).toBeGreaterThanOrEqual(2); // the export's own, and the window's

    at += 1000; // the relay and the queue take a moment
    expect(await runExport(worker(), e.id, c.tenant_id, 1)).toMatchObject({ result: 'exported' });
    for (const n of numbers) expect(sandbox.oauth.apis.bookingCount('xero', n)).toBe(1);
  });
});

describe('a consent revoked mid-export', () => {
  it('stops sending: what was booked stays booked once, the rest fails reauthorization_required unclaimed, and no call follows the refusal', async () => {
    const c = await xeroConnection();
    const numbers = [0, 1, 2].map(() => `INV-${randomUUID().slice(0, 8)}`);
    const e = await exportOf(c, numbers);
    const puts = invoicePuts().length;
    let paced = 0;
    const out = await runExport(
      {
        ...worker(),
        // Between the first and the second call (the pacing of Xero's 60 a minute), the
        // organisation revokes the consent: the access token ends and the refresh token is refused.
        wait: async (ms) => {
          at += ms;
          paced += 1;
          if (paced === 1) {
            sandbox.oauth.expireAccessTokens();
            sandbox.oauth.revokeRefreshTokens();
          }
        },
      },
      e.id,
      c.tenant_id,
      1,
    );
    expect(out).toMatchObject({ action: 'ack', result: 'partially_exported' });
    expect(out.export!.items.map((i) => [i.status, i.error_code])).toEqual([
      ['exported', null],
      ['failed', 'reauthorization_required'],
      ['failed', 'reauthorization_required'],
    ]);
    expect(numbers.map((n) => sandbox.oauth.apis.bookingCount('xero', n))).toEqual([1, 0, 0]);
    // The booked one, and the second refused with 401; the third never left.
    expect(invoicePuts().length - puts).toBe(2);
    // Nothing of the two is held as `sending`: a retry after the new consent sends them, once.
    expect((await accountingStore(db).bookings(c.tenant_id, e.id)).map((b) => [b.index, b.state])).toEqual([
      [0, 'booked'],
    ]);
  });
});
