import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * docs/decisions.md, "The operator console": the console is a client of the public API like any
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
