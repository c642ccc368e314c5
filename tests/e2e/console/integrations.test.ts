import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ORGANISATIONS } from '#local/oauth-sandbox';
import { EXPECTED_SYNC_MINUTES } from '#shared/domain/integrations/catalog';
import { CATEGORY_EVERY_HOURS } from '../../../console/src/screens/integrations/freshness';
import { client } from '#tests/support/http';
import {
  type ConsoleHarness,
  openPage,
  rendered,
  signIn,
  startConsole,
  type Watched,
  onlyFailedLoads,
  screenIsClean,
} from '#tests/support/console';
import { ACME, GLOBEX, PEOPLE } from '#tests/support/console-seed';
import {
  type IntegrationsSeed,
  LEDGERLY_SECRET,
  seedIntegrations,
} from '#tests/support/console-seed-integrations';

/**
 * docs/api.md, "The operator console", integrations: the catalog and the connections with their
 * health and freshness, a connection's diagnostics, schedule, secret and reconciliation runs, and
 * connecting Xero by OAuth 2 through the local sandbox provider and back. Each journey reads the
 * API's state after; every screen is checked with axe-core and for console errors and CSP
 * violations.
 */

let h: ConsoleHarness;
let w: Watched;
let s: IntegrationsSeed;
let oliviaToken: string;
const api = () => client(h.rt.baseUrl);
const get = async (path: string, token = oliviaToken) => (await api().call<any>('GET', path, { token })).body;
const at = (path: string) => h.url(`/console/t/${ACME}/${path}`);

beforeAll(async () => {
  h = await startConsole();
  s = await seedIntegrations(h.rt.baseUrl, h.seed.adminToken);
  oliviaToken = await api().login(PEOPLE.olivia.email, PEOPLE.olivia.password);
  w = await openPage(h);
});
afterAll(async () => {
  await w?.context.close();
  await h?.stop();
});

const rowOf = (testId: string, text: string) =>
  w.page.getByTestId(testId).locator('tbody tr').filter({ hasText: text });

