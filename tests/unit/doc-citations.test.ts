import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A comment or document that points at nothing misleads its next reader: every
 * `docs/api.md section N` (or `section N.M`, or `sections A, B and C`) cited anywhere in the
 * repository resolves to a numbered heading of docs/api.md, and every repository file a comment
 * or document names by its path exists.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Generated output and dependencies: their text comes from the sources scanned here. */
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'reports', 'cdk.out', 'dist', 'coverage', '.data']);
const TEXT = /\.(ts|cjs|mjs|js|md|json|ya?ml|py|tpl|html)$/;

function textFiles(dir = ''): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = dir ? `${dir}/${name}` : name;
    if (SKIPPED_DIRS.has(name)) return [];
    if (statSync(join(ROOT, path)).isDirectory()) return textFiles(path);
    return TEXT.test(name) ? [path] : [];
  });
}

const FILES = textFiles();
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The numbers of docs/api.md's numbered headings: `## 7. Outbox...` is 7, `### 9.3 Integration hub` 9.3. */
export function headingNumbers(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s/gm)].map(([, number]) => number!));
}

const NUMBER = String.raw`\d+(?:\.\d+)*`;
const CITATION = new RegExp(
  String.raw`api\.md(?:\]\([^)]*\))?,?\s+sections?\s+(${NUMBER}(?:(?:,\s*|,?\s+and\s+|,?\s+or\s+)${NUMBER})*)`,
  'g',
);

/** The section numbers a text cites of docs/api.md, each with its line. */
export function citedSections(text: string): { line: number; section: string }[] {
  return [...text.matchAll(CITATION)].flatMap((m) => {
    const line = text.slice(0, m.index).split('\n').length;
    return m[1]!.split(/,\s*|\s+and\s+|\s+or\s+/).map((section) => ({ line, section: section.trim() }));
  });
}

const ROOMS = '(?:shared|functions|local|infra|scripts|bench|tests|docs|runbooks)';
/** A repository path in prose: a room, then path segments, ending in `.ts` or `.md` (not `.ts.tpl`). */
const PATH = new RegExp(String.raw`(?<![\w#@/.-])(${ROOMS}/[\w./-]+?\.(?:ts|md))(?![\w.]*\w)`, 'g');

/**
 * Paths cited on purpose although no such file exists: the layering test lints probe sources
 * "as if they lived" at these paths, to prove the lint rule fires there.
 */
const NOT_FILES = new Set([
  'shared/domain/layering-probe.ts',
  'functions/http/layering-probe.ts',
  'shared/kernel/layering-probe.ts',
  'functions/adapters/layering-probe.ts',
  'shared/api/layering-probe.ts',
  'shared/api/operations/layering-probe.ts',
  'shared/domain/notifications/layering-probe.ts',
  'shared/demo/layering-probe.ts',
]);

describe('citations of docs/api.md sections', () => {
  const headings = headingNumbers(read('docs/api.md'));

  it('reads the headings and the citations it checks (the check is not vacuous)', () => {
    expect([...headings]).toEqual(expect.arrayContaining(['1', '7', '9', '9.1', '9.3', '12']));
    expect(headingNumbers('## 7. Outbox\n### 9.3 Hub\nsection 8 in prose\n')).toEqual(new Set(['7', '9.3']));
    expect(
      // Spelled apart, so that this file does not cite a missing section itself.
      citedSections(`see docs/api.md sections 7, 9.1 and 9.3;\n(docs/api${'.md'} section 2.5)`).map(
        (c) => `${c.line}:${c.section}`,
      ),
    ).toEqual(['1:7', '1:9.1', '1:9.3', '2:2.5']);
    const cited = FILES.flatMap((file) => citedSections(read(file)));
    expect(cited.length).toBeGreaterThan(200);
  });

  it('every cited section is a heading of docs/api.md', () => {
    const stale = FILES.flatMap((file) =>
      citedSections(read(file))
        .filter(({ section }) => !headings.has(section))
        .map(({ line, section }) => `${file}:${line} cites docs/api.md section ${section}`),
    );
    expect(stale).toEqual([]);
  });
});

describe('repository paths named in comments and documents', () => {
  it('finds paths the way a reader writes them, and not file names inside longer names', () => {
    const paths = (text: string) => [...text.matchAll(PATH)].map(([, p]) => p);
    expect(paths('(shared/domain/notifications/channels.ts), docs/api.md.')).toEqual([
      'shared/domain/notifications/channels.ts',
      'docs/api.md',
    ]);
    expect(paths("join(root, 'scripts/lib/templates/ops-client.ts.tpl') #shared/kernel/ids.ts")).toEqual([]);
  });

  it('every named path exists', () => {
    const missing = FILES.flatMap((file) => {
      const text = read(file);
      return [...text.matchAll(PATH)]
        .map(([, path]) => path!)
        .filter((path) => !NOT_FILES.has(path) && !existsSync(join(ROOT, path)))
        .map((path) => `${relative(ROOT, join(ROOT, file))} names ${path}`);
    });
    expect(missing).toEqual([]);
  });
});
