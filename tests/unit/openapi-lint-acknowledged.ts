/**
 * The one list of Spectral findings (`spectral:oas` recommended + the OWASP API Security ruleset
 * 2.0) on the generated OpenAPI document that the project acknowledges instead of fixing, each
 * with where it applies and why. tests/unit/openapi-lint.test.ts fails on any finding no entry
 * covers, and on an entry that covers nothing (a stale acknowledgement).
 *
 * An entry matches by rule and by a predicate on the finding's JSON path in the document, written
 * as generally as the reason holds, so that a new route of the same shape needs no new entry. A
 * bound the code enforces is published, never acknowledged (docs/api.md section 12).
 */

export type JsonPath = readonly (string | number)[];

export interface LintContext {
  /** The document linted. */
  doc: Record<string, unknown>;
  /** Component schemas reachable from a request body or parameter (the input side). */
  requestSchemas: ReadonlySet<string>;
}

export interface Acknowledgement {
  rule: string;
  /** Where it applies, in words (shown when the test reports). */
  where: string;
  applies: (path: JsonPath, ctx: LintContext) => boolean;
  reason: string;
}

type Op = { security?: unknown[]; parameters?: { in: string }[]; requestBody?: unknown };

/** The operation a `paths.<path>.<method>...` finding belongs to. */
const operationAt = (path: JsonPath, ctx: LintContext): Op | undefined => {
  if (path[0] !== 'paths' || path.length < 3) return undefined;
  const paths = ctx.doc.paths as Record<string, Record<string, Op>>;
  return paths[String(path[1])]?.[String(path[2])];
};

const isPublic = (op: Op | undefined) => Array.isArray(op?.security) && op.security.length === 0;

/** In a schema only responses use: a response record, or an inline response schema. */
const responseOnly = (path: JsonPath, ctx: LintContext) =>
  (path[0] === 'components' && path[1] === 'schemas' && !ctx.requestSchemas.has(String(path[2]))) ||
  (path[0] === 'paths' && path.includes('responses'));

/** Rules not run at all: each would be acknowledged everywhere, or is checked faster elsewhere. */
export const RULES_OFF: { rule: string; reason: string }[] = [
  {
    rule: 'owasp:api4:2023-string-restricted',
    reason:
      'A warning on every string without `format`, `pattern` or `enum`. Free text (titles, names, notes, bodies, passwords, ids callers choose) has no pattern to publish: any Unicode text within its `maxLength` is valid. Strings that have one publish it. It would be acknowledged everywhere, and it costs a fifth of the lint time.',
  },
  {
    rule: 'oas3-valid-media-example',
    reason:
      'Every example of the document is validated against its schema with ajv by tests/unit/demo/openapi.test.ts, in a tenth of the time Spectral takes for the same check.',
  },
  {
    rule: 'oas3-valid-schema-example',
    reason:
      'As above: the schemas carry no `example` of their own; the operations’ examples are checked there.',
  },
];

