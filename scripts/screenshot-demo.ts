import { fileURLToPath } from 'node:url';
import { launchChromium } from './lib/chromium';
import { serveDirectory } from './lib/static-server';

/**
 * `npm run screenshot:demo`: renders demo-static/ (served as plain files, the way S3 would) in
 * headless chromium and saves the first screen as docs/demo-screenshot.png for the README.
 * `--full` captures the whole page instead.
 */

const site = await serveDirectory(fileURLToPath(new URL('../demo-static/', import.meta.url)));
const out =
  process.argv.find((a) => a.endsWith('.png')) ??
  fileURLToPath(new URL('../docs/demo-screenshot.png', import.meta.url));
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 }, colorScheme: 'light' });
  await page.goto(site.url);
  await page.waitForSelector('body[data-ready="true"]');
  await page.screenshot({ path: out, fullPage: process.argv.includes('--full') });
  console.log(`saved ${out}`);
} finally {
  await browser.close();
  await site.close();
}
