import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serviceOpenApi } from '#shared/demo/openapi';
import { diffOpenApi } from './lib/openapi-diff';

/**
 * `npm run api:diff`: the differences of the generated OpenAPI document from the last release's
 * (`releases/openapi.json`), breaking ones first (docs/api.md section 12).
 * `npm run api:release`: cuts a release: the generated document becomes the kept one.
 */

const file = fileURLToPath(new URL('../releases/openapi.json', import.meta.url));
const doc = serviceOpenApi();

if (process.argv.includes('--release')) {
  await writeFile(file, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`releases/openapi.json is now version ${String((doc.info as { version: string }).version)}`);
} else {
  const released = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  const changes = diffOpenApi(released, doc).sort((a, b) => Number(b.breaking) - Number(a.breaking));
  for (const c of changes)
    console.log(`${c.breaking ? 'BREAKING' : 'compatible'}  ${c.rule}  ${c.where}: ${c.detail}`);
  console.log(
    `${changes.filter((c) => c.breaking).length} breaking, ${changes.filter((c) => !c.breaking).length} compatible`,
  );
}
