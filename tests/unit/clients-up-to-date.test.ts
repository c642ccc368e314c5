import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `clients/` is generated and committed: regenerating it from the committed OpenAPI document
 * must change nothing (run `npm run generate:clients` after `npm run build:openapi`).
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let out: string;

const files = async (dir: string) =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && !e.parentPath.includes('__pycache__'))
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'ops-clients-'));
  await run(
    process.execPath,
    [join(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/generate-clients.ts', '--out', out],
    {
      cwd: root,
    },
  );
}, 120_000);

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

describe('generated clients', () => {
  it.each(['typescript', 'javascript', 'python'])('clients/%s is up to date', async (name) => {
    const fresh = join(out, name);
    const committed = join(root, 'clients', name);
    const list = await files(fresh);
    expect(list.length).toBeGreaterThan(3);
    expect(await files(committed)).toEqual(list);
    for (const file of list) {
      expect(await readFile(join(committed, file), 'utf8'), `clients/${name}/${file}`).toBe(
        await readFile(join(fresh, file), 'utf8'),
      );
    }
  });

  it('the Python package imports with the standard library alone, and every annotation resolves', async () => {
    const script = [
      'import sys, typing, ops_platform_client as pkg',
      'from ops_platform_client import models',
      'n = 0',
      'for name in models.__all__:',
      '    obj = getattr(models, name)',
      '    if isinstance(obj, type) and issubclass(obj, dict):',
      '        typing.get_type_hints(obj); n += 1',
      'typing.get_type_hints(pkg.Client.exceptions_create)',
      'print(n, len([m for m in dir(pkg.Client) if not m.startswith("_")]))',
    ].join('\n');
    // -S: no site-packages, so only the standard library is importable.
    const { stdout } = await run('python3', ['-S', '-c', script], {
      cwd: join(root, 'clients/python'),
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: '' },
    });
    const [typedDicts, methods] = stdout.trim().split(' ').map(Number);
    expect(typedDicts).toBeGreaterThan(20);
    expect(methods).toBeGreaterThan(20);
  });
});
