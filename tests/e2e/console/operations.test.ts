import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeBackground } from '#local/background';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { until } from '#tests/support/e2e';
import { client } from '#tests/support/http';
import {
  axeViolations,
  type ConsoleHarness,
  openPage,
  rendered,
  signIn,
  startConsole,
  type Watched,
  screenIsClean,
} from '#tests/support/console';
import { ACME, GLOBEX, PEOPLE } from '#tests/support/console-seed';

/**
 * docs/api.md, "The operator console", the operational view: `GET /ops/metrics` charted for a
 * platform admin, refreshed while the page is open; not offered to a tenant's members, whose
 * deep link says so. Each page is checked with axe-core and for console errors and CSP
 * violations (uPlot styles its elements itself: none may be refused).
 */

let h: ConsoleHarness;
const api = () => client(h.rt.baseUrl);
const metrics = async () => (await api().call<any>('GET', '/ops/metrics', { token: h.seed.adminToken })).body;

beforeAll(async () => {
  h = await startConsole();
});
afterAll(async () => {
  await h?.stop();
});

/** The "Now" cell of one line of one chart's table of values. */
const now = (w: Watched, chart: string, line: string) =>
  w.page.getByTestId(`metric-${chart}`).locator(`tr[data-line="${line}"] td.now`);
/** The tab hidden or shown, as the browser says it when the user switches tabs. */
const visibility = (w: Watched, state: 'hidden' | 'visible') =>
  w.page.evaluate((s) => {
    const doc = (globalThis as any).document;
    Object.defineProperty(doc, 'visibilityState', { value: s, configurable: true });
    doc.dispatchEvent(new (globalThis as any).Event('visibilitychange'));
  }, state);
const readings = async (w: Watched) =>
  Number((await w.page.getByTestId('readings').textContent())?.match(/^(\d+) reading/)?.[1]);

