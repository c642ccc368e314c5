import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildConsole } from '../../scripts/lib/console-build';

/**
 * docs/decisions.md, "The operator console": the console is a client of the public API like any
 * other. It imports the generated client, Preact, preact-iso and the API's own role table, and
 * nothing of the service; its only request of its own is its config.json; it keeps no token in
 * localStorage or a cookie. uPlot, the operational view's chart library, is a bundle of its own
 * that the first screen never loads.
 * other. It imports the generated client, Preact, preact-iso, the API's own role table and its
 * declaration of event types (the rule form's triggers), and nothing of the service; its only request of its own is its config.json; it keeps no token in
 * localStorage or a cookie.
 */
const SRC = fileURLToPath(new URL('../../console/src/', import.meta.url));
const ALLOWED = [
  'preact',
  'preact/hooks',
  'preact-iso',
  'clients/typescript/index.js',
  'shared/kernel/policy.js',
  // The operational view's charts only (screens/operations/charts.ts, its own bundle).
  'uplot',
  'shared/kernel/event-types.js',
];

async function sources(): Promise<[string, string][]> {
  const entries = await readdir(SRC, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name));
  return Promise.all(
    files.map(async (e) => {
      const path = join(e.parentPath, e.name);
      return [relative(SRC, path), await readFile(path, 'utf8')] as [string, string];
    }),
  );
}

describe('console sources', () => {
  it('import only the generated client, Preact, preact-iso, the role and event-type tables and each other', async () => {
    const outside: string[] = [];
    for (const [file, text] of await sources()) {
      for (const [, spec] of text.matchAll(/(?:from|import)\s+'([^']+)'/g)) {
        const resolved = spec!.startsWith('.') ? relative(SRC, join(SRC, file, '..', spec!)) : spec!;
        const inside = !resolved.startsWith('..');
        const allowed = ALLOWED.some((a) => resolved === a || resolved.endsWith(`../${a}`));
        if (!inside && !allowed) outside.push(`${file}: ${spec}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('fetch only their config.json: every API call goes through the generated client', async () => {
    const calls = (await sources()).flatMap(([file, text]) =>
      [...text.matchAll(/\bfetch\s*\(([^,)]*)/g)].map(([, arg]) => `${file}: ${arg}`),
    );
    expect(calls).toEqual(["session.ts: '/console/config.json'"]);
  });

  it('keep the token out of localStorage and cookies', async () => {
    for (const [file, text] of await sources()) {
      // The code, not the comments that say why it is so.
      const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      expect(code, file).not.toMatch(/localStorage|document\.cookie|indexedDB|XMLHttpRequest|WebSocket/);
    }
    const session = (await sources()).find(([f]) => f === 'session.ts')![1];
    expect(session).toContain('sessionStorage.setItem(TOKEN_KEY, token)');
  });
});

describe('console build', () => {
  it("keeps uPlot out of the first screen's app.js, and Preact out of the charts' bundle", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ops-console-split-'));
    try {
      const { outputs } = buildConsole(dir);
      const inputsOf = (name: string) => {
        const [, output] = Object.entries(outputs).find(([path]) => basename(path) === name)!;
        return Object.keys(output.inputs);
      };
      const app = inputsOf('app.js');
      const charts = inputsOf('charts.js');
      expect(app.some((p) => p.includes('screens/operations/index.tsx'))).toBe(true);
      expect(app.filter((p) => p.includes('node_modules/uplot'))).toEqual([]);
      expect(charts.some((p) => p.includes('node_modules/uplot'))).toBe(true);
      // A second Preact beside app.js's would break the hooks of any component it rendered.
      expect(charts.filter((p) => p.includes('node_modules/preact'))).toEqual([]);
      expect((await readdir(dir)).sort()).toEqual([
        'app.js',
        'charts.js',
        'config.json',
        'index.html',
        'style.css',
        'uplot.css',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
