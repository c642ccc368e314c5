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
} finally {
  await browser.close();
  await runtime.stop();
  await dynamo.stop();
  await rm(dir, { recursive: true, force: true });
}
