import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { demoStaticFiles } from '#shared/demo/static-files';

const site = (name: string) => readFile(new URL(`../../../demo-static/${name}`, import.meta.url), 'utf8');

describe('demo-static', () => {
  it('data/ holds exactly the files npm run build:demo writes from shared/demo', async () => {
    const files = demoStaticFiles();
    const present = (await readdir(new URL('../../../demo-static/data/', import.meta.url))).sort();
    expect(present).toEqual(Object.keys(files).sort());
    for (const [name, content] of Object.entries(files))
      expect(await site(`data/${name}`), name).toBe(content);
  });

  it('uses relative URLs only and makes no external request', async () => {
    const html = await site('index.html');
    for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
      expect(url, url).toMatch(/^(\.\/|#|data:image\/svg\+xml,)/);
    }
    expect(html).toContain("default-src 'none'");
    expect(html).toContain("connect-src 'self'");
    const app = await site('app.js');
    const css = await site('style.css');
    for (const source of [app, css]) {
      expect(source).not.toMatch(/https?:\/\//);
      expect(source).not.toMatch(/@import|url\(/);
    }
    const fetched = [...app.matchAll(/fetch\(([^,)]+)/g)].map(([, arg]) => arg);
    expect(fetched).toEqual([expect.stringMatching(/^`\.\/data\/\$\{file\}`$/)]);
  });

  it('keeps no tokens and uses no storage', async () => {
    const app = await site('app.js');
    expect(app).not.toMatch(
      /localStorage|sessionStorage|indexedDB|document\.cookie|caches\.|serviceWorker|Authorization|Bearer/i,
    );
    expect(app).toContain("credentials: 'omit'");
  });
});
