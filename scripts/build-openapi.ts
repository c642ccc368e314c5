import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '#shared/api/openapi';

/**
 * `npm run build:openapi`: writes `openapi/openapi.json` from the operations manifest and its zod
 * schemas (the document `/openapi.json` serves). `--check` only reports drift (exit 1).
 */

const file = fileURLToPath(new URL('../openapi/openapi.json', import.meta.url));
const content = `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
const current = await readFile(file, 'utf8').catch(() => undefined);

if (process.argv.includes('--check')) {
  if (current !== content) {
    console.error('openapi/openapi.json is out of date; run npm run build:openapi');
    process.exit(1);
  }
  console.log('openapi/openapi.json is up to date');
} else {
  await mkdir(fileURLToPath(new URL('../openapi/', import.meta.url)), { recursive: true });
  if (current !== content) await writeFile(file, content);
  console.log(`openapi/openapi.json ${current === content ? 'unchanged' : 'written'}`);
}
