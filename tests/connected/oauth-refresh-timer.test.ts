import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import type { Db } from '#functions/adapters/dynamo';
import {
  armOAuthRefresh,
  callbackThrottle,
  consentStore,
  refreshClaims,
} from '#functions/adapters/oauth-store';
import { oauthProvider } from '#functions/adapters/oauth-provider';
import { timerStore } from '#functions/adapters/timer-store';
import type { OAuthSettings } from '#functions/config';
import { timerFireDeps } from '#functions/workers/timers';
import { auditEvent } from '#shared/domain/audit';
import type { Connection } from '#shared/domain/integrations/ports';
import { completeConsent } from '#shared/domain/oauth/connect';
import { REFRESH_AHEAD_SECONDS, RefreshUnavailableError } from '#shared/domain/oauth/refresh-timer';
import type { TokenDeps } from '#shared/domain/oauth/tokens';
import { fireTimer, sweepTimers, timerFired } from '#shared/domain/timers/use-cases';
import type { Timer } from '#shared/domain/timers/ports';
import type { Clock } from '#shared/kernel/ids';
import { sha256 } from '#shared/kernel/secrets';
import type { ProviderSandbox } from '#local/provider-sandbox';
import { consentCode, type OAuthWorld, oauthWorld } from '#tests/support/oauth';
import { manualClock } from '#tests/support/moved-clock';

/**
 * Refresh before expiry by the `oauth_refresh` timer, on DynamoDB Local against the sandbox's
 * Xero, with a clock the test moves (never a sleep): the callback arms the timer when it stores
 * the pair, the sweep fires it some minutes before the access token ends (not earlier), the
 * firing refreshes the pair and re-arms the timer for the new one.
 */

let db: Db;
let sandbox: ProviderSandbox;
let settings: OAuthSettings;
let secrets: OAuthWorld['secrets'];
let world: OAuthWorld;

const tokenDeps = (clock: Clock, revoked = vi.fn(async () => {})): TokenDeps => ({
  secrets,
  claims: refreshClaims(db),
  provider: oauthProvider(settings, secrets),
  clock,
  wait: async () => {},
  revoked,
  armRefresh: armOAuthRefresh(db),
});

const refreshCalls = () => sandbox.oauth.tokenCalls.filter((t) => t.grant_type === 'refresh_token').length;
const refreshTimerOf = async (c: Connection): Promise<Timer | undefined> =>
  (await timerStore(db).list(c.tenant_id, { kind: 'oauth_refresh', subject_id: c.id }, { limit: 10 }))
    .items[0];

/** A Xero connection in the table, authorized through the sandbox's consent and the callback. */
async function connected(clock: Clock): Promise<Connection> {
  const now = clock.now().toISOString();
  const c: Connection = {
    id: randomUUID(),
    tenant_id: `t-${randomUUID().slice(0, 8)}`,
    adapter_key: 'xero',
    category: 'accounting',
    name: 'Xero books',
    status: 'active',
    scopes: ['accounting.transactions'],
    config: { sales_account_code: '200' },
    mapping: {},
    secret_configured: false,
    created_at: now,
    updated_at: now,
  };
  const connections = connectionStore(db);
  await connections.create(
    c,
    auditEvent(clock, {
      tenant_id: c.tenant_id,
      event_type: 'integration_connection.created',
      actor_id: 'u-1',
      entity_type: 'integration_connection',
      entity_id: c.id,
      summary: 'created',
    }),
  );
  const state = randomUUID().replaceAll('-', '');
  await consentStore(db).put({
    state_hash: sha256(state),
    tenant_id: c.tenant_id,
    connection_id: c.id,
    adapter_key: 'xero',
    user_id: 'u-1',
    code_verifier: null,
    expires_at: new Date(clock.now().getTime() + 600_000).toISOString(),
  });
  const code = await consentCode(world, 'xero', state);
  const outcome = await completeConsent(
    {
      connections,
      consents: consentStore(db),
      provider: oauthProvider(settings, secrets),
      secrets,
      claims: refreshClaims(db),
      throttle: callbackThrottle(db),
      armRefresh: armOAuthRefresh(db),
      clock,
    },
    { state, code, client: randomUUID() },
  );
  expect(outcome.answer).toBe('connected');
  return (await connections.get(c.tenant_id, c.id))!;
}

