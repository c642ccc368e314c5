import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { type SwitchableReceiver, switchableReceiver } from '#tests/support/console-webhooks';

/**
 * docs/api.md, "The operator console", the webhook endpoints: create with the secret shown once,
 * the delivery log with each message's attempts, resend, recover, test, rotate and enable again,
 * in a real browser against the local runtime, whose workers deliver to a loopback receiver
 * through the local queues. Each journey reads the API's state after; waits are on what the page
 * shows, never on time.
 */

let h: ConsoleHarness;
let w: Watched;
let rx: SwitchableReceiver;
let oliviaToken: string;
const api = () => client(h.rt.baseUrl);
const get = async (path: string, token = oliviaToken) => (await api().call<any>('GET', path, { token })).body;
const acme = (path: string) => `/tenants/${ACME}${path}`;

beforeAll(async () => {
  [h, rx] = await Promise.all([startConsole(), switchableReceiver()]);
  oliviaToken = await api().login(PEOPLE.olivia.email, PEOPLE.olivia.password);
  w = await openPage(h);
});
afterAll(async () => {
  await w?.context.close();
  await h?.stop();
  await rx?.close();
});

/** Everything the page still holds of `secret`: its DOM, its storage, its URL and history entry. */
const traces = (secret: string) =>
  w.page.evaluate((s) => {
    const g = globalThis as any;
    const stores = [g.sessionStorage, g.localStorage].flatMap((store) =>
      Array.from({ length: store.length }, (_, i) => store.getItem(store.key(i)) ?? ''),
    );
    return [
      g.document.documentElement.outerHTML,
      g.location.href,
      JSON.stringify(g.history.state ?? null),
      ...stores,
    ].filter((text: string) => text.includes(s)).length;
  }, secret);

const messageRow = (id: string) =>
  w.page.locator(`[data-testid="webhook-messages"] tr[data-message="${id}"]`);

let erpId: string;
let erpSecret: string;

