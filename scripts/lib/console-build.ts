import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type Metafile } from 'esbuild';

/** The console's sources (console/) and where `npm run build:console` writes it. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));
export const CONSOLE_DIST = join(CONSOLE_DIR, 'dist');

/**
 * Builds the console into `outDir`: `index.html`, `style.css` and one minified `app.js` (Preact,
 * preact-iso's router, the screens and the generated client's functions they call). Synchronous,
 * so CDK's local bundling (infra/constructs/demo-site.ts) can call it at synth time as the npm
 * script does; the whole build takes well under a second.
 */
export function buildConsole(outDir = CONSOLE_DIST): Metafile {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = buildSync({
    entryPoints: [join(CONSOLE_DIR, 'src/main.tsx')],
    outfile: join(outDir, 'app.js'),
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
  // The API is the console's own origin unless the deployment writes its URL here (DemoSite.publish).
  writeFileSync(join(outDir, 'config.json'), '{"apiUrl":null}\n');
  return result.metafile;
}
