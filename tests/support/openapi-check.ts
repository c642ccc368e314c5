import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceOpenApi } from '#shared/demo/openapi';
import { type OpenApiDoc, openApiValidator, pointer, type ResponseObject } from './demo/openapi-support';

/**
 * Every answer an e2e test receives, checked against the published OpenAPI document (the one
 * `GET /openapi.json` serves, built from the same code): the status is documented for the
 * operation, the body matches that status's schema (ajv; response records forbid unknown fields),
 * the content type is the documented one, and every header is documented (or is HTTP's own).
 * tests/support/http.ts calls it on each reply; a violation throws, failing the test that got it.
 *
 * Each checked (operation, status) pair is appended to a file, which the run's global teardown
 * (tests/support/global-setup.ts) sums up against the pairs the document lists.
 */

const doc = serviceOpenApi() as unknown as OpenApiDoc & { paths: Record<string, Record<string, unknown>> };
const validator = openApiValidator(doc);

/** Headers of HTTP itself (RFC 9110/9112), which no operation documents. */
const TRANSPORT_HEADERS = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
]);

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

interface Template {
  path: string;
  regex: RegExp;
  literal: number;
}
const templates: Template[] = Object.keys(doc.paths)
  .map((path) => ({
    path,
    regex: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    literal: path.replace(/\{[^}]+\}/g, '').length,
  }))
  // A literal segment wins over a parameter (`/previews/briefing` before `/{id}`).
  .sort((a, b) => b.literal - a.literal);

/** Where the seen pairs go: one file per run (the vitest process, parent of every worker). */
export const coverageFile = (runPid = process.ppid) =>
  process.env.OPENAPI_COVERAGE ?? join(tmpdir(), `ops-openapi-seen-${runPid}.jsonl`);

const record = (operation: string, status: number) => {
  try {
    appendFileSync(coverageFile(), `${JSON.stringify({ operation, status })}\n`);
  } catch {
    // The record is a statistic; a test never fails for it.
  }
};

/** A response object and the JSON pointer it lives at (a `$ref` followed to its component). */
interface Located {
  response: ResponseObject;
  at: string;
}
const resolve = (response: ResponseObject, at: string): Located => {
  if (!response.$ref) return { response, at };
  const name = response.$ref.split('/').pop()!;
  return { response: doc.components.responses[name]!, at: pointer('components', 'responses', name) };
};
const component = (name: string) => resolve({ $ref: `#/components/responses/${name}` }, '');

/**
 * Every body schema compiled at load, not at first use: a test that times its calls (a
 * one-second token lifetime) must not pay the compilation inside its window.
 */
for (const [path, item] of Object.entries(doc.paths))
  for (const m of METHODS) {
    const op = item[m] as { responses: Record<string, ResponseObject> } | undefined;
    for (const [status, r] of Object.entries(op?.responses ?? {})) {
      const { response, at } = resolve(r, pointer('paths', path, m, 'responses', status));
      for (const media of Object.keys(response.content ?? {}))
        validator.errors(`${at}/content/${media.replaceAll('/', '~1')}/schema`, undefined);
    }
  }

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** The violations of `answer` to `method path`; `[]` when the document describes it. */
export function violations(method: string, url: string, answer: Answer, recordSeen = false): string[] {
  const path = url.split('?')[0]!;
  const lower = method.toLowerCase();
  const template = templates.find((t) => t.regex.test(path));
  if (!template) {
    // Outside the API: the local runtime's own routes, and the demo site's static files.
    if (path.startsWith('/_local/')) return [];
    if (answer.status === 200 && (lower === 'get' || lower === 'head')) return [];
    return check(`${method} ${path} (no such path)`, answer, component('NotFound'), [404]);
  }
  const item = doc.paths[template.path]!;
  if (lower === 'head' || lower === 'options') return [];
  const op = item[lower] as { operationId: string; responses: Record<string, ResponseObject> } | undefined;
  if (!op) {
    const allowed = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
    const out = check(
      `${method} ${template.path} (not an operation)`,
      answer,
      component('MethodNotAllowed'),
      [405],
    );
    if (answer.headers.get('allow') !== allowed.sort().join(', '))
      out.push(`Allow is ${answer.headers.get('allow')}, the path defines ${allowed.join(', ')}`);
    return out;
  }
  const documented = op.responses[String(answer.status)];
  if (!documented)
    return [
      `${op.operationId}: status ${answer.status} is not documented (${Object.keys(op.responses).join(', ')})`,
    ];
  if (recordSeen) record(op.operationId, answer.status);
  return check(
    op.operationId,
    answer,
    resolve(documented, pointer('paths', template.path, lower, 'responses', String(answer.status))),
  );
}

const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

function check(what: string, answer: Answer, { response, at }: Located, statuses?: number[]): string[] {
  const out: string[] = [];
  if (statuses && !statuses.includes(answer.status)) {
    return [`${what}: status ${answer.status}, the document says ${statuses.join(' or ')}`];
  }
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  for (const [name, value] of answer.headers) {
    if (TRANSPORT_HEADERS.has(name)) continue;
    const key = Object.keys(response.headers ?? {}).find((k) => k.toLowerCase() === name);
    const spec =
      key === undefined ? undefined : (headers[name] as { $ref?: string; schema?: { type?: string } });
    if (!spec || key === undefined) {
      out.push(`${what} ${answer.status}: header ${name} is not documented`);
      continue;
    }
    const schemaAt = spec.$ref !== undefined ? `${spec.$ref}/schema` : `${at}/headers/${escape(key)}/schema`;
    const integer = !spec.$ref && spec.schema?.type === 'integer' && /^-?\d+$/.test(value);
    const errs = validator.errors(schemaAt, integer ? Number(value) : value);
    if (errs.length > 0)
      out.push(`${what} ${answer.status}: header ${name}: ${value} ${JSON.stringify(errs)}`);
  }
  const contentType = answer.headers.get('content-type')?.split(';')[0]!.trim().toLowerCase();
  const media = Object.keys(response.content ?? {});
  if (media.length === 0) {
    if (answer.body !== undefined && answer.body !== '')
      out.push(`${what} ${answer.status}: a body where the document has none`);
    return out;
  }
  if (!contentType || !media.includes(contentType)) {
    out.push(`${what} ${answer.status}: content type ${contentType}, the document says ${media.join(', ')}`);
    return out;
  }
  const errs = validator.errors(`${at}/content/${escape(contentType)}/schema`, answer.body);
  if (errs.length > 0)
    out.push(`${what} ${answer.status}: body does not match: ${JSON.stringify(errs).slice(0, 800)}`);
  return out;
}

/** Throws when the document does not describe the answer. */
export function assertDocumented(method: string, url: string, answer: Answer): void {
  const found = violations(method, url, answer, true);
  if (found.length > 0)
    throw new Error(`The answer disagrees with the OpenAPI document:\n- ${found.join('\n- ')}`);
}

/** Every (operation, status) pair the document lists. */
export function documentedPairs(): { operation: string; status: number }[] {
  const out: { operation: string; status: number }[] = [];
  for (const item of Object.values(doc.paths))
    for (const m of METHODS) {
      const op = item[m] as { operationId: string; responses: Record<string, unknown> } | undefined;
      if (op)
        for (const s of Object.keys(op.responses)) out.push({ operation: op.operationId, status: Number(s) });
    }
  return out;
}
