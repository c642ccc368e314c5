import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type Metafile } from 'esbuild';

/** The console's sources (console/) and where `npm run build:console` writes it. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));
export const CONSOLE_DIST = join(CONSOLE_DIR, 'dist');

/** uPlot's own stylesheet, served beside the app and linked only by the operational view's charts. */
const UPLOT_CSS = createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css');

/**
 * Builds the console into `outDir`: `index.html`, `style.css` and one minified `app.js` (Preact,
 * preact-iso's router, the screens and the generated client's functions they call). Synchronous,
 * so CDK's local bundling (infra/constructs/demo-site.ts) can call it at synth time as the npm
 * script does; the whole build takes well under a second.
 *
 * The operational view's charts are a second entry, `charts.js` (uPlot, about 20 KB gzipped, and
 * a small wrapper that imports nothing else), which that screen loads by `import()` when it first
 * draws: the first screen never fetches it. A second entry rather than esbuild's code splitting:
 * splitting moves the code both sides share (Preact) into a chunk app.js must then fetch before
 * it runs, one more round trip on every first screen for a screen few members may open.
 */
export function buildConsole(outDir = CONSOLE_DIST): Metafile {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = buildSync({
    entryPoints: {
      app: join(CONSOLE_DIR, 'src/main.tsx'),
      charts: join(CONSOLE_DIR, 'src/screens/operations/charts.ts'),
    },
    outdir: outDir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(CONSOLE_DIR, 'tsconfig.json'),
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'style.css']) copyFileSync(join(CONSOLE_DIR, file), join(outDir, file));
  copyFileSync(UPLOT_CSS, join(outDir, 'uplot.css'));
  // The API is the console's own origin unless the deployment writes its URL here (DemoSite.publish).
  writeFileSync(join(outDir, 'config.json'), '{"apiUrl":null}\n');
  return result.metafile;
}
