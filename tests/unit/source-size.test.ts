import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * A source file holds one concern, and one concern fits in 300 lines: a file past the limit is
 * split by concern, not trimmed. The code the runtimes, the CDK app and the tools are made of
 * (shared, functions, local, infra, scripts, bench) is measured; tests are not.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ROOMS = ['shared', 'functions', 'local', 'infra', 'scripts', 'bench'];
export const MAX_LINES = 300;

/**
 * Files exempt from the limit because their length is data, not code: generated output (rewritten
 * by `npm run generate`, never edited) and declared tables. Nothing else goes here.
 */
const GENERATED_OR_DATA = new Set<string>([
  // Generated JSON Schemas of the adapters' configs (npm run build:adapter-schemas).
  'shared/domain/integrations/config-schemas.gen.ts',
  // Generated JSON Schemas of the event types' data (npm run build:event-types).
  'shared/domain/webhooks/event-types.gen.ts',
]);

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (name === 'node_modules') return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.(ts|cjs|mjs|js)$/.test(name) ? [path] : [];
  });
}

/** Lines as `wc -l` counts them: newline characters. */
export const lineCount = (text: string) => (text.match(/\n/g) ?? []).length;

const lengths = new Map(
  ROOMS.flatMap(sources).map((path) => [path, lineCount(readFileSync(join(ROOT, path), 'utf8'))]),
);

describe('source files', () => {
  it('are measured (the check is not vacuous)', () => {
    expect(lengths.size).toBeGreaterThan(200);
    expect(lengths.get('shared/kernel/ids.ts')).toBeGreaterThan(10);
    expect(lineCount('a\nb\n')).toBe(2);
  });

  it(`hold at most ${MAX_LINES} lines each, outside generated code and declared data`, () => {
    const over = [...lengths]
      .filter(([path, n]) => n > MAX_LINES && !GENERATED_OR_DATA.has(path))
      .map(([path, n]) => `${path}: ${n} lines`);
    expect(over).toEqual([]);
  });

  it('the exemptions name existing files', () => {
    expect([...GENERATED_OR_DATA].filter((path) => !lengths.has(path))).toEqual([]);
  });
});

describe('the domain', () => {
  it('never sleeps: no timer in shared/ (pauses go through a port, such as the export run `Wait`)', () => {
    const timers = [...lengths.keys()]
      .filter((path) => path.startsWith('shared/'))
      .filter((path) =>
        /\bset(Timeout|Interval|Immediate)\s*\(/.test(readFileSync(join(ROOT, path), 'utf8')),
      );
    expect(timers).toEqual([]);
  });
});
