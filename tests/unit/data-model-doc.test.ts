import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_PATTERNS } from '#shared/table/access-patterns';
import { TABLE } from '#shared/table/table';

const doc = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');

describe('docs/data-model.md', () => {
  it('lists every access pattern of the declarations with its index and key condition', () => {
    for (const p of ACCESS_PATTERNS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${p.name} |`));
      expect(row, p.name).toBeDefined();
      expect(row).toContain(`\`${p.keyCondition}\``);
      expect(row).toContain(`| ${p.index} |`);
    }
  });

  it('documents no access pattern that the declarations do not derive', () => {
    const section = doc.slice(doc.indexOf('## Access patterns'));
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| pattern |'));
    const documented = rows.map((row) => row.slice(2, row.indexOf(' | ')));
    expect(documented.sort()).toEqual(ACCESS_PATTERNS.map((p) => p.name).sort());
  });

  it('names every index and its key attributes', () => {
    for (const [name, index] of Object.entries(TABLE.indexes)) {
      expect(doc).toContain(`| ${name} | \`${index.partitionKey}\` | \`${index.sortKey}\``);
    }
  });
});
