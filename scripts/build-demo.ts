import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoStaticFiles } from '#shared/demo/static-files';

/**
 * `npm run build:demo`: writes `demo-static/data/*.json` from shared/demo, the source the API
 * answers from, and removes data files that no longer belong. `--check` only reports drift
 * (exit 1), for CI.
 */

const dataDir = fileURLToPath(new URL('../demo-static/data/', import.meta.url));
const check = process.argv.includes('--check');

const files = demoStaticFiles();
await mkdir(dataDir, { recursive: true });
const present = (await readdir(dataDir)).filter((f) => f.endsWith('.json'));
const drift: string[] = [];

for (const [name, content] of Object.entries(files)) {
  const current = await readFile(join(dataDir, name), 'utf8').catch(() => undefined);
  if (current === content) continue;
  drift.push(name);
  if (!check) await writeFile(join(dataDir, name), content);
}
for (const name of present.filter((f) => !(f in files))) {
  drift.push(name);
  if (!check) await rm(join(dataDir, name));
}

if (check && drift.length > 0) {
  console.error(`demo-static/data is out of date (${drift.join(', ')}); run npm run build:demo`);
  process.exit(1);
}
console.log(
  check
    ? 'demo-static/data is up to date'
    : `demo-static/data: ${Object.keys(files).length} files, ${drift.length} changed`,
);
