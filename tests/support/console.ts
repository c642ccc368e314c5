import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launchChromium } from '../../scripts/lib/chromium';
import { buildConsole } from '../../scripts/lib/console-build';
import { type ConsoleSeed, PEOPLE, seedConsole } from './console-seed';
import { startRuntime, type TestRuntime } from './runtime';

/**
 * One local runtime serving a fresh build of the console (in a directory of its own, so two
 * files building at once never meet), the seeded data, and one browser: per test file, shared by
 * its tests (tests/e2e/console-*.test.ts).
 */
export interface ConsoleHarness {
  rt: TestRuntime;
  browser: Browser;
  seed: ConsoleSeed;
  url(path: string): string;
  stop(): Promise<void>;
}

export async function startConsole(): Promise<ConsoleHarness> {
  const dir = await mkdtemp(join(tmpdir(), 'ops-console-'));
  buildConsole(dir);
  const rt = await startRuntime({}, { consoleDir: dir });
  const [seed, browser] = await Promise.all([seedConsole(rt.baseUrl, rt.admin), launchChromium()]);
  return {
    rt,
    browser,
    seed,
    url: (path) => `${rt.baseUrl}${path}`,
    stop: async () => {
      await browser.close();
      await rt.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A page in a fresh context (its own sessionStorage) that records every console error, page
 * error and CSP violation. `allowed` lists console errors a test provokes on purpose (Chromium
 * logs every 4xx or 5xx answer to fetch as "Failed to load resource").
 */
export interface Watched {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

export async function openPage(h: ConsoleHarness): Promise<Watched> {
  const context = await h.browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: 'light',
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Runs in the page (the project's types have no DOM: `globalThis` stands for `window`).
  await page.addInitScript(() => {
    (globalThis as any).document.addEventListener(
      'securitypolicyviolation',
      (e: { violatedDirective: string; blockedURI: string }) =>
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return { context, page, problems };
}

export async function signIn(w: Watched, h: ConsoleHarness, who: keyof typeof PEOPLE, path = '/console/') {
  await w.page.goto(h.url(path));
  await w.page.getByLabel('Email').fill(PEOPLE[who].email);
  await w.page.getByLabel('Password').fill(PEOPLE[who].password);
  await w.page.getByRole('button', { name: 'Sign in' }).click();
  await w.page.getByRole('button', { name: 'Sign out' }).waitFor();
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page as it is. Its source is evaluated
 * through the DevTools protocol, which the page's CSP does not govern (a <script> tag it would
 * refuse, rightly).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(o: unknown): Promise<any> } }).axe;
    return axe.run({ resultTypes: ['violations'] });
  });
  return (result.violations as { id: string; impact: string; nodes: { target: string[] }[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Where the tests keep each screen's picture (`npm run screenshot:console` writes docs/console/). */
export const ARTIFACTS = new URL('../../test-artifacts/console/', import.meta.url);

/**
 * `expect.poll` on what the page shows, bounded like the Playwright waits beside it (30 s) and
 * not by vitest's default second: a page load or list reload under a loaded machine takes longer
 * than that (the exceptions list failed its first page so, with both console files running).
 */
export const rendered = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });

/**
 * The console errors a test provoked on purpose: Chromium logs each 4xx or 5xx answer to fetch as
 * "Failed to load resource". Only those, with the expected statuses, are let through (and cleared).
 */
export function onlyFailedLoads(w: Watched, ...statuses: number[]) {
  for (const p of w.problems)
    expect(p).toMatch(
      new RegExp(`Failed to load resource: the server responded with a status of (${statuses.join('|')})`),
    );
  w.problems.length = 0;
}

/**
 * Every screen ends here: a picture of the whole page in test-artifacts/console/, no serious or
 * critical axe violation, no console error, no CSP violation.
 */
export async function screenIsClean(w: Watched, name: string) {
  await mkdir(ARTIFACTS, { recursive: true });
  await w.page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage: true });
  expect(await axeViolations(w.page), name).toEqual([]);
  expect(w.problems, name).toEqual([]);
}
