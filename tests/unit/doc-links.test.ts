import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The project stands alone: its README and documents link only to files of this repository (and
 * to the local runtime on the loopback address), never to anything outside it.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const markdownIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(dir, name));

const DOCUMENTS = ['README.md', 'shared/README.md', ...markdownIn('docs'), ...markdownIn('runbooks')];

/** `[text](target)` and `![alt](target)` targets, and `<scheme:…>` autolinks, outside code. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [
    ...[...prose.matchAll(/\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map(([, target]) => target!),
    ...[...prose.matchAll(/<([a-z][a-z0-9+.-]*:[^>\s]+)>/gi)].map(([, target]) => target!),
  ];
}

const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/;

describe('the project documents', () => {
  it.each(DOCUMENTS)('%s links only inside the repository', (file) => {
    const links = linksOf(readFileSync(join(ROOT, file), 'utf8'));
    for (const link of links) {
      if (link.startsWith('#')) continue;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) {
        expect([file, link, LOOPBACK.test(link)]).toEqual([file, link, true]);
        continue;
      }
      const target = resolve(dirname(join(ROOT, file)), decodeURI(link.split('#')[0]!));
      expect([file, link, target.startsWith(ROOT.replace(/\/$/, '') + sep)]).toEqual([file, link, true]);
      expect([file, link, existsSync(target)]).toEqual([file, link, true]);
    }
  });

  it('the README lists the service contract among its documents', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(linksOf(readme)).toContain('docs/api.md');
  });
});
