import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Operation, OPERATIONS } from '#shared/api/manifest';
import { PERMISSIONS, ROLES } from '#shared/kernel/policy';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');

/** The rows of the first Markdown table after the line starting with `marker`, as trimmed cells without backticks. */
function tableAfter(marker: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.findIndex((line) => line.startsWith(marker));
  expect(start, marker).toBeGreaterThanOrEqual(0);
  const first = lines.findIndex((line, i) => i > start && line.startsWith('|'));
  const rows: string[][] = [];
  for (let i = first + 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
    rows.push(
      lines[i]!.slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replaceAll('`', '')),
    );
  }
  return rows;
}

const SECTIONS = [
  'Transport',
  'Errors',
  'Identity, tenants and roles',
  'Lists',
  'Audit',
  'Business exceptions',
  'Outbox, queues and delivery',
  'Demo surface',
  'Business records, integration hub, accounting export, previews, metrics',
  'Local runtime',
  'Records, conventions and limits',
  'Versioning',
];

/** Source and documentation files of the repository, without generated or installed trees. */
function sourceFiles(dir = ROOT): string[] {
  const skip = new Set([
    'node_modules',
    '.git',
    'clients',
    'cdk.out',
    'coverage',
    'test-artifacts',
    'data',
    '.data',
  ]);
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|js|cjs|mjs|md)$/.test(entry.name) ? [path] : [];
  });
}

describe('docs/api.md', () => {
  it('numbers its sections 1 to 12, as the code cites them', () => {
    const headings = [...doc.matchAll(/^## (\d+)\. (.+)$/gm)].map(([, n, title]) => [Number(n), title]);
    expect(headings).toEqual(SECTIONS.map((title, i) => [i + 1, title]));
  });

  it('lists every operation of the manifest, and only those, with its method, path, auth, permission and status', () => {
    const rows = tableAfter('### Operations');
    const documented = Object.fromEntries(
      rows.map(([method, path, id, auth, permission, status, idempotent]) => [
        id,
        { method, path, auth, permission, status, idempotent },
      ]),
    );
    expect(rows.length, 'one row per operation id').toBe(Object.keys(documented).length);
    const expected = Object.fromEntries(
      (Object.entries(OPERATIONS) as [string, Operation][]).map(([id, op]) => [
        id,
        {
          method: op.method,
          path: op.path,
          auth: op.auth,
          permission: op.permission ?? '-',
          // A second success status some callers get: `202 or 201`.
          status: [op.status, ...(op.alternative ? [op.alternative.status] : [])].join(' or '),
          idempotent: op.idempotent ? 'yes' : '',
        },
      ]),
    );
    expect(documented).toEqual(expected);
  });

  it('shows the role matrix the policy table applies', () => {
    const rows = tableAfter('**Role matrix.**');
    const documented = Object.fromEntries(
      rows.map(([permission, , ...cells]) => [permission, ROLES.filter((_, i) => cells[i] === 'yes')]),
    );
    expect(documented).toEqual(
      Object.fromEntries(Object.entries(PERMISSIONS).map(([p, roles]) => [p, [...roles]])),
    );
  });

  it('has every section that a comment or document of the repository cites', () => {
    const numbered = new Set([...doc.matchAll(/^## (\d+)\. /gm)].map(([, n]) => Number(n)));
    const citations: string[] = [];
    for (const file of sourceFiles()) {
      // Comments wrap: join continuation lines (` * `, `// `) before matching.
      const text = readFileSync(file, 'utf8').replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ');
      for (const [, list] of text.matchAll(
        /docs\/api\.md,?\s+sections?\s+(\d+(?:(?:\s*,\s*|\s+and\s+)\d+)*)/g,
      )) {
        for (const n of list!.split(/\s*,\s*|\s+and\s+/)) {
          citations.push(`${relative(ROOT, file)}: section ${n}`);
          expect(numbered.has(Number(n)), `${relative(ROOT, file)} cites section ${n}`).toBe(true);
        }
      }
    }
    // The search itself must work: the code cites most sections.
    expect(citations.length).toBeGreaterThan(40);
  });
});
