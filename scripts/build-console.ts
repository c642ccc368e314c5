import { statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { buildConsole, CONSOLE_DIST } from './lib/console-build';

/**
 * `npm run build:console`: the operator console (console/) as static files in console/dist/,
 * which `npm start` serves at /console/ and the cloud deploys under /console/ of the demo site.
 */
const started = performance.now();
buildConsole();
// The first screen's files, then the operational view's (loaded only by that screen).
const sizes = ['app.js', 'style.css', 'index.html', 'charts.js', 'uplot.css'].map(
  (f) => `${f} ${(statSync(join(CONSOLE_DIST, f)).size / 1024).toFixed(1)} KB`,
);
console.log(
  `${relative(process.cwd(), CONSOLE_DIST) || CONSOLE_DIST}: ${sizes.join(', ')} (${Math.round(performance.now() - started)} ms)`,
);
