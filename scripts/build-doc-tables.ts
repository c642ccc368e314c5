/**
 * `npm run docs:tables` (or `docs:performance`, `docs:testing` for one page): writes the generated
 * tables of docs/performance.md (from bench/results.json) and docs/testing.md (from
 * reports/stryker-incremental.json) between their markers. Run it after `npm run bench` or
 * `npm run mutate`; tests/unit/generated-docs.test.ts fails while a page is behind its data.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillBlocks } from './lib/generated-blocks';
import { mutationTables } from './lib/mutation-tables';
import { type BenchResults, performanceTables } from './lib/performance-tables';
import { LIST_BUDGET, PEER_GOALS } from '../bench/lib/settings';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readJson = <T>(path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

/** Each page with the tables its data gives, as the page should read. */
export const PAGES: Record<string, { path: string; render: (doc: string) => string }> = {
  performance: {
    path: 'docs/performance.md',
    render: (doc) =>
      fillBlocks(
        doc,
        performanceTables(readJson<BenchResults>('bench/results.json'), {
          peerCold: PEER_GOALS.cold,
          peerOverhead: PEER_GOALS.overhead,
          lists: LIST_BUDGET,
        }),
      ),
  },
  testing: {
    path: 'docs/testing.md',
    render: (doc) => fillBlocks(doc, mutationTables(readJson('reports/stryker-incremental.json'))),
  },
};

export function renderPage(name: string): { path: string; current: string; rendered: string } {
  const page = PAGES[name]!;
  const current = readFileSync(join(ROOT, page.path), 'utf8');
  return { path: page.path, current, rendered: page.render(current) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(PAGES);
  for (const name of names) {
    if (!PAGES[name]) throw new Error(`no page ${name} (${Object.keys(PAGES).join(', ')})`);
    const { path, current, rendered } = renderPage(name);
    writeFileSync(join(ROOT, path), rendered);
    console.log(`${path}: ${current === rendered ? 'already current' : 'tables written'}`);
  }
}
