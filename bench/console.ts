import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../scripts/lib/chromium';
import { buildConsole } from '../scripts/lib/console-build';
import { CONSOLE_BUDGET, type ConsoleFigures } from './lib/console';

/**
 * The console part of `npm run bench` (`npx tsx bench/console.ts` alone): prints ConsoleFigures
 * as JSON. On the local runtime over DynamoDB Local, with a tenant of 100 exceptions:
 *
 * - the first screen's bytes: index.html, app.js and style.css as built, gzipped (level 9, what
 *   CloudFront's compression approaches);
 * - the exceptions list usable: a full navigation to /console/t/<tenant>/exceptions with a session,
 *   from the navigation's start to the first row on screen, in Chromium's own clock
 *   (performance.now() of the page, whose origin is the navigation start); median of 10;
 * - 100 rows rendered: from the list's data arriving (`exceptions:data`) to the effect after
 *   the paint of its rows (`exceptions:rendered`), performance marks the screen sets; and, apart,
 *   to the rows being in the DOM (`exceptions:committed`, before the paint): the difference is
 *   the browser's wait for its next frame, which grows with the machine's load.
 */
process.env.OPS_LOCAL_QUIET = '1';
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const { startDynamoLocal } = await import('#local/dynamodb-local');
const { startRuntime } = await import('#local/runtime');
const { client } = await import('#tests/support/http');

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 10);
const ROWS = 100;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return Math.round((s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) * 10) / 10;
};

const loadAtStart = Number(loadavg()[0]!.toFixed(2));
const dir = await mkdtemp(join(tmpdir(), 'ops-console-bench-'));
buildConsole(dir);
const files: ConsoleFigures['firstScreen']['files'] = {};
for (const name of ['index.html', 'app.js', 'style.css']) {
  const bytes = await readFile(join(dir, name));
  files[name] = { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
}
const gzipKB = Math.round((Object.values(files).reduce((n, f) => n + f.gzipBytes, 0) / 1024) * 10) / 10;

const dynamo = await startDynamoLocal();
const admin = { email: 'admin@bench.test', password: randomBytes(12).toString('base64url') };
const runtime = await startRuntime({
  endpoint: dynamo.endpoint,
  tableName: 'console-bench',
  bootstrapAdmin: admin,
  consoleDir: dir,
  env: { ...process.env },
});
const browser = await launchChromium();
try {
  const api = client(runtime.url);
  const token = await api.login(admin.email, admin.password);
  await api.call('POST', '/tenants', { token, body: { id: 'bench', name: 'Bench Ltd' } });
  for (let i = 0; i < ROWS; i++)
    await api.call('POST', '/tenants/bench/exceptions', {
      token,
      body: {
        exception_type: 'payment.amount_mismatch',
        subject_type: 'invoice',
        subject_id: `INV-${1000 + i}`,
        title: `Payment short on INV-${1000 + i}`,
        summary: 'Bank shows less than the invoice total.',
        severity: (['critical', 'warning', 'info'] as const)[i % 3],
      },
    });

  const usable: number[] = [];
  const rendered: number[] = [];
  const committed: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    // A fresh context each time: nothing cached, the session handed over as sessionStorage.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(
      (t) => (globalThis as any).sessionStorage.setItem('ops-console-token', t),
      token,
    );
    const page = await context.newPage();
    await page.goto(`${runtime.url}/console/t/bench/exceptions?limit=${ROWS}`);
    await page
      .locator('[data-testid="exceptions"] tbody tr')
      .nth(ROWS - 1)
      .waitFor();
    // No named function inside: tsx would wrap it in a helper the page does not have.
    const timing = await page.evaluate(() =>
      ['exceptions:data', 'exceptions:rendered', 'exceptions:committed'].map(
        (name) => (globalThis as any).performance.getEntriesByName(name)[0]?.startTime as number | undefined,
      ),
    );
    const [data, paintedAt, committedAt] = timing;
    if (data === undefined || paintedAt === undefined || committedAt === undefined)
      throw new Error('marks missing');
    usable.push(Math.round(paintedAt));
    rendered.push(Math.round((paintedAt - data) * 10) / 10);
    committed.push(Math.round((committedAt - data) * 10) / 10);
    await context.close();
  }
  const figures: ConsoleFigures = {
    firstScreen: { files, gzipKB },
    exceptionsUsableMs: { median: median(usable), samples: usable },
    rowsRenderedMs: { rows: ROWS, median: median(rendered), samples: rendered },
    rowsInDomMs: { median: median(committed), samples: committed },
    loadAverage: { start: loadAtStart, end: Number(loadavg()[0]!.toFixed(2)) },
    budgets: CONSOLE_BUDGET,
    withinBudget: {
      firstScreen: gzipKB <= CONSOLE_BUDGET.firstScreenGzipKB,
      exceptionsUsable: median(usable) <= CONSOLE_BUDGET.exceptionsUsableMs,
      rowsRendered: median(rendered) <= CONSOLE_BUDGET.rowsRenderedMs,
    },
  };
  console.log(JSON.stringify(figures, null, 2));
} finally {
  await browser.close();
  await runtime.stop();
  await dynamo.stop();
  await rm(dir, { recursive: true, force: true });
}