describe('console integrations', { timeout: 60_000 }, () => {
  it('lists the connections with health and freshness, and the catalog with what each adapter needs', async () => {
    await signIn(w, h, 'olivia');
    await w.page.getByRole('link', { name: 'Integrations' }).click();
    const ledgerly = rowOf('connections', 'Ledgerly books');
    await ledgerly.waitFor();
    const listed = await get(`/tenants/${ACME}/integration-connections`);
    expect(await w.page.getByTestId('connections').locator('tbody td.title').allTextContents()).toEqual(
      listed.items.map((c: { name: string }) => c.name),
    );
    // Diagnosed a moment ago, expected every hour (its most frequent scheduled run).
    expect(listed.items.find((c: { id: string }) => c.id === s.ledgerly).health.state).toBe('healthy');
    expect(await ledgerly.textContent()).toMatch(
      /healthy.*fresh: last success \d+ min ago, expected every 1 h/,
    );
    expect(await rowOf('connections', 'Xero books').textContent()).toMatch(
      /unknown.*never succeeded, expected every 24 h/,
    );
    expect(await rowOf('catalog', 'Xero').first().textContent()).toContain('consent (OAuth 2');
    expect(await rowOf('catalog', 'Tallybook').textContent()).toContain('Secret: api_key');
    expect(await rowOf('catalog', 'Tallybook').textContent()).toContain('test double');
    expect(await rowOf('catalog', 'E-mail').textContent()).toMatch(/No secret.*Config: from_address/);
    const catalog = await get('/adapters');
    expect(await w.page.getByTestId('catalog').locator('tbody tr').count()).toBe(catalog.items.length);
    await screenIsClean(w, 'integrations');
  });

  it("counts freshness against the API's own intervals: a day for accounting, a week for channels", () => {
    expect(Object.fromEntries(Object.entries(CATEGORY_EVERY_HOURS).map(([k, h]) => [k, h * 60]))).toEqual(
      EXPECTED_SYNC_MINUTES,
    );
  });

  it('says a connection is stale by the clock: 3 h after its last success, expected every hour', async () => {
    const later = await openPage(h);
    try {
      await signIn(later, h, 'olivia', `/console/t/${ACME}/integrations`);
      const { health } = await get(`/tenants/${ACME}/integration-connections/${s.ledgerly}`);
      await later.page.clock.setFixedTime(Date.parse(health.last_success_at) + 3 * 3_600_000);
      await later.page.reload();
      const row = later.page.getByTestId('connections').locator('tbody tr').filter({ hasText: 'Ledgerly' });
      await rendered(() => row.getByTestId('freshness').textContent()).toBe(
        'stale: last success 3 h ago, expected every 1 h',
      );
      await later.page.clock.setFixedTime(Date.parse(health.last_success_at) + 90 * 60_000);
      await later.page.reload();
      await rendered(() => row.getByTestId('freshness').textContent()).toBe(
        'late: last success 1.5 h ago, expected every 1 h',
      );
      expect(later.problems).toEqual([]);
    } finally {
      await later.context.close();
    }
  });

  it('adds a connection from the catalog: a 422 beside its field, then created; the secret leaves the page', async () => {
    await w.page.goto(at('integrations'));
    await w.page.getByRole('link', { name: 'Add a Tallybook connection' }).click();
    const form = w.page.getByRole('group', { name: 'New Tallybook connection' });
    await form.getByLabel('Name').fill('Tallybook ledger');
    // The config without its company: the API names config.company_id, shown beside Config.
    await form.getByLabel('Config (JSON)').fill('{"ledger":"sales","currency":"EUR"}');
    const secret = 'tallybook-key-9f3a';
    await form.getByLabel('Secret: api_key').fill(secret);
    await form.getByRole('button', { name: 'Create connection' }).click();
    await w.page.locator('#new-config-error').waitFor();
    onlyFailedLoads(w, 422);
    expect(await form.getByLabel('Secret: api_key').inputValue()).toBe('');
    const none = await get(`/tenants/${ACME}/integration-connections?adapter_key=tallybook`);
    expect(none.items).toEqual([]);

    await form.getByLabel('Config (JSON)').fill('{"company_id":"104522","ledger":"sales","currency":"EUR"}');
    await form.getByLabel('Secret: api_key').fill(secret);
    await form.getByRole('button', { name: 'Create connection' }).click();
    await w.page.getByRole('heading', { name: 'Tallybook ledger' }).waitFor();
    const [created] = (await get(`/tenants/${ACME}/integration-connections?adapter_key=tallybook`)).items;
    expect(created).toMatchObject({ name: 'Tallybook ledger', secret_configured: true });
    expect(w.page.url()).toContain(`/integrations/${created.id}`);
    expect(await w.page.getByTestId('secret-configured').textContent()).toBe('set (never shown)');

    // Replaced: the note says it is stored, the box is empty, and the value is nowhere on the page.
    const rotated = 'tallybook-key-rotated-77c2';
    await w.page.getByLabel('api_key').fill(rotated);
    await w.page.getByRole('button', { name: 'Replace secret' }).click();
    await w.page.getByTestId('secret-stored').waitFor();
    expect(await w.page.getByLabel('api_key').inputValue()).toBe('');
    for (const value of [secret, rotated, LEDGERLY_SECRET])
      expect(await w.page.content()).not.toContain(value);
    const audit = await get(
      `/tenants/${ACME}/audit-events?entity_type=integration_connection&entity_id=${created.id}`,
    );
    expect(audit.items.map((e: { event_type: string }) => e.event_type)).toContain(
      'integration_connection.updated',
    );
    await w.page.getByRole('button', { name: 'Dismiss' }).click();
    expect(await w.page.getByTestId('secret-stored').count()).toBe(0);
    expect(w.problems).toEqual([]);
  });

  it("a connection's page: diagnostics with each check and its next action; the schedule changed", async () => {
    const [tally] = (await get(`/tenants/${ACME}/integration-connections?adapter_key=tallybook`)).items;
    await w.page.goto(at(`integrations/${tally.id}`));
    await w.page.getByRole('button', { name: 'Run diagnostics' }).click();
    const checks = w.page.getByTestId('checks').locator('tbody tr');
    await checks.first().waitFor();
    // Created without a mapping: its required keys are missing, and the check says what to do.
    const mapping = checks.filter({ hasText: 'mapping_keys_present' });
    expect(await mapping.locator('.badge').textContent()).toBe('fail');
    const after = await get(`/tenants/${ACME}/integration-connections/${tally.id}`);
    expect(after.health).toMatchObject({ state: 'failing', open_issues: 1 });
    expect(await checks.locator('td:first-child').allTextContents()).toEqual([
      'config_complete',
      'secret_present',
      'scopes_allowed',
      'mapping_keys_present',
      'provider_reachable',
    ]);
    expect((await mapping.locator('td').nth(3).textContent())!.length).toBeGreaterThan(10);
    await rendered(() => w.page.getByTestId('health').textContent()).toMatch(/failing/);

    await w.page.getByLabel('Diagnostics every (hours)').fill('12');
    await w.page.getByRole('button', { name: 'Save schedule' }).click();
    await rendered(() => w.page.getByTestId('schedule').textContent()).toContain('Diagnostics every 12 h');
    expect((await get(`/tenants/${ACME}/integration-connections/${tally.id}`)).schedule).toEqual({
      diagnostics_every_hours: 12,
    });

    await w.page.goto(at(`integrations/${s.ledgerly}`));
    await w.page.getByRole('button', { name: 'Run diagnostics' }).click();
    await w.page.getByTestId('checks').waitFor();
    // Nothing fails (a scope the connection was not granted is a warn, not a failure).
    expect(await w.page.getByTestId('checks').locator('.badge').allTextContents()).not.toContain('fail');
    expect((await get(`/tenants/${ACME}/integration-connections/${s.ledgerly}`)).health.state).toBe(
      'healthy',
    );
    await screenIsClean(w, 'connection');
  });

  it('starts a reconciliation from the page; the run shows its counts and links the exception it opened', async () => {
    await w.page.goto(at(`integrations/${s.ledgerly}`));
    const runs = w.page.getByTestId('runs').locator('tbody tr');
    await runs.first().waitFor();
    expect(await runs.count()).toBe(1);
    await w.page.getByRole('button', { name: 'Start a reconciliation' }).click();
    await rendered(() => runs.count()).toBe(2);
    await rendered(async () => {
      await w.page.getByRole('button', { name: 'Refresh' }).click();
      return runs.first().locator('.badge').textContent();
    }).toBe('completed');
    const listed = await get(`/tenants/${ACME}/reconciliation-runs?connection_id=${s.ledgerly}`);
    expect(listed.items).toHaveLength(2);
    const [latest] = listed.items;
    // The same mismatch as the first run's: the same exception, not a second one.
    expect(latest).toMatchObject({
      status: 'completed',
      matched: 1,
      mismatched: 1,
      exception_ids: [s.mismatch],
    });
    expect(await runs.first().locator('td').allTextContents()).toEqual([
      expect.any(String),
      'completed',
      '1',
      '1',
      String(latest.missing_in_provider),
      String(latest.missing_locally),
      '1',
    ]);
    await screenIsClean(w, 'connection-runs');

    await runs.first().getByRole('link').click();
    await w.page.getByRole('heading', { name: 'Reconciliation run' }).waitFor();
    const opened = w.page.getByTestId('run-exceptions').locator('tbody tr');
    const exception = await get(`/tenants/${ACME}/exceptions/${s.mismatch}`);
    await rendered(() => opened.locator('td.title').allTextContents()).toEqual([exception.title]);
    await screenIsClean(w, 'reconciliation-run');
    await opened.getByRole('link').click();
    await w.page.getByRole('heading', { name: exception.title }).waitFor();
    expect(w.page.url()).toBe(at(`exceptions/${s.mismatch}`));
  });

  it('connects Xero by OAuth: the consent page, the callback, and back to the connection', async () => {
    await w.page.goto(at(`integrations/${s.xero}`));
    // The sandbox provider's consent page names no icon, so the browser's ask for its
    // /favicon.ico is a 404 there: the only error let through, and only from that origin.
    const errors: string[] = [];
    const onConsole = (m: { type(): string; location(): { url: string } }) => {
      if (m.type() === 'error') errors.push(m.location().url);
    };
    w.page.on('console', onConsole);
    await w.page.getByRole('button', { name: 'Connect to Xero' }).click();
    // The sandbox's consent page (not the console): allow, and the provider sends the browser to
    // the service's callback, whose page leads back to the connection.
    await w.page.getByRole('heading', { name: 'xero sandbox' }).waitFor();
    await w.page.getByRole('link', { name: 'Allow' }).click();
    await w.page.getByRole('heading', { name: 'Connected' }).waitFor();
    expect(new URL(w.page.url()).pathname).toBe('/oauth/callback');
    expect(await w.page.textContent('body')).toContain('Xero is connected');
    await w.page.getByRole('link', { name: 'Back to the connection' }).click();
    w.page.off('console', onConsole);
    for (const url of errors) {
      expect(new URL(url).pathname).toBe('/favicon.ico');
      expect(new URL(url).origin).not.toBe(new URL(h.rt.baseUrl).origin);
    }
    onlyFailedLoads(w, 404);

    // Still signed in (the session is this tab's), on the connection's page, now authorized.
    await w.page.getByRole('heading', { name: 'Xero books' }).waitFor();
    expect(w.page.url()).toBe(at(`integrations/${s.xero}`));
    await rendered(() => w.page.getByTestId('secret-configured').textContent()).toBe('yes');
    await rendered(() => w.page.getByTestId('config').textContent()).toContain(
      SANDBOX_ORGANISATIONS.xero.tenantId,
    );
    await w.page.getByRole('button', { name: 'Connect to Xero again' }).waitFor();
    const c = await get(`/tenants/${ACME}/integration-connections/${s.xero}`);
    expect(c).toMatchObject({
      secret_configured: true,
      config: { organisation_id: SANDBOX_ORGANISATIONS.xero.tenantId },
    });
    const audit = await get(
      `/tenants/${ACME}/audit-events?entity_type=integration_connection&entity_id=${s.xero}`,
    );
    expect(audit.items[0]).toMatchObject({
      event_type: 'integration_connection.authorized',
      actor_id: h.seed.users.olivia,
    });
    expect(w.problems).toEqual([]);
  });

  it('offers an operator the health but no action the role may not take', async () => {
    const sam = await openPage(h);
    try {
      await signIn(sam, h, 'sam', `/console/t/${ACME}/integrations`);
      await sam.page.getByTestId('connections').waitFor();
      await sam.page.getByTestId('catalog').waitFor();
      expect(await sam.page.getByRole('link', { name: /^Add a / }).count()).toBe(0);
      await sam.page.getByRole('link', { name: 'Ledgerly books' }).click();
      await sam.page.getByTestId('health').waitFor();
      await sam.page.getByTestId('schedule').waitFor();
      for (const name of [
        'Run diagnostics',
        'Save schedule',
        'Replace secret',
        'Start a reconciliation',
        'Disable',
        'Delete…',
      ])
        expect(await sam.page.getByRole('button', { name }).count(), name).toBe(0);
      expect(await sam.page.getByTestId('runs').count()).toBe(0);
      expect(sam.problems).toEqual([]);
    } finally {
      await sam.context.close();
    }
  });

  it('disables a connection, enables it again and deletes it after a second click, each read back', async () => {
    const made = await api().call<any>('POST', `/tenants/${ACME}/integration-connections`, {
      token: oliviaToken,
      body: {
        adapter_key: 'crm',
        name: 'Scratch CRM',
        config: { workspace: 'acme' },
        secret: { api_key: 'crm-scratch-1d4e' },
      },
    });
    expect(made.status).toBe(201);
    const path = `/tenants/${ACME}/integration-connections/${made.body.id}`;
    await w.page.goto(at(`integrations/${made.body.id}`));
    const lifecycle = w.page.getByTestId('lifecycle');
    await lifecycle.getByRole('button', { name: 'Disable' }).click();
    await lifecycle.getByRole('button', { name: 'Enable again' }).waitFor();
    expect((await get(path)).status).toBe('disabled');
    await lifecycle.getByRole('button', { name: 'Enable again' }).click();
    await lifecycle.getByRole('button', { name: 'Disable' }).waitFor();
    expect((await get(path)).status).toBe('active');

    // The first click only asks, naming what goes; "Keep it" keeps it.
    await lifecycle.getByRole('button', { name: 'Delete…' }).click();
    await lifecycle.getByText('Delete Scratch CRM and its secret?').waitFor();
    await screenIsClean(w, 'connection-delete');
    await lifecycle.getByRole('button', { name: 'Keep it' }).click();
    expect((await api().call('GET', path, { token: oliviaToken })).status).toBe(200);
    await lifecycle.getByRole('button', { name: 'Delete…' }).click();
    await lifecycle.getByRole('button', { name: 'Delete', exact: true }).click();
    await rendered(() => w.page.url()).toMatch(/\/integrations$/);
    expect((await api().call('GET', path, { token: oliviaToken })).status).toBe(404);
    expect(await w.page.getByTestId('connections').getByText('Scratch CRM').count()).toBe(0);
    expect(w.problems).toEqual([]);
  });

  it("a member of Acme only never sees Globex's connection, by deep link", async () => {
    const sam = await openPage(h);
    try {
      await signIn(sam, h, 'sam');
      for (const path of [
        `/console/t/${GLOBEX}/integrations`,
        `/console/t/${GLOBEX}/integrations/${s.globex}`,
        `/console/t/${ACME}/integrations/${s.globex}`,
      ]) {
        await sam.page.goto(h.url(path));
        await sam.page.getByRole('alert').filter({ hasText: 'Not found' }).first().waitFor();
        expect(await sam.page.content(), path).not.toContain('Globex ledger');
      }
      for (const p of sam.problems) expect(p).toMatch(/status of 404/);
    } finally {
      await sam.context.close();
    }
    // A run of one connection opened under another connection's path is refused too.
    const olivia = await openPage(h);
    try {
      await signIn(olivia, h, 'olivia', `/console/t/${ACME}/integrations/${s.xero}/runs/${s.run}`);
      await olivia.page.getByRole('alert').filter({ hasText: 'Not found' }).waitFor();
      expect(await olivia.page.getByTestId('run-exceptions').count()).toBe(0);
    } finally {
      await olivia.context.close();
    }
  });
});
