import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_PATTERNS } from '#shared/table/access-patterns';
import { TABLE } from '#shared/table/table';

const doc = readFileSync(new URL('../../docs/data-model.md', import.meta.url), 'utf8');

describe('docs/data-model.md', () => {
  it('lists every access pattern of the key module with its index and key condition', () => {
    for (const p of ACCESS_PATTERNS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${p.name} |`));
      expect(row, p.name).toBeDefined();
      expect(row).toContain(`\`${p.keyCondition}\``);
      expect(row).toContain(`| ${p.index} |`);
    }
  });

  it('names every index and its key attributes', () => {
    for (const [name, index] of Object.entries(TABLE.indexes)) {
      expect(doc).toContain(`| ${name} | \`${index.partitionKey}\` | \`${index.sortKey}\``);
    }
  });
});
