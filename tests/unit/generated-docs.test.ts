import { describe, expect, it } from 'vitest';
import { PAGES, renderPage } from '../../scripts/build-doc-tables';
import { blockNames, fillBlocks } from '../../scripts/lib/generated-blocks';

/**
 * The tables of docs/performance.md and docs/testing.md are written from the data the repository
 * keeps (bench/results.json, reports/stryker-incremental.json): a page whose tables differ from
 * what `npm run docs:tables` writes is behind its data, or was edited by hand between markers.
 */
describe('generated document tables', () => {
  it.each(Object.keys(PAGES))('docs/%s.md shows the tables its data gives (npm run docs:tables)', (name) => {
    const { current, rendered } = renderPage(name);
    expect(blockNames(current).length).toBeGreaterThan(0);
    expect(current).toBe(rendered);
  });

  it('the performance page shows the figures of bench/results.json', () => {
    const { current } = renderPage('performance');
    expect(blockNames(current)).toEqual(
      expect.arrayContaining(['bench-budgets', 'bench-functions', 'bench-routes', 'bench-delivery']),
    );
    // A figure the results file holds, as the page prints it: the table is not empty.
    expect(current).toMatch(/\| api-exceptions \| [\d.]+ KB \|/);
    expect(current).toMatch(/\| change status \| 200 \|/);
  });

  it('the testing page shows a score for every folder of the mutation scope', () => {
    const { current } = renderPage('testing');
    expect(current).toMatch(/\| `shared\/domain\/webhooks\/` \| \d+ \| [\d.]+% \|/);
    expect(current).toMatch(/\| \*\*whole scope\*\* \|/);
  });

  it('replaces only between markers, and fails on a marker nothing writes or a table with no marker', () => {
    const doc = 'intro\n<!-- generated:a -->\nold\n<!-- /generated:a -->\nprose\n';
    expect(fillBlocks(doc, { a: '| x |' })).toBe(
      'intro\n<!-- generated:a -->\n| x |\n<!-- /generated:a -->\nprose\n',
    );
    expect(() => fillBlocks(doc, {})).toThrow(/nothing writes a/);
    expect(() => fillBlocks(doc, { a: '', b: '' })).toThrow(/no marker for b/);
  });
});