describe('console operational view', { timeout: 60_000 }, () => {
  it('charts /ops/metrics for a platform admin and shows a new dead letter and review item after a refresh', async () => {
    const w = await openPage(h);
    const requested: string[] = [];
    w.page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    const metricsCalls = () => requested.filter((p) => p === '/ops/metrics').length;
    try {
      // The page's own timers on a clock the test moves: the poll is seen without waiting on it.
      await w.page.clock.install();
      await w.page.goto(h.url('/console/'));
      await w.page.getByLabel('Email').fill(h.rt.admin.email);
      await w.page.getByLabel('Password').fill(h.rt.admin.password);
      await w.page.getByRole('button', { name: 'Sign in' }).click();
      await w.page.getByRole('link', { name: 'Operations' }).click();
      await rendered(() => w.page.url()).toContain('/operations');
      // The API gives current values only: the page says its series are its own readings.
      await w.page.getByText('answers the current values only').waitFor();

      const before = await metrics();
      const notification = before.review_items_open.notification as number;
      const externalDlq = before.queues.find((q: { name: string }) => q.name === QUEUES.external).dlq_depth;
      await rendered(() => now(w, 'review', 'notification').textContent()).toBe(String(notification));
      await rendered(() => now(w, 'dead-letters', `${QUEUES.external} DLQ`).textContent()).toBe(
        String(externalDlq),
      );
      // Every chart is drawn (uPlot's canvas) under uPlot's stylesheet, loaded despite the CSP.
      await rendered(() => w.page.locator('.chart canvas').count()).toBe(4);
      expect(
        await w.page
          .locator('.chart .u-over')
          .first()
          .evaluate((e) => (globalThis as any).getComputedStyle(e).position),
      ).toBe('absolute');
      // uPlot comes with this screen, in files of its own: the first screen's app.js does not carry it.
      expect(requested).toEqual(expect.arrayContaining(['/console/charts.js', '/console/uplot.css']));
      await screenIsClean(w, 'operations');

      // A message dead-lettered on the external queue, and a notification gated into a review item.
      activeBackground()!.queues.queues.get(dlqName(QUEUES.external))!.send('{}');
      const olivia = await api().login(PEOPLE.olivia.email, PEOPLE.olivia.password);
      await api().call('POST', `/tenants/${ACME}/notifications`, {
        token: olivia,
        body: { channel: 'telegram', recipient: '778', body: 'Stock of SKU-20 is low' },
      });
      await until(
        async () => ((await metrics()).review_items_open.notification > notification ? true : undefined),
        'the gated notification to open a review item',
      );
      const seen = await readings(w);
      await w.page.getByRole('button', { name: 'Refresh now' }).click();
      await rendered(() => now(w, 'review', 'notification').textContent()).toBe(String(notification + 1));
      await rendered(() => now(w, 'dead-letters', `${QUEUES.external} DLQ`).textContent()).toBe(
        String(externalDlq + 1),
      );
      expect(await readings(w)).toBe(seen + 1);
      // The series keeps the readings since the page opened: the highest seen is the new count.
      expect(
        await w.page
          .getByTestId('metric-review')
          .locator('tr[data-line="notification"] td')
          .nth(1)
          .textContent(),
      ).toBe(String(notification + 1));

      // The poll: one reading per interval (15 s by default) while the tab is visible...
      const polled = await readings(w);
      await w.page.clock.runFor(15_000);
      await rendered(() => readings(w)).toBe(polled + 1);
      // ...none while it is hidden, and one at once when it is visible again.
      await visibility(w, 'hidden');
      await w.page.getByText('paused while this tab is hidden').waitFor();
      const callsHidden = metricsCalls();
      await w.page.clock.runFor(60_000);
      // A round trip to the page after four intervals went by: a request a timer made would have
      // been reported before its answer (the protocol keeps the page's messages in order).
      await w.page.evaluate(() => 0);
      expect(metricsCalls()).toBe(callsHidden);
      await visibility(w, 'visible');
      await rendered(() => readings(w)).toBe(polled + 2);
      expect(w.problems).toEqual([]);

      // The pace is the URL's (?every=N seconds), as a bookmark keeps it.
      await w.page.getByLabel('Read every').selectOption('5');
      await rendered(() => w.page.url()).toContain('every=5');
      const paced = await readings(w);
      await w.page.clock.runFor(5_000);
      await rendered(() => readings(w)).toBeGreaterThan(paced);
      expect(w.problems).toEqual([]);
    } finally {
      await w.context.close();
    }
  });

  it('is not offered to a tenant member, not even its owner; the deep link, in their tenant or another, says so and asks nothing', async () => {
    const w = await openPage(h);
    const metricsCalls: string[] = [];
    w.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/ops/metrics') metricsCalls.push(r.url());
    });
    try {
      await signIn(w, h, 'olivia');
      await w.page.getByRole('link', { name: 'Audit log' }).waitFor();
      expect(
        await w.page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allTextContents(),
      ).not.toContain('Operations');
      for (const tenant of [ACME, GLOBEX]) {
        await w.page.goto(h.url(`/console/t/${tenant}/operations`));
        await w.page.getByText('for platform administrators only').waitFor();
        expect(await w.page.getByTestId('metric-review').count()).toBe(0);
      }
      await screenIsClean(w, 'operations-not-offered');
      // A member of Acme only, by deep link into a tenant not theirs: the same sentence, no figure.
      await w.page.getByRole('button', { name: 'Sign out' }).click();
      await w.page.getByLabel('Email').waitFor();
      await signIn(w, h, 'sam', `/console/t/${GLOBEX}/operations`);
      await rendered(() => w.page.url()).toContain(`/console/t/${GLOBEX}/operations`);
      await w.page.getByText('for platform administrators only').waitFor();
      expect(await w.page.locator('.chart, table.values').count()).toBe(0);
      expect(metricsCalls).toEqual([]);
      // Only the header's own 404 (Globex's unread count is not Sam's to read), which Chromium logs.
      for (const p of w.problems) expect(p).toMatch(/Failed to load resource: .* status of 404/);
      expect(await axeViolations(w.page)).toEqual([]);
    } finally {
      await w.context.close();
    }
  });
});