export const ACKNOWLEDGED: Acknowledgement[] = [
  {
    rule: 'owasp:api4:2023-string-limit',
    where: 'schemas only responses use',
    applies: responseOnly,
    reason:
      'A length limit guards what the service accepts. A response record carries values that entered through a request schema, which publishes their bound (`maxLength` on every input string), or that the service makes itself (ids, timestamps, counts); repeating each input bound on ~60 read records would be a second declaration of it. Dates, timestamps, cursors and page sizes are published on both sides.',
  },
  {
    rule: 'owasp:api4:2023-array-limit',
    where: 'schemas only responses use',
    applies: responseOnly,
    reason:
      'As for strings: every input array publishes `maxItems`, and pages publish theirs (100); the other arrays of a read record (lines, actions, attempts, findings) are bounded by the input they came from or by a fixed list of the service.',
  },
  {
    rule: 'owasp:api4:2023-string-limit',
    where: 'the keys (`propertyNames`) of free-form JSON objects in requests',
    applies: (path, ctx) => path.at(-1) === 'propertyNames' && !responseOnly(path, ctx),
    reason:
      'Free-form objects (`evidence`, `impact`, `metadata`, `config`, `secret`, `payload`, samples) take any JSON object: no per-key limit exists in the code; the 256 KiB body limit and the 64-level nesting limit (docs/api.md section 1) bound them. A per-key limit would be a new, tighter (breaking) bound.',
  },
  {
    rule: 'owasp:api4:2023-rate-limit',
    where: 'every 2xx and 4xx response',
    applies: () => true,
    reason:
      'No answer carries RateLimit headers: the cloud throttling is API Gateway’s stage limit (docs/api.md section 11), which sends none, and the failed-login limiter answers 429 with `Retry-After`, which is documented. Publishing headers that never arrive would be false.',
  },
  {
    rule: 'owasp:api8:2023-define-cors-origin',
    where: 'every response',
    applies: () => true,
    reason:
      'CORS is API Gateway’s, not an operation’s: it adds `Access-Control-Allow-Origin` only to browser requests from the demo site’s origin (docs/api.md section 1); server-to-server callers and the local runtime get none.',
  },
  {
    rule: 'owasp:api8:2023-define-error-responses-401',
    where: 'public operations (`security: []`)',
    applies: (path, ctx) => isPublic(operationAt(path, ctx)),
    reason:
      'A public operation takes no token, so it never answers 401 (`POST /auth/sessions` documents its own 401).',
  },
  {
    rule: 'owasp:api2:2023-read-restricted',
    where: 'public GET operations (`security: []`)',
    applies: (path, ctx) => isPublic(operationAt(path, ctx)),
    reason:
      'Public by design: `/health`, `/openapi.json` and the demo surface (static synthetic data, docs/api.md section 8).',
  },
  {
    rule: 'owasp:api2:2023-write-restricted',
    where: '`POST /auth/sessions`',
    applies: (path) => path[1] === '/auth/sessions' && path[2] === 'post',
    reason: 'Logging in is how a caller gets a token; it is rate limited per email (docs/api.md section 3).',
  },
  {
    rule: 'owasp:api8:2023-define-error-validation',
    where: 'operations with neither a request body nor query parameters',
    applies: (path, ctx) => {
      const op = operationAt(path, ctx);
      return op !== undefined && !op.requestBody && !(op.parameters ?? []).some((p) => p.in === 'query');
    },
    reason:
      'Nothing of such a request is validated that could answer 400 or 422: a path parameter that cannot name anything is 404 (docs/api.md section 1).',
  },
  {
    rule: 'owasp:api2:2023-no-credentials-in-url',
    where: '`DELETE /auth/sessions/{token_id}`',
    applies: (path) => path[1] === '/auth/sessions/{token_id}',
    reason:
      '`token_id` is the SHA-256 of an access token (base64url), the session’s public id as `GET /auth/sessions` lists it: it cannot be turned back into the token.',
  },
  {
    rule: 'owasp:api8:2023-no-server-http',
    where: 'the local runtime’s server (`x-internal: true`, loopback address)',
    applies: (path, ctx) => {
      const servers = ctx.doc.servers as { url: string; 'x-internal'?: boolean }[];
      const server = path[0] === 'servers' ? servers[Number(path[1])] : undefined;
      return server?.['x-internal'] === true && server.url.startsWith('http://127.0.0.1:');
    },
    reason:
      'The local runtime (`npm start`) listens on the loopback address only, in plain HTTP (docs/api.md section 10); every deployed stage is HTTPS.',
  },
  {
    rule: 'oas3-unused-component',
    where: '`components.responses.MethodNotAllowed`',
    applies: (path) => path.join('.') === 'components.responses.MethodNotAllowed',
    reason:
      'A 405 answers a method a path does not define, so no operation can list it; the component documents its body and `Allow` header.',
  },
  {
    rule: 'info-contact',
    where: '`info`',
    applies: (path) => path[0] === 'info',
    reason: 'The API has no public support contact; the repository is its home.',
  },
];
