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
import { ACME, PEOPLE } from '#tests/support/console-seed';

/**
 * docs/api.md, "The operator console": each screen in a real browser against the local runtime.
 * Each journey does the screen's main action and then reads the API's state; every screen is
 * checked with axe-core and for console errors and CSP violations; a picture of each is kept in
 * test-artifacts/console/.
 */

let h: ConsoleHarness;
let w: Watched;
let oliviaToken: string;
const api = () => client(h.rt.baseUrl);
const get = async (path: string, token = oliviaToken) => (await api().call<any>('GET', path, { token })).body;

beforeAll(async () => {
  h = await startConsole();
  oliviaToken = await api().login(PEOPLE.olivia.email, PEOPLE.olivia.password);
  w = await openPage(h);
});
afterAll(async () => {
  await w?.context.close();
  await h?.stop();
});

// A browser under a loaded machine: a journey of many steps gets a minute before it is called hung.
describe('console screens', { timeout: 60_000 }, () => {
  it('signs in to the exceptions list, newest first, filtered in the URL', async () => {
    await signIn(w, h, 'olivia');
    await rendered(() => w.page.url()).toContain(`/console/t/${ACME}/exceptions`);
    const rows = w.page.getByTestId('exceptions').locator('tbody tr');
    await rows.first().waitFor();
    const titles = await rows.locator('td.title').allTextContents();
    const listed = await get(`/tenants/${ACME}/exceptions`);
    expect(titles).toEqual(listed.items.map((x: { title: string }) => x.title));
    expect(titles[0]).toBe('Payment short by 40.00');
    await screenIsClean(w, 'exceptions');

    // Pages by cursor, in the URL: two at a time, the next two, back to the first.
    await w.page.goto(h.url(`/console/t/${ACME}/exceptions?limit=2`));
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual(titles.slice(0, 2));
    await w.page.getByRole('link', { name: 'Next page' }).click();
    await rendered(() => w.page.url()).toContain('cursor=');
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual(titles.slice(2, 4));
    await w.page.getByRole('link', { name: 'First page' }).click();
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual(titles.slice(0, 2));
    await w.page.goto(h.url(`/console/t/${ACME}/exceptions`));

    await w.page.getByLabel('Severity').selectOption('critical');
    await rendered(() => w.page.url()).toContain('severity=critical');
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual(['Payment short by 40.00']);

    // The type filter, in the URL beside the others: the rows are the API's answer to ?type=.
    await w.page.getByLabel('Severity').selectOption('');
    const type = w.page.getByLabel('Type', { exact: true });
    await type.fill('invoice.overdue');
    await type.blur();
    await rendered(() => w.page.url()).toContain('type=invoice.overdue');
    const ofType = await get(`/tenants/${ACME}/exceptions?type=invoice.overdue`);
    expect(ofType.items.map((x: { title: string }) => x.title)).toEqual([
      'Invoice INV-1043 is 12 days overdue',
    ]);
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual([
      'Invoice INV-1043 is 12 days overdue',
    ]);
    await type.fill('');
    await type.blur();
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual(titles);
  });

  it('shows an exception with its evidence, escalation and timeline; acknowledges it with a note', async () => {
    const id = h.seed.exceptions.critical;
    await w.page.getByLabel('Severity').selectOption('');
    await w.page.getByRole('link', { name: 'Payment short by 40.00' }).click();
    await rendered(() => w.page.url()).toContain(`/exceptions/${id}`);
    await w.page.getByRole('heading', { name: 'Payment short by 40.00' }).waitFor();
    await rendered(() => w.page.getByTestId('escalation').textContent()).toMatch(/next level 1 at/);
    expect(await w.page.locator('table.kv').first().textContent()).toContain('960.00');
    await w.page.locator('ol.timeline li', { hasText: 'exception.created' }).waitFor();
    await screenIsClean(w, 'exception-detail');

    // A 422 names the field: the note is 2 to 255 characters.
    await w.page.getByLabel('Note').fill('x');
    await w.page.getByRole('button', { name: 'Acknowledge' }).click();
    await rendered(() => w.page.locator('#note-error').textContent()).toBeTruthy();
    expect((await get(`/tenants/${ACME}/exceptions/${id}`)).status).toBe('open');
    onlyFailedLoads(w, 422);

    await w.page.getByLabel('Note').fill('Asked the customer');
    await w.page.getByRole('button', { name: 'Acknowledge' }).click();
    await w.page.getByRole('button', { name: 'Acknowledge' }).waitFor({ state: 'detached' });
    expect((await get(`/tenants/${ACME}/exceptions/${id}`)).status).toBe('acknowledged');
    const audit = await get(`/tenants/${ACME}/audit-events?entity_type=exception&entity_id=${id}`);
    expect(audit.items[0].metadata_json).toContain('Asked the customer');
    await w.page.locator('ol.timeline li', { hasText: 'exception.status_changed' }).waitFor();
    expect(w.problems).toEqual([]);
  });

  it('says a record changed (409) and shows it again as it is now', async () => {
    const id = h.seed.exceptions.overdue;
    await w.page.goto(h.url(`/console/t/${ACME}/exceptions/${id}`));
    await w.page.getByRole('button', { name: 'Resolve' }).waitFor();
    const other = await api().call('POST', `/tenants/${ACME}/exceptions/${id}/status`, {
      token: h.seed.adminToken,
      body: { status: 'resolved', note: 'Paid meanwhile' },
    });
    expect(other.status).toBe(200);
    await w.page.getByRole('button', { name: 'Resolve' }).click();
    await w.page.getByRole('alert').filter({ hasText: 'changed since you loaded it' }).waitFor();
    await w.page.locator('dl.facts .badge-resolved').waitFor();
    onlyFailedLoads(w, 409);
  });

  it('shows the request id of a 5xx', async () => {
    const id = h.seed.exceptions.acknowledged;
    await w.page.route(`**/tenants/${ACME}/exceptions/${id}`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/problem+json',
        body: JSON.stringify({
          type: 'about:blank',
          title: 'Internal error',
          status: 500,
          code: 'internal',
          request_id: 'req-console-5xx',
        }),
      }),
    );
    await w.page.goto(h.url(`/console/t/${ACME}/exceptions/${id}`));
    await w.page.getByRole('alert').filter({ hasText: 'req-console-5xx' }).waitFor();
    await w.page.unroute(`**/tenants/${ACME}/exceptions/${id}`);
    onlyFailedLoads(w, 500);
  });

  it('tasks: mine and by status; moves my task on', async () => {
    await w.page.goto(h.url(`/console/t/${ACME}/exceptions`));
    await w.page.getByRole('link', { name: 'Tasks' }).click();
    const rows = w.page.getByTestId('tasks').locator('tbody tr');
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual(['Call Globex about INV-1042']);
    await screenIsClean(w, 'tasks');
    await w.page.getByRole('button', { name: 'Start: Call Globex about INV-1042' }).click();
    // Only an in-progress task offers Reopen (an open one has Done too, so waiting for Done raced).
    await w.page.getByRole('button', { name: 'Reopen: Call Globex about INV-1042' }).waitFor();
    expect((await get(`/tenants/${ACME}/tasks/${h.seed.tasks.mine}`)).status).toBe('in_progress');

    await w.page.getByLabel('Whose').selectOption('all');
    await w.page.getByLabel('Status').selectOption('open');
    await rendered(() => w.page.url()).toMatch(/who=all.*status=open|status=open.*who=all/);
    await rendered(() => rows.locator('td.title').allTextContents()).toEqual([
      'Review the Initech credit limit',
    ]);
    expect(w.problems).toEqual([]);
  });

  it('review queue: an open item by kind, with its subject and reason; discards it', async () => {
    await w.page.getByRole('link', { name: 'Review queue' }).click();
    await w.page.getByLabel('Kind').selectOption('notification');
    const row = w.page.getByTestId('review-items').locator('tbody tr', { hasText: 'gated' });
    await row.waitFor();
    await screenIsClean(w, 'review');
    await row.getByRole('button', { name: /^Discard/ }).click();
    await w.page.getByText('Nothing to review here.').waitFor();
    const items = await get(`/tenants/${ACME}/review-items?status=discarded`);
    expect(items.items.map((i: { id: string }) => i.id)).toEqual([h.seed.reviewItem]);
    expect(w.problems).toEqual([]);
  });

  it('inbox: the unread count in the header, one read, then all read', async () => {
    const count = w.page.getByRole('link', { name: /Inbox/ });
    await rendered(() => count.getAttribute('data-unread')).toBe('3');
    expect(await count.textContent()).toBe('Inbox3');
    await w.page.getByRole('link', { name: /Inbox/ }).click();
    const rows = w.page.getByTestId('inbox').locator('tbody tr');
    await rendered(() => rows.count()).toBe(3);
    await screenIsClean(w, 'inbox');
    await w.page.getByRole('button', { name: 'Mark read: Welcome to Acme Trading' }).click();
    await rendered(() => count.getAttribute('data-unread')).toBe('2');
    const welcome = h.seed.inbox[0]!;
    const all = await get(`/tenants/${ACME}/inbox?limit=10`);
    expect(
      all.items.find((m: { notification_id: string }) => m.notification_id === welcome).read_at,
    ).not.toBeNull();
    await w.page.getByRole('button', { name: 'Mark all read' }).click();
    await rendered(() => count.getAttribute('data-unread')).toBe('0');
    expect(await count.textContent()).toBe('Inbox');
    expect((await get(`/tenants/${ACME}/inbox/summary`)).unread).toBe(0);
    await w.page.getByText('Nothing unread.').waitFor();
    expect(w.problems).toEqual([]);
  });

  it('preferences: a 422 beside its field, then contacts, mutes and quiet hours saved', async () => {
    await w.page.getByRole('link', { name: 'Preferences' }).click();
    await w.page.getByRole('heading', { name: 'My preferences' }).waitFor();
    expect(await w.page.getByRole('checkbox', { name: 'security' }).isDisabled()).toBe(true);
    await w.page.getByRole('textbox', { name: 'SMS' }).fill('+4915112345678');
    await w.page.getByRole('checkbox', { name: 'documents' }).check();
    await w.page.getByRole('checkbox', { name: /Hold normal/ }).check();
    await w.page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
    await screenIsClean(w, 'preferences');
    await w.page.getByRole('button', { name: 'Save preferences' }).click();
    await rendered(() => w.page.locator('#timezone-error').textContent()).toBeTruthy();
    expect((await get(`/tenants/${ACME}/me/preferences`)).updated_at).toBeNull();
    onlyFailedLoads(w, 422);

    await w.page.getByLabel('Time zone').fill('Europe/Berlin');
    await w.page.getByRole('button', { name: 'Save preferences' }).click();
    await w.page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const prefs = await get(`/tenants/${ACME}/me/preferences`);
    expect(prefs).toMatchObject({
      contacts: { sms: '+4915112345678' },
      muted: [{ category: 'documents' }],
      quiet_hours: { start: '22:00', end: '07:00', timezone: 'Europe/Berlin' },
    });
    expect(w.problems).toEqual([]);
  });

  it('audit log by entity, as the API lists it', async () => {
    const id = h.seed.exceptions.critical;
    await w.page.getByRole('link', { name: 'Audit log' }).click();
    await w.page.getByTestId('audit').waitFor();
    await w.page.getByLabel('Entity type').fill('exception');
    await w.page.getByLabel('Entity id').fill(id);
    await w.page.getByRole('button', { name: 'Show' }).click();
    await rendered(() => w.page.url()).toContain(`entity_id=${id}`);
    const listed = await get(`/tenants/${ACME}/audit-events?entity_type=exception&entity_id=${id}`);
    const events = w.page.getByTestId('audit').locator('tbody tr td:nth-child(2)');
    await rendered(() => events.allTextContents()).toEqual(
      listed.items.map((e: { event_type: string }) => e.event_type),
    );
    await screenIsClean(w, 'audit');
  });

  it('offers no action the role may not take', async () => {
    const sue = await openPage(h);
    try {
      await signIn(sue, h, 'sue', `/console/t/${ACME}/exceptions/${h.seed.exceptions.critical}`);
      await sue.page.getByRole('heading', { name: 'Payment short by 40.00' }).waitFor();
      await sue.page.locator('ol.timeline li').first().waitFor();
      expect(await sue.page.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
      await sue.page.getByRole('link', { name: 'Tasks' }).click();
      await sue.page.getByLabel('Whose').selectOption('all');
      await sue.page.getByTestId('tasks').waitFor();
      expect(await sue.page.getByRole('columnheader', { name: 'Change status' }).count()).toBe(0);
      expect(sue.problems).toEqual([]);
    } finally {
      await sue.context.close();
    }
    const sam = await openPage(h);
    try {
      await signIn(sam, h, 'sam');
      await sam.page.getByTestId('exceptions').waitFor();
      expect(await sam.page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
      expect(sam.problems).toEqual([]);
    } finally {
      await sam.context.close();
    }
  });
});
