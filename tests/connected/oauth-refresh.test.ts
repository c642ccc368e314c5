import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import { callbackThrottle, consentStore, refreshClaims } from '#functions/adapters/oauth-store';
import { oauthProvider } from '#functions/adapters/oauth-provider';
import type { OAuthSettings } from '#functions/config';
import type { Connection, ConnectionStore } from '#shared/domain/integrations/ports';
import { completeConsent } from '#shared/domain/oauth/connect';
import { type AccessToken, accessToken, type TokenDeps } from '#shared/domain/oauth/tokens';
import { sha256 } from '#shared/kernel/secrets';
import { XERO_LIMITS } from '#local/oauth-apis-xero';
import { SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import { xeroTarget } from '#functions/adapters/xero-target';
import type { ProviderSandbox } from '#local/provider-sandbox';
import { movedClock } from '#tests/support/moved-clock';
import { type OAuthWorld, oauthWorld, storeConsentedPair } from '#tests/support/oauth';

/**
 * The refresh of an OAuth 2 token pair on DynamoDB Local against the sandbox's Xero, whose
 * refresh tokens are good for one use: two workers refreshing at once end with one valid pair
 * (the conditional claim decides), a refused refresh drops the pair and marks the connection
 * once; and the callback's single-use, expiring state.
 */

let db: Db;
let sandbox: ProviderSandbox;
let settings: OAuthSettings;
let secrets: OAuthWorld['secrets'];
let world: OAuthWorld;
const clock = { now: () => new Date() };

const connection = (): Connection => ({
  id: randomUUID(),
  tenant_id: `t-${randomUUID().slice(0, 8)}`,
  adapter_key: 'xero',
  category: 'accounting',
  name: 'Xero books',
  status: 'active',
  scopes: ['accounting.transactions'],
  config: { sales_account_code: '200' },
  mapping: {},
  secret_configured: true,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
});

/** A pair from the sandbox's consent, stored as a stale secret of generation 1. */
const consented = (c: Connection) => storeConsentedPair(world, c, () => new Date(Date.now() - 1000));

const deps = (revoked = vi.fn(async () => {})): TokenDeps => ({
  secrets,
  claims: refreshClaims(db),
  provider: oauthProvider(settings, secrets),
  clock,
  // A lone worker wins its claim and never waits; if it did, its looks pass at once and it gives up.
  wait: movedClock().wait,
  revoked,
});

/**
 * Two workers asking at once. The one that loses the claim looks for the winner's pair once the
 * winner has finished, instead of pausing on the wall clock between looks.
 */
async function bothAtOnce(c: Connection, revoked?: Parameters<typeof deps>[0]) {
  const calls: Promise<AccessToken>[] = [];
  const worker = (other: number) =>
    accessToken({ ...deps(revoked), wait: async () => void (await calls[other]) }, c);
  calls.push(worker(1), worker(0));
  const [a, b] = await Promise.all(calls);
  return [a!, b!] as const;
}

const refreshCalls = () => sandbox.oauth.tokenCalls.filter((t) => t.grant_type === 'refresh_token');

beforeAll(async () => {
  world = await oauthWorld('xero');
  ({ db, sandbox, settings, secrets } = world);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('refreshing a token pair', () => {
  it('two workers refreshing at once make one provider call and end with one valid pair', async () => {
    const c = connection();
    await consented(c);
    const before = refreshCalls().length;
    const [a, b] = await bothAtOnce(c);
    expect(a).toEqual(b);
    expect(a.ok).toBe(true);
    expect(refreshCalls().length - before).toBe(1);
    const stored = (await secrets.read(c.tenant_id, c.id))!;
    expect(stored.generation).toBe('2');
    expect(sandbox.oauth.validRefreshToken(stored.refresh_token!)).toBe(true);
    // The stored access token is the one both workers got.
    expect(a).toEqual({ ok: true, token: stored.access_token });
  });

  it('a fresh token is used as is; a 401 refreshes once, unless another worker already did', async () => {
    const c = connection();
    await consented(c);
    const first = await accessToken(deps(), c);
    const calls = refreshCalls().length;
    expect(await accessToken(deps(), c)).toEqual(first);
    expect(refreshCalls().length).toBe(calls);
    const again = await accessToken(deps(), c, first.ok ? first.token : '');
    expect(again.ok && first.ok && again.token !== first.token).toBe(true);
    expect(refreshCalls().length).toBe(calls + 1);
  });

  it('invalid_grant drops the pair, marks the connection once, and no later call reaches the provider', async () => {
    const c = connection();
    await consented(c);
    sandbox.oauth.revokeRefreshTokens();
    const revoked = vi.fn(async () => {});
    const [a, b] = await bothAtOnce(c, revoked);
    expect([a, b]).toEqual([
      { ok: false, error: 'reauthorization_required' },
      { ok: false, error: 'reauthorization_required' },
    ]);
    expect(revoked).toHaveBeenCalledTimes(1);
    const calls = refreshCalls().length;
    expect(await accessToken(deps(revoked), c)).toEqual({ ok: false, error: 'reauthorization_required' });
    expect(refreshCalls().length).toBe(calls);
    expect((await secrets.read(c.tenant_id, c.id))!.access_token).toBeUndefined();
  });
});

describe('the callback state', () => {
  const get = vi.fn();
  const callbackDeps = () => ({
    connections: { get, update: vi.fn() } as unknown as ConnectionStore,
    consents: consentStore(db),
    provider: oauthProvider(settings, secrets),
    secrets,
    claims: refreshClaims(db),
    throttle: callbackThrottle(db),
    clock,
  });
  const pending = (state: string, expiresAt: string) => ({
    state_hash: sha256(state),
    tenant_id: 't-1',
    connection_id: 'c-1',
    adapter_key: 'xero',
    user_id: 'u-1',
    code_verifier: 'v'.repeat(43),
    expires_at: expiresAt,
  });

  it('is used once: the second callback with it is refused before any provider call', async () => {
    const d = callbackDeps();
    const state = 'a'.repeat(43);
    await d.consents.put(pending(state, new Date(Date.now() + 600_000).toISOString()));
    expect(await d.consents.take(sha256(state))).toBeDefined();
    expect(await completeConsent(d, { state, code: 'c', client: randomUUID() })).toEqual({
      answer: 'state_unknown',
    });
  });

  it('expires after its 10 minutes, and is spent by the attempt', async () => {
    const d = callbackDeps();
    const state = 'b'.repeat(43);
    await d.consents.put(pending(state, new Date(Date.now() - 1000).toISOString()));
    const client = randomUUID();
    expect(await completeConsent(d, { state, code: 'c', client })).toEqual({ answer: 'state_expired' });
    expect(await completeConsent(d, { state, code: 'c', client })).toEqual({ answer: 'state_unknown' });
    expect(get).not.toHaveBeenCalled();
  });

  it('throttles a client that keeps failing, like login', async () => {
    const d = callbackDeps();
    const client = randomUUID();
    const answers = [];
    for (let i = 0; i < 21; i += 1)
      answers.push((await completeConsent(d, { state: 'f'.repeat(43), code: 'c', client })).answer);
    expect(answers.slice(0, 20).every((a) => a === 'state_unknown')).toBe(true);
    expect(answers[20]).toBe('rate_limited');
  });
});

describe("Xero's answers as the export's error classes", () => {
  it('429 with Retry-After, the daily limit, a 401 refreshed once, and a replayed Idempotency-Key', async () => {
    const c = {
      ...connection(),
      config: { sales_account_code: '200', organisation_id: SANDBOX_ORGANISATIONS.xero.tenantId },
    };
    await consented(c);
    const target = xeroTarget(settings, (conn, stale) => accessToken(deps(), conn, stale), c);
    const doc = {
      index: 0,
      idempotency_key: `ops-${randomUUID()}`,
      document: { number: `INV-${randomUUID().slice(0, 8)}`, amount: '10.00', currency: 'EUR' },
    };
    sandbox.oauth.apis.script('xero', [{ status: 429, retryAfter: 30, problem: 'minute' }]);
    expect(await target.book([doc])).toEqual([
      { index: 0, ok: false, error: 'rate_limited', retry_after_seconds: 30 },
    ]);
    sandbox.oauth.apis.xeroDayUsed = XERO_LIMITS.per_day;
    const [daily] = await target.book([doc]);
    expect(daily).toMatchObject({ ok: false, error: 'daily_limit_reached' });
    expect((daily as { retry_after_seconds: number }).retry_after_seconds).toBeLessThanOrEqual(86_400);
    sandbox.oauth.apis.xeroDayUsed = 0;
    sandbox.oauth.expireAccessTokens();
    const calls = refreshCalls().length;
    const [booked] = await target.book([doc]);
    expect(booked).toMatchObject({ ok: true });
    expect(refreshCalls().length).toBe(calls + 1);
    expect(await target.book([doc])).toEqual([booked]);
    expect(sandbox.oauth.apis.bookingCount('xero', doc.document.number)).toBe(1);
  });
});