/** One sweep at the clock's time, and the firing of each timer it claimed. */
async function sweepAndFire(clock: Clock, tokens: TokenDeps) {
  const { fired } = await sweepTimers({ timers: timerStore(db), clock });
  const deps = timerFireDeps(db, clock, tokens);
  return Promise.all(
    fired.map(async (t) => ({ timer: t, outcome: await fireTimer(deps, timerFired(clock, t)) })),
  );
}

beforeAll(async () => {
  world = await oauthWorld('xero');
  ({ db, sandbox, settings, secrets } = world);
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('refresh before expiry (the oauth_refresh timer)', () => {
  it('is armed with the pair, fires minutes before expiry (not earlier), refreshes, and re-arms', async () => {
    const clock = manualClock('2031-03-01T09:00:00.000Z');
    const c = await connected(clock);
    const first = (await secrets.read(c.tenant_id, c.id))!;
    const timer = (await refreshTimerOf(c))!;
    expect(timer).toMatchObject({ kind: 'oauth_refresh', subject_type: 'integration_connection' });
    expect(Date.parse(first.expires_at!) - Date.parse(timer.due_at)).toBe(REFRESH_AHEAD_SECONDS * 1000);

    const calls = refreshCalls();
    clock.set(Date.parse(timer.due_at) - 1000);
    expect(await sweepAndFire(clock, tokenDeps(clock))).toEqual([]);
    expect(refreshCalls()).toBe(calls);

    clock.set(Date.parse(timer.due_at));
    const fired = await sweepAndFire(clock, tokenDeps(clock));
    expect(fired.map((f) => [f.timer.subject_id, f.outcome])).toEqual([[c.id, 'written']]);
    expect(refreshCalls()).toBe(calls + 1);
    const second = (await secrets.read(c.tenant_id, c.id))!;
    expect(second.generation).toBe('2');
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(sandbox.oauth.validRefreshToken(second.refresh_token!)).toBe(true);
    // The next timer, for the new pair: the same id, re-armed, never two.
    const next = (await refreshTimerOf(c))!;
    expect(next.id).toBe(timer.id);
    expect(Date.parse(second.expires_at!) - Date.parse(next.due_at)).toBe(REFRESH_AHEAD_SECONDS * 1000);
    expect(Date.parse(next.due_at)).toBeGreaterThan(clock.now().getTime());

    // A redelivered firing of the first timer finds the pair refreshed already: no call.
    const again = await fireTimer(timerFireDeps(db, clock, tokenDeps(clock)), timerFired(clock, timer));
    expect(again).toBe('stale');
    expect(refreshCalls()).toBe(calls + 1);
  });

  it('a timer whose connection is gone is stale and calls nothing', async () => {
    const clock = manualClock('2031-03-03T09:00:00.000Z');
    const c = await connected(clock);
    const timer = (await refreshTimerOf(c))!;
    clock.set(Date.parse(timer.due_at));
    const calls = refreshCalls();
    const gone = { ...timer, subject_id: randomUUID() };
    expect(await fireTimer(timerFireDeps(db, clock, tokenDeps(clock)), timerFired(clock, gone))).toBe(
      'stale',
    );
    expect(refreshCalls()).toBe(calls);
  });

  it('a provider that cannot answer fails the firing (the queue retries); a refused refresh marks the connection and arms nothing', async () => {
    const clock = manualClock('2031-03-02T09:00:00.000Z');
    const c = await connected(clock);
    const timer = (await refreshTimerOf(c))!;
    clock.set(Date.parse(timer.due_at));
    const { fired } = await sweepTimers({ timers: timerStore(db), clock });
    const firing = timerFired(
      clock,
      fired.find((t) => t.subject_id === c.id)!,
    );

    sandbox.oauth.refuseNextToken('temporarily_unavailable');
    const revoked = vi.fn(async () => {});
    await expect(fireTimer(timerFireDeps(db, clock, tokenDeps(clock, revoked)), firing)).rejects.toThrow(
      RefreshUnavailableError,
    );
    expect((await secrets.read(c.tenant_id, c.id))!.generation).toBe('1');

    sandbox.oauth.revokeRefreshTokens();
    expect(await fireTimer(timerFireDeps(db, clock, tokenDeps(clock, revoked)), firing)).toBe('written');
    expect(revoked).toHaveBeenCalledTimes(1);
    expect((await secrets.read(c.tenant_id, c.id))!.access_token).toBeUndefined();
    expect(await refreshTimerOf(c)).toBeUndefined();
  });
});
