import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * shared/README.md's table of domain concerns is where a reader finds which folder holds what:
 * every folder of shared/domain/ has its row, and every file a row names exists there.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOMAIN = join(ROOT, 'shared/domain');
const readme = readFileSync(join(ROOT, 'shared/README.md'), 'utf8');

/** `| \`domain/<folder>/\` | <files> |` rows, by folder. */
const rows = new Map(
  [...readme.matchAll(/^\| `domain\/([\w-]+)\/` \| (.*) \|$/gm)].map(([, folder, files]) => [
    folder!,
    files!,
  ]),
);

const inSubfolder = (folder: string, file: string) =>
  readdirSync(join(DOMAIN, folder)).some(
    (name) =>
      statSync(join(DOMAIN, folder, name)).isDirectory() && existsSync(join(DOMAIN, folder, name, file)),
  );

describe('the domain concerns of shared/README.md', () => {
  it('has a row for every folder of shared/domain/', () => {
    const folders = readdirSync(DOMAIN).filter((name) => statSync(join(DOMAIN, name)).isDirectory());
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => !rows.has(folder))).toEqual([]);
  });

  it("names only files that exist in the row's folder", () => {
    const missing = [...rows].flatMap(([folder, files]) =>
      [...files.matchAll(/`([\w.-]+\.ts)`/g)]
        .map(([, file]) => file!)
        // A file of a subfolder the row names (`adapters/`, then its `index.ts`) counts too.
        .filter((file) => !existsSync(join(DOMAIN, folder, file)) && !inSubfolder(folder, file))
        .map((file) => `domain/${folder}/${file}`),
    );
    expect(missing).toEqual([]);
  });
});
