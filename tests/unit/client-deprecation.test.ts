import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOpsClient,
  type DeprecationNotice,
  exceptionsList,
  retryAfterSeconds,
} from '../../clients/typescript/index';
import type { Deprecation } from '#shared/api/deprecation';
import { OPERATIONS } from '#shared/api/manifest';
import { buildOpenApi } from '#shared/api/openapi';

/**
 * docs/api.md section 12: the generated clients show a deprecation. No route of the published API
 * is deprecated, so the clients are generated here from a document built on test rows (one
 * deprecated operation, one deprecated request field) with the project's generator, and the
 * answers' `Deprecation` header is fed to the clients directly.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const NOTICE: Deprecation = {
  since: '2026-12-01',
  sunset: '2027-06-01',
  link: 'https://docs.example.test/deprecations/exceptions-get',
};
const NOTE =
  'Deprecated since 2026-12-01; sunset 2027-06-01; see https://docs.example.test/deprecations/exceptions-get.';
let out: string;

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'ops-deprecated-clients-'));
  const doc = buildOpenApi(undefined, {
    'auth.login': OPERATIONS['auth.login'],
    'exceptions.create': {
      ...OPERATIONS['exceptions.create'],
      deprecatedFields: { 'body.summary': { since: '2026-12-01' } },
    },
    'exceptions.list': OPERATIONS['exceptions.list'],
    'exceptions.get': { ...OPERATIONS['exceptions.get'], deprecated: NOTICE },
  });
  await writeFile(join(out, 'openapi.json'), JSON.stringify(doc));
  const cli = join(root, 'node_modules/tsx/dist/cli.mjs');
  await run(
    process.execPath,
    [cli, 'scripts/generate-clients.ts', '--spec', join(out, 'openapi.json'), '--out', join(out, 'clients')],
    { cwd: root },
  );
}, 180_000);
afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

/** The doc comment right above `export const <name>` (or `export declare const`). */
const commentAbove = (source: string, name: string) => {
  const at = source.search(new RegExp(`export (declare )?const ${name}\\b`));
  expect(at).toBeGreaterThan(0);
  const before = source.slice(0, at);
  return before.slice(before.lastIndexOf('/**'));
};

describe('the TypeScript and JavaScript clients', () => {
  it('mark a deprecated operation @deprecated, with the sunset and the link', async () => {
    const sdk = await readFile(join(out, 'clients/typescript/sdk.gen.ts'), 'utf8');
    expect(commentAbove(sdk, 'exceptionsGet')).toContain('@deprecated');
    expect(commentAbove(sdk, 'exceptionsGet')).toContain(NOTE);
    expect(commentAbove(sdk, 'exceptionsList')).not.toContain('@deprecated');
    const js = await readFile(join(out, 'clients/javascript/sdk.gen.d.ts'), 'utf8');
    expect(commentAbove(js, 'exceptionsGet')).toContain('@deprecated');
  });

  it('mark a deprecated field @deprecated', async () => {
    const types = await readFile(join(out, 'clients/typescript/types.gen.ts'), 'utf8');
    const create = types.slice(types.indexOf('export type BusinessExceptionCreate = {'));
    const fields = create.slice(0, create.indexOf('};'));
    expect(fields).toMatch(/@deprecated\s*\*\/\s*summary:/);
    expect(fields).not.toMatch(/@deprecated\s*\*\/\s*title:/);
  });

  it('report an answer that carries Deprecation to onDeprecation', async () => {
    const notices: DeprecationNotice[] = [];
    const client = createOpsClient({
      baseUrl: 'http://127.0.0.1:9',
      token: 't',
      onDeprecation: (n) => notices.push(n),
      fetch: async () =>
        new Response('{"items":[],"next_cursor":null}', {
          headers: {
            'content-type': 'application/json',
            deprecation: '@1796083200',
            sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
            link: `<${NOTICE.link}>; rel="deprecation"`,
          },
        }),
    });
    await exceptionsList({ client, path: { tenant_id: 'acme' } });
    expect(notices).toEqual([
      {
        method: 'GET',
        url: '/tenants/{tenant_id}/exceptions',
        deprecation: '@1796083200',
        sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
        link: NOTICE.link,
      },
    ]);
  });

  it('read Retry-After as seconds or as an HTTP-date', () => {
    const now = Date.parse('2026-11-26T10:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 26 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});

describe('the Python client', () => {
  it('warns with DeprecationWarning and says so in the docstrings', async () => {
    const script = `
import json, threading, warnings
from http.server import BaseHTTPRequestHandler, HTTPServer
from ops_platform_client import Client, models, retry_after_seconds

class Answer(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b'{"items":[],"next_cursor":null,"id":"e1"}'
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.send_header("deprecation", "@1796083200")
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass

server = HTTPServer(("127.0.0.1", 0), Answer)
threading.Thread(target=server.serve_forever, daemon=True).start()
client = Client(f"http://127.0.0.1:{server.server_port}", token="t")
seen = {}
for name, call in [("get", lambda: client.exceptions_get("acme", "e1")), ("list", lambda: client.exceptions_list("acme"))]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    seen[name] = [(w.category.__name__, str(w.message)) for w in caught]
server.shutdown()
seen["get_doc"] = Client.exceptions_get.__doc__
seen["create_doc"] = models.BusinessExceptionCreate.__doc__
seen["http_date"] = retry_after_seconds("Thu, 26 Nov 2026 10:00:30 GMT", now=1795687200.0)
print(json.dumps(seen))
`;
    const { stdout } = await run('python3', ['-S', '-c', script], {
      env: { ...process.env, PYTHONPATH: join(out, 'clients/python'), PYTHONDONTWRITEBYTECODE: '1' },
    });
    const seen = JSON.parse(stdout) as Record<string, unknown>;
    // The deprecated operation warns once, from the generated method, not again for its header.
    expect(seen.get).toEqual([
      [
        'DeprecationWarning',
        `exceptions_get (GET /tenants/{tenant_id}/exceptions/{exception_id}) is deprecated: ${NOTE}`,
      ],
    ]);
    // An operation deprecated after the client was generated is known by its answer's header.
    expect(seen.list).toEqual([
      ['DeprecationWarning', 'GET /tenants/{tenant_id}/exceptions is deprecated (Deprecation: @1796083200)'],
    ]);
    expect(seen.get_doc).toContain(`.. deprecated:: ${NOTE}`);
    expect(seen.create_doc).toContain('`summary`: Deprecated since 2026-12-01.');
    expect(seen.http_date).toBe(30);
  });
});
