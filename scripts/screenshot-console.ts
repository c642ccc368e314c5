import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './lib/chromium';
import { buildConsole } from './lib/console-build';

/**
 * `npm run screenshot:console`: one PNG per console screen in docs/console/, for the README and
 * for review. The local runtime on DynamoDB Local, the browser tests' data (the walkthrough's
 * Acme Trading and Olivia, tests/support/console-seed.ts), Olivia signed in, 1280x720.
 */
const out = process.env.CONSOLE_SHOTS_DIR ?? fileURLToPath(new URL('../docs/console/', import.meta.url));
process.env.OPS_LOCAL_QUIET = '1';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
// Loaded after the settings above: the handlers read them when their modules load.
const { startDynamoLocal } = await import('#local/dynamodb-local');
const { startRuntime } = await import('#local/runtime');
const { ACME, PEOPLE, seedConsole } = await import('#tests/support/console-seed');
const { seedWebhookShots, switchableReceiver } = await import('#tests/support/console-webhooks');
const { seedWorkflows } = await import('#tests/support/console-seed-workflows');
const { seedIntegrations } = await import('#tests/support/console-seed-integrations');

const dir = await mkdtemp(join(tmpdir(), 'ops-console-shots-'));
buildConsole(dir);
const dynamo = await startDynamoLocal();
const admin = { email: 'admin@example.com', password: randomBytes(12).toString('base64url') };
const runtime = await startRuntime({
  endpoint: dynamo.endpoint,
  tableName: 'console-screenshots',
  bootstrapAdmin: admin,
  consoleDir: dir,
  env: { ...process.env, OPS_LOCAL_QUIET: '1' },
});
const browser = await launchChromium();
try {
  const seed = await seedConsole(runtime.url, admin);
  await mkdir(out, { recursive: true });
  const page = await browser.newPage({
    viewport: { width: Number(process.env.CONSOLE_SHOTS_WIDTH ?? 1280), height: 720 },
    colorScheme: 'light',
  });
  const shot = async (name: string, fullPage = false) => {
    // The pictures show the page, not where the mouse or the caret happened to be.
    await page.mouse.move(0, 719);
    await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
    await page.screenshot({ path: join(out, `${name}.png`), fullPage });
    console.log(`saved docs/console/${name}.png`);
  };
  const go = (path: string, ready: string) =>
    page.goto(`${runtime.url}/console/t/${ACME}/${path}`).then(() => page.locator(ready).first().waitFor());

  await page.goto(`${runtime.url}/console/`);
  await page.getByLabel('Email').fill(PEOPLE.olivia.email);
  await shot('sign-in');
  await page.getByLabel('Password').fill(PEOPLE.olivia.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('exceptions').waitFor();
  await shot('exceptions');
  await go(`exceptions/${seed.exceptions.critical}`, 'ol.timeline li');
  await shot('exception-detail');
  await go('tasks?who=all', '[data-testid="tasks"]');
  await shot('tasks');
  await go('review', '[data-testid="review-items"]');
  await shot('review');
  await go('inbox', '[data-testid="inbox"]');
  await shot('inbox');
  await go('preferences', 'form.prefs');
  await shot('preferences');
  await go('audit', '[data-testid="audit"]');
  await shot('audit');

  // Webhooks: a receiver on loopback that failed once and took the resend, one that answered 410.
  const rx = await switchableReceiver();
  try {
    const erp = await seedWebhookShots(
      runtime.url,
      ACME,
      await page.evaluate(() => (globalThis as any).sessionStorage.getItem('ops-console-token') as string),
      rx,
    );
    await go('webhooks', '[data-testid="webhook-endpoints"]');
    await shot('webhooks');
    await page.getByRole('button', { name: 'New endpoint' }).click();
    await page.getByLabel('URL').fill('https://warehouse.acme.example/hooks/ops');
    await page.getByRole('checkbox', { name: 'document.status_changed' }).check();
    await shot('webhook-new');
    await go(`webhooks/${erp}`, 'table.attempts');
    await shot('webhook-endpoint');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByTestId('secret').waitFor();
    await shot('webhook-secret');
  } finally {
    await rx.close();
  }
  // Workflow rules, runs and timers: their own records on top of the seed (a rule whose runs failed).
  const wf = await seedWorkflows(runtime.url, seed);
  await go('rules', '[data-testid="rules"]');
  await shot('rules');
  await go(`rules/${wf.rules.failing}/edit`, 'form.rule-form');
  await shot('rule-edit');
  await go(`rules/${wf.rules.failing}?status=failed`, '[data-testid="runs"]');
  await shot('rule-runs');
  await go(`runs/${wf.runs.failed[0]}`, '[data-testid="run-actions"]');
  await shot('run-failed');
  await go('timers', '[data-testid="timers"]');
  await shot('timers');
  // Integrations last: their seed adds a reconciliation exception the pictures above do not show.
  const hub = await seedIntegrations(runtime.url, seed.adminToken);
  await go('integrations', '[data-testid="catalog"]');
  await shot('integrations', true);
  await go(`integrations/${hub.ledgerly}`, '[data-testid="runs"]');
  await page.getByRole('button', { name: 'Run diagnostics' }).click();
  await page.getByTestId('checks').waitFor();
  await shot('connection', true);
  await page.getByRole('heading', { name: 'Reconciliation runs' }).scrollIntoViewIfNeeded();
  await shot('connection-runs');
  await go(`integrations/${hub.ledgerly}/runs/${hub.run}`, '[data-testid="run-exceptions"] td.title a');
  await page.getByTestId('run-exceptions').getByText('PAY-1002', { exact: false }).first().waitFor();
  await shot('reconciliation-run');
  // Operations: the platform admin's, a few readings a second apart with a message dead-lettered
  // between them, so that the charts show a series.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password').fill(admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await go('operations?every=1', '.chart canvas');
  const readings = (n: number) =>
    page
      .getByTestId('readings')
      .getByText(new RegExp(`^${n} readings`))
      .waitFor();
  await readings(3);
  const { activeBackground } = await import('#local/background');
  activeBackground()!.queues.queues.get('external-delivery-dlq')!.send('{}');
  await readings(6);
  await shot('operations');
} finally {
  await browser.close();
  await runtime.stop();
  await dynamo.stop();
  await rm(dir, { recursive: true, force: true });
}