// A browser under a loaded machine: a journey of many steps gets a minute before it is called hung.
describe('console webhook endpoints', { timeout: 60_000 }, () => {
  it('creates an endpoint, makes a local receiver fail, sees the attempts, fixes the receiver and resends', async () => {
    await w.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.url('') });
    await signIn(w, h, 'olivia');
    await w.page.getByRole('link', { name: 'Webhooks' }).click();
    await w.page.getByText('No webhook endpoints yet.').waitFor();
    await w.page.getByRole('button', { name: 'New endpoint' }).click();

    // The event types are the catalog's, each with its description.
    const catalog = await get('/event-types');
    const boxes = w.page.locator('ul.event-types input[type="checkbox"]');
    await rendered(() => boxes.count()).toBe(catalog.items.length + 1);
    await expect(
      w.page.getByRole('checkbox', { name: 'exception.created' }).getAttribute('aria-describedby'),
    ).resolves.toBe('type-exception.created');
    const created = catalog.items.find((t: { type: string }) => t.type === 'exception.created');
    expect(await w.page.locator('ul.event-types').textContent()).toContain(created.description);

    // A private address is refused beside the URL (422), and nothing is stored.
    await w.page.getByLabel('URL').fill('https://10.0.0.7/hooks');
    await w.page.getByRole('checkbox', { name: 'exception.created' }).check();
    await w.page.getByRole('button', { name: 'Create endpoint' }).click();
    await rendered(() => w.page.locator('#endpoint-url-error').textContent()).toBeTruthy();
    expect((await get(acme('/webhook-endpoints'))).items).toEqual([]);
    onlyFailedLoads(w, 422);
    await screenIsClean(w, 'webhook-new');

    // The receiver fails: 503, with a Retry-After of an hour so that no automatic retry races
    // the resend below.
    rx.answer('/erp', 503, { 'retry-after': '3600' });
    await w.page.getByLabel('URL').fill(rx.url('/erp'));
    await w.page.getByLabel('Description').fill('ERP: orders and invoices');
    await w.page.getByRole('button', { name: 'Create endpoint' }).click();
    const shown = w.page.getByTestId('secret');
    await shown.waitFor();
    erpSecret = (await shown.textContent())!;
    expect(erpSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await screenIsClean(w, 'webhook-secret');
    await w.page.getByRole('button', { name: 'Copy' }).click();
    await w.page.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
    expect(await w.page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(erpSecret);

    const listed = (await get(acme('/webhook-endpoints'))).items;
    expect(listed).toEqual([
      expect.objectContaining({
        url: rx.url('/erp'),
        description: 'ERP: orders and invoices',
        event_types: ['exception.created'],
        status: 'active',
      }),
    ]);
    expect(listed[0]).not.toHaveProperty('secret');
    erpId = listed[0].id;

    // Dismissed, the secret is nowhere in the page: not the DOM, a store, the URL or history.
    expect(await traces(erpSecret)).toBeGreaterThan(0);
    await w.page.getByRole('button', { name: /hide the secret/ }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await traces(erpSecret)).toBe(0);
    // The focus, on the button that went with the panel, is back at the content.
    expect(await w.page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe('main');
    const rows = w.page.getByTestId('webhook-endpoints').locator('tbody tr');
    await rendered(() => rows.count()).toBe(1);
    await screenIsClean(w, 'webhooks');

    await w.page.getByRole('link', { name: rx.url('/erp') }).click();
    await w.page.getByRole('heading', { name: rx.url('/erp') }).waitFor();
    expect(await traces(erpSecret)).toBe(0);
    await w.page.getByRole('button', { name: 'Send a test' }).click();
    await w.page.getByRole('status').filter({ hasText: 'Test message queued.' }).waitFor();
    // The attempt lands through the outbox, the relay and the external worker: the page reads the
    // log again until it does.
    const failedAttempt = w.page.locator('[data-testid="webhook-messages"] table.attempts tbody tr');
    await rendered(() => failedAttempt.first().textContent()).toMatch(/503.*ms.*http_503/);
    const [message] = (await get(acme(`/webhook-endpoints/${erpId}/messages`))).items;
    expect(message).toMatchObject({
      event_type: 'webhook.test',
      status: 'retrying',
      attempts: [expect.objectContaining({ status_code: 503, error_code: 'http_503' })],
    });
    const row = messageRow(message.id);
    expect(await row.locator('.badge').textContent()).toBe('retrying');
    await screenIsClean(w, 'webhook-endpoint');

    // Fixed, and resent: the same message (the same webhook-id) arrives and is delivered.
    rx.answer('/erp', 200);
    await row.getByRole('button', { name: `Resend webhook.test ${message.id}` }).click();
    await rendered(() => row.locator('.badge').textContent()).toBe('delivered');
    await rendered(() => row.locator('table.attempts tbody tr').count()).toBe(2);
    const cells = await row.locator('table.attempts tbody tr').nth(1).locator('td').allTextContents();
    expect(cells.slice(1)).toEqual(['200', expect.stringMatching(/^\d+ ms$/), '']);
    const after = (await get(acme(`/webhook-endpoints/${erpId}/messages`))).items;
    expect(after).toEqual([
      expect.objectContaining({
        id: message.id,
        status: 'delivered',
        attempts: [
          expect.objectContaining({ status_code: 503 }),
          expect.objectContaining({ status_code: 200, error_code: null }),
        ],
      }),
    ]);
    const arrived = rx.received.filter((r) => r.path === '/erp');
    expect(arrived.map((r) => r.headers['webhook-id'])).toEqual([message.id, message.id]);
    // The secret the panel showed (and copied) is the one that signs.
    const last = arrived[1]!;
    expect(new Webhook(erpSecret).verify(last.body, last.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
    });
    const audit = await get(acme(`/audit-events?entity_type=webhook_message&entity_id=${message.id}`));
    expect(audit.items.map((e: { event_type: string }) => e.event_type)).toEqual(['webhook_message.resent']);

    // The status filter is in the URL, and the rows are the API's answer to it.
    await w.page.getByLabel('Status').selectOption('failed');
    await rendered(() => w.page.url()).toContain('status=failed');
    await w.page.getByText('No failed messages.').waitFor();
    await w.page.getByLabel('Status').selectOption('delivered');
    await rendered(() => w.page.url()).toContain('status=delivered');
    await messageRow(message.id).waitFor();
    expect(w.problems).toEqual([]);
  });

  it('rotates the secret: the new one shown once, both signing for 24 h until the time it says', async () => {
    await w.page.goto(h.url(`/console/t/${ACME}/webhooks/${erpId}`));
    await w.page.getByRole('button', { name: 'Rotate secret' }).click();
    const shown = w.page.getByTestId('secret');
    await shown.waitFor();
    const fresh = (await shown.textContent())!;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(erpSecret);
    const endpoint = await get(acme(`/webhook-endpoints/${erpId}`));
    const stops = new Date(Date.parse(endpoint.secret_rotated_at) + 24 * 3600 * 1000).toISOString();
    expect(await w.page.getByTestId('rotation-overlap').locator('time').getAttribute('datetime')).toBe(stops);
    expect(await w.page.getByTestId('rotation-overlap').textContent()).toContain('Both secrets sign');

    // A test sent now carries both signatures: either secret verifies it.
    const before = rx.received.length;
    await w.page.getByRole('button', { name: 'Send a test' }).click();
    await rendered(() => rx.received.length).toBeGreaterThan(before);
    const last = rx.received.at(-1)!;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [fresh, erpSecret])
      expect(new Webhook(secret).verify(last.body, last.headers as Record<string, string>)).toBeTruthy();

    await w.page.getByRole('button', { name: /hide the secret/ }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await traces(fresh)).toBe(0);
    await rendered(() => w.page.locator('dl.facts').textContent()).toContain(
      'the one before also signs until',
    );
    expect(w.problems).toEqual([]);
  });

  it('a 410 disables the endpoint and the page says why; enabled again, recover resends what failed', async () => {
    rx.answer('/chat', 410);
    const made = await api().call<any>('POST', acme('/webhook-endpoints'), {
      token: oliviaToken,
      body: { url: rx.url('/chat'), description: 'Chat bot', event_types: ['*'] },
    });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    await w.page.goto(h.url(`/console/t/${ACME}/webhooks/${id}`));
    await w.page.getByText('No messages yet: send a test to see one.').waitFor();
    // The receiver holds its answer until the page has shown the message on its way and the
    // endpoint active: the 410 and the disabling then reach the page only by its reading again.
    rx.hold('/chat');
    await w.page.getByRole('button', { name: 'Send a test' }).click();
    const onItsWay = w.page.getByTestId('webhook-messages').locator('tbody tr .badge').first();
    await rendered(() => onItsWay.textContent()).toBe('pending');
    expect(await w.page.getByTestId('endpoint-status').textContent()).toContain('active');
    rx.release('/chat');
    await w.page.getByTestId('disabled').filter({ hasText: 'the receiver answered 410 Gone' }).waitFor();
    expect(await w.page.getByTestId('endpoint-status').textContent()).toContain('disabled');
    expect(await get(acme(`/webhook-endpoints/${id}`))).toMatchObject({
      status: 'disabled',
      disabled_reason: 'gone',
    });
    const [failed] = (await get(acme(`/webhook-endpoints/${id}/messages`))).items;
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: [expect.objectContaining({ status_code: 410 })],
    });

    rx.answer('/chat', 200);
    await w.page.getByRole('button', { name: 'Enable again' }).click();
    await w.page.getByTestId('disabled').waitFor({ state: 'detached' });
    expect(await get(acme(`/webhook-endpoints/${id}`))).toMatchObject({
      status: 'active',
      disabled_reason: null,
    });

    // An empty time is the service's 422 on `since`, beside the field; nothing is queued.
    await w.page.getByLabel('Resend failed since').fill('');
    await w.page.getByRole('button', { name: 'Recover' }).click();
    await rendered(() => w.page.locator('#recover-since-error').textContent()).toBeTruthy();
    onlyFailedLoads(w, 422);
    expect((await get(acme(`/webhook-endpoints/${id}/messages`))).items[0].status).toBe('failed');

    // A day back (the failed message is minutes old).
    const dayBack = await w.page.evaluate(() => {
      const d = new Date(Date.now() - 24 * 3600 * 1000);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    });
    await w.page.getByLabel('Resend failed since').fill(dayBack);
    await w.page.getByRole('button', { name: 'Recover' }).click();
    await w.page.getByRole('status').filter({ hasText: '1 failed message queued again.' }).waitFor();
    const row = messageRow(failed.id);
    await rendered(() => row.locator('.badge').textContent()).toBe('delivered');
    expect((await get(acme(`/webhook-endpoints/${id}/messages`))).items).toEqual([
      expect.objectContaining({
        id: failed.id,
        status: 'delivered',
        attempts: [
          expect.objectContaining({ status_code: 410 }),
          expect.objectContaining({ status_code: 200 }),
        ],
      }),
    ]);
    const audit = await get(acme(`/audit-events?entity_type=webhook_endpoint&entity_id=${id}`));
    expect(audit.items.map((e: { event_type: string }) => e.event_type)).toEqual(
      expect.arrayContaining([
        'webhook_endpoint.disabled',
        'webhook_endpoint.updated',
        'webhook_endpoint.recovered',
      ]),
    );
    // The list says which endpoint is which, and why one was disabled (none is, now).
    await w.page.getByRole('link', { name: 'Webhook endpoints' }).click();
    await rendered(() => w.page.getByTestId('webhook-endpoints').locator('tbody tr').count()).toBe(2);
    expect(w.problems).toEqual([]);
  });

  it('an operator reads the endpoints and the log but is offered no action', async () => {
    const sam = await openPage(h);
    try {
      await signIn(sam, h, 'sam', `/console/t/${ACME}/webhooks`);
      await sam.page.getByTestId('webhook-endpoints').waitFor();
      expect(await sam.page.getByRole('button', { name: 'New endpoint' }).count()).toBe(0);
      await sam.page.getByRole('link', { name: rx.url('/erp') }).click();
      await sam.page.getByTestId('webhook-messages').waitFor();
      for (const name of ['Send a test', 'Rotate secret', 'Recover', /^Resend/])
        expect(await sam.page.getByRole('button', { name }).count(), String(name)).toBe(0);
      expect(await sam.page.getByRole('columnheader', { name: 'Resend' }).count()).toBe(0);
      expect(sam.problems).toEqual([]);
    } finally {
      await sam.context.close();
    }
  });

  it("a member of Acme only never sees Globex's endpoints or log, by deep link", async () => {
    const hidden = 'Globex payroll receiver';
    const made = await api().call<any>('POST', `/tenants/${GLOBEX}/webhook-endpoints`, {
      token: h.seed.adminToken,
      body: { url: rx.url('/globex-payroll'), description: hidden, event_types: ['*'] },
    });
    expect(made.status).toBe(201);
    const sam = await openPage(h);
    try {
      await signIn(sam, h, 'sam');
      for (const path of [
        `/console/t/${GLOBEX}/webhooks`,
        `/console/t/${GLOBEX}/webhooks/${made.body.id}`,
        `/console/t/${ACME}/webhooks/${made.body.id}`,
        `/console/t/${GLOBEX}/webhooks/${made.body.id}?status=failed`,
      ]) {
        await sam.page.goto(h.url(path));
        await sam.page.getByRole('alert').filter({ hasText: 'Not found' }).first().waitFor();
        const html = await sam.page.content();
        expect(html, path).not.toContain(hidden);
        expect(html, path).not.toContain('/globex-payroll');
      }
      for (const p of sam.problems) expect(p).toMatch(/status of 404/);
    } finally {
      await sam.context.close();
    }
  });
});
