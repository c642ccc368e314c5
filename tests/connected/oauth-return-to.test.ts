import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionStore } from '#functions/adapters/connection-store';
import { oauthProvider } from '#functions/adapters/oauth-provider';
import { callbackThrottle, consentStore, refreshClaims } from '#functions/adapters/oauth-store';
import { page } from '#functions/oauth/page';
import { authorizeConnection, type ConnectDeps, completeConsent } from '#shared/domain/oauth/connect';
import { ValidationError } from '#shared/kernel/errors';
import { principal } from '#tests/support/fixtures';
import { accountingConnection, consentCode, type OAuthWorld, oauthWorld } from '#tests/support/oauth';

/**
 * docs/api.md, "Connecting an accounting system": `POST .../authorize?return_to` names the console
 * page the callback's page links back to. Only a page of the configured console is taken (no open
 * redirect through the public callback); the link appears only once a state of ours came back.
 * Over DynamoDB Local with the real stores and the sandbox provider.
 */

const CONSOLE = 'http://127.0.0.1:3000/console/';
const clock = { now: () => new Date() };
const manager = principal('manager-1', {}, true);
let world: OAuthWorld;

beforeAll(async () => {
  world = await oauthWorld('xero');
});
afterAll(() => world?.sandbox.stop());

const connectDeps = (): ConnectDeps => ({
  connections: connectionStore(world.db),
  consents: consentStore(world.db),
  provider: oauthProvider(world.settings, world.secrets),
  clock,
  consoleUrl: CONSOLE,
});

const callbackDeps = () => ({
  ...connectDeps(),
  secrets: world.secrets,
  claims: refreshClaims(world.db),
  throttle: callbackThrottle(world.db),
});

const xero = () =>
  accountingConnection(world.db, clock, {
    adapter_key: 'xero',
    name: 'Xero books',
    scopes: ['accounting.transactions'],
    config: { sales_account_code: '200' },
  });

const pendingConsents = async () =>
  (
    await world.db.doc.send(
      new ScanCommand({
        TableName: world.db.tableName,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': 'OAUTH_CONSENT#' },
      }),
    )
  ).Items?.length ?? 0;

const stateOf = (authorizeUrl: string) => new URL(authorizeUrl).searchParams.get('state')!;

describe('authorize?return_to', () => {
  it('a console page: the consent keeps it and the callback page links back to it', async () => {
    const c = await xero();
    const back = `${CONSOLE}t/${c.tenant_id}/integrations/${c.id}?connected=1`;
    const { authorize_url } = await authorizeConnection(connectDeps(), manager, c.tenant_id, c.id, back);
    const state = stateOf(authorize_url);
    const code = await consentCode(world, 'xero', state);

    const outcome = await completeConsent(callbackDeps(), { state, code, client: randomUUID() });
    expect(outcome).toMatchObject({ answer: 'connected', return_to: back });
    const html = String(page(outcome).body);
    expect(html).toContain(`<a href="${back.replace('&', '&#38;')}">Back to the connection</a>`);
  });

  it('a failure after our state came back (consent declined) links back to start again', async () => {
    const c = await xero();
    const back = `${CONSOLE}t/${c.tenant_id}/integrations/${c.id}`;
    const { authorize_url } = await authorizeConnection(connectDeps(), manager, c.tenant_id, c.id, back);
    const outcome = await completeConsent(callbackDeps(), {
      state: stateOf(authorize_url),
      error: 'access_denied',
      client: randomUUID(),
    });
    expect(outcome).toEqual({ answer: 'denied', return_to: back });
    expect(String(page(outcome).body)).toContain(`<a href="${back}">Back to the console</a>`);
  });

  it('a forged state, or a consent asked without return_to, links nowhere', async () => {
    const forged = await completeConsent(callbackDeps(), {
      state: 'f'.repeat(43),
      code: 'c',
      client: randomUUID(),
    });
    expect(forged).toEqual({ answer: 'state_unknown' });
    expect(String(page(forged).body)).not.toContain('<a ');

    const c = await xero();
    const { authorize_url } = await authorizeConnection(connectDeps(), manager, c.tenant_id, c.id);
    const state = stateOf(authorize_url);
    const outcome = await completeConsent(callbackDeps(), {
      state,
      code: await consentCode(world, 'xero', state),
      client: randomUUID(),
    });
    expect(outcome).toEqual({ answer: 'connected', adapter_name: 'Xero' });
    expect(String(page(outcome).body)).not.toContain('<a ');
  });

  it.each([
    ['another origin', 'https://evil.example/console/t/x'],
    ['another scheme', 'https://127.0.0.1:3000/console/t/x'],
    ['another port', 'http://127.0.0.1:3001/console/t/x'],
    ['outside the console', 'http://127.0.0.1:3000/oauth/callback'],
    ['a path that only starts like it', 'http://127.0.0.1:3000/consoleevil'],
    ['credentials', 'http://user:pw@127.0.0.1:3000/console/t/x'],
    ['a relative path', '/console/t/x'],
    ['a script', 'javascript:alert(1)'],
  ])('refuses %s: 422 not_console_url on return_to, and no consent is stored', async (_, returnTo) => {
    const c = await xero();
    const before = await pendingConsents();
    const err = await authorizeConnection(connectDeps(), manager, c.tenant_id, c.id, returnTo).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors).toEqual([
      expect.objectContaining({ path: 'return_to', code: 'not_console_url' }),
    ]);
    expect(await pendingConsents()).toBe(before);
  });

  it('with no console configured, any return_to is refused', async () => {
    const c = await xero();
    await expect(
      authorizeConnection(
        { ...connectDeps(), consoleUrl: undefined },
        manager,
        c.tenant_id,
        c.id,
        `${CONSOLE}t/x`,
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
