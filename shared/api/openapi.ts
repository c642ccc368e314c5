import pkg from '../../package.json' with { type: 'json' };
import type * as core from 'zod/v4/core';
import { OPERATIONS, type Operation, type OperationId, type Operations } from './manifest';
import { DEMO_CACHE_CONTROL } from './operations/demo';
import { Components, type Json } from './openapi/components';
import {
  ERRORS,
  EXTRA_ERROR_HEADERS,
  type ErrorStatus,
  errorResponse,
  errorStatuses,
} from './openapi/errors';
import { deprecationResponseHeaders, markDeprecated, markDeprecatedFields } from './openapi/deprecation';
import { EXAMPLES } from './openapi/examples';
import { HTML_HEADERS } from './openapi/html';
import { parameters } from './openapi/parameters';
import { Problem } from './schemas/responses';

export { EXAMPLES };

/**
 * The OpenAPI 3.1 description of every operation, generated from the manifest in `shared/api/manifest.ts`
 * and the zod schemas the handlers validate with (zod 4's JSON Schema output, draft 2020-12, the
 * dialect of OpenAPI 3.1). Request bodies and parameters use the schemas' input side (fields with
 * a default are optional), responses their output side. A schema with a zod `id` becomes a named
 * component; when its input and output sides differ, the input side is named `<id>Input`.
 *
 * The output is deterministic: paths and methods follow the manifest, components are sorted.
 */

/**
 * Operations answered with fixed bodies whose owner is not the API (the demo's, shared/demo/):
 * the response record and the body of each, by operation id. The owner composes the service's
 * document by passing them (shared/demo/openapi.ts), so the API imports none of that content.
 * Such an operation is served with a strong ETag and `Cache-Control`, and answers 304.
 */
export interface FixedBodies {
  responses: Record<string, core.$ZodType>;
  bodies: Record<string, unknown>;
}

const NO_FIXED_BODIES: FixedBodies = { responses: {}, bodies: {} };

const JSON_TYPE = 'application/json';
const LOCAL_BASE_URL = 'http://127.0.0.1:3000';

/** A strong ETag of the demo payloads: a quoted base64url SHA-256 (shared/demo/served.ts). */
const ETAG_HEADER = {
  description: 'Strong validator of the body; send it back in `If-None-Match`.',
  schema: { type: 'string', pattern: '^"[A-Za-z0-9_-]{43}"$', maxLength: 45 },
};

/** The `Cache-Control` of the public answers that set one (functions/public/handler.ts). */
const CACHE_CONTROL: Partial<Record<OperationId, string>> = {
  'public.health': 'no-store',
  'public.openapi': 'public, max-age=300',
};

/** What an operation says beyond its summary, from the manifest's own facts. */
function describeOperation(op: Operation): string {
  const lines = [
    op.auth === 'bearer'
      ? op.permission
        ? `Needs a bearer token and the \`${op.permission}\` permission${op.path.includes('{tenant_id}') ? ' in the tenant' : ''}.`
        : 'Needs a bearer token.'
      : 'Public: no token.',
  ];
  if (op.idempotent) lines.push('Honours `Idempotency-Key`.');
  return lines.join(' ');
}

function operation(c: Components, id: OperationId, op: Operation, fixed: FixedBodies): Json {
  const example = EXAMPLES[id];
  const demo = id in fixed.bodies ? { body: fixed.bodies[id] } : undefined;
  const response = op.response ?? fixed.responses[id];
  const out: Json = {
    operationId: id,
    summary: op.summary,
    description: describeOperation(op),
    tags: [op.group],
    security: op.auth === 'bearer' ? [{ bearerAuth: [] }] : [],
  };
  if (op.permission) out['x-permission'] = op.permission;
  if (op.deprecated) markDeprecated(out, op.deprecated);
  const params = parameters(c, op);
  if (params.length > 0) out.parameters = params;
  if (op.body) {
    out.requestBody = {
      required: true,
      content: {
        [JSON_TYPE]: {
          schema: c.convert(op.body, 'input'),
          ...(example?.request !== undefined ? { example: example.request } : {}),
        },
      },
    };
  }

  const headers: Json = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  const replayed = {
    description:
      '`true` when the answer is the replay of an earlier request with the same `Idempotency-Key`.',
    schema: { type: 'string', const: 'true' },
  };
  if (op.idempotent) headers['Idempotent-Replayed'] = replayed;
  if (op.deprecated) Object.assign(headers, deprecationResponseHeaders(op.deprecated));
  const cacheControl = CACHE_CONTROL[id];
  if (cacheControl)
    headers['Cache-Control'] = {
      description: `\`${cacheControl}\``,
      schema: { type: 'string', const: cacheControl },
    };
  if (demo) {
    headers.ETag = ETAG_HEADER;
    headers['Cache-Control'] = {
      description: `\`${DEMO_CACHE_CONTROL}\``,
      schema: { type: 'string', const: DEMO_CACHE_CONTROL },
    };
  }
  const success: Json = { description: op.summary, headers };
  if (op.html) {
    success.content = { 'text/html': { schema: { type: 'string' } } };
    success.headers = { ...headers, ...HTML_HEADERS };
  } else if (op.status !== 204) {
    const body = example?.response ?? demo?.body;
    success.content = {
      [JSON_TYPE]: {
        schema: response
          ? c.convert(response, 'output')
          : { type: 'object', description: 'An OpenAPI 3.1 document.' },
        ...(body !== undefined ? { example: body } : {}),
      },
    };
  }
  const responses: Json = { [String(op.status)]: success };
  if (op.alternative?.response) {
    responses[String(op.alternative.status)] = {
      description: op.alternative.when,
      headers,
      content: { [JSON_TYPE]: { schema: c.convert(op.alternative.response, 'output') } },
    };
  }
  if (demo) responses['304'] = { description: 'Not modified: the `If-None-Match` tag is current.', headers };
  for (const status of errorStatuses(id, op)) {
    // A use case's 4xx is kept with the key and replayed like a success (docs/api.md section 7).
    const kept =
      op.idempotent && REPLAYED_ERRORS.has(status) ? { 'Idempotent-Replayed': replayed } : undefined;
    const extra =
      kept || EXTRA_ERROR_HEADERS[id]?.[status]
        ? { ...EXTRA_ERROR_HEADERS[id]?.[status], ...kept }
        : undefined;
    const general = errorResponse(status);
    responses[String(status)] = extra
      ? { ...general, headers: { ...(general.headers as Json), ...extra } }
      : { $ref: `#/components/responses/${ERRORS[status][0]}` };
  }
  if (op.html)
    for (const status of [400, 429, 503] as const) {
      const general = errorResponse(status) as Json & { content: Json };
      const extra = EXTRA_ERROR_HEADERS[id]?.[status];
      responses[String(status)] = {
        ...general,
        headers: { ...(general.headers as Json), ...extra, ...HTML_HEADERS },
        content: { 'text/html': { schema: { type: 'string' } }, ...general.content },
      };
    }
  out.responses = responses;
  return out;
}

/** The errors a use case answers (after the `Idempotency-Key` claim), which a key keeps. */
const REPLAYED_ERRORS = new Set([404, 409, 422]);

const TAGS: Record<string, string> = {
  auth: 'Sessions and the current identity.',
  tenants: 'Tenants and their members.',
  exceptions: 'Business exceptions.',
  audit: 'The audit log.',
  public: 'Health, this document and the public demo (static synthetic data, no credentials).',
};

/** `operations` other than the manifest's only in tests (a deprecation no route has yet). */
export function buildOpenApi(
  fixed: FixedBodies = NO_FIXED_BODIES,
  operations: Operations = OPERATIONS,
): Json {
  const c = new Components();
  c.convert(Problem, 'output');
  const entries = Object.entries(operations) as [OperationId, Operation][];

  // Every response schema first, so that a request-side schema that differs from its response
  // side is the one that gets the `Input` suffix, whatever the manifest order.
  for (const [id, op] of entries) {
    const response = op.response ?? fixed.responses[id];
    if (response) c.convert(response, 'output');
    if (op.alternative?.response) c.convert(op.alternative.response, 'output');
  }
  const paths: Record<string, Json> = {};
  for (const [id, op] of entries) {
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = operation(c, id, op, fixed);
  }
  for (const [id, op] of entries)
    markDeprecatedFields(c, id, op, paths[op.path]![op.method.toLowerCase()] as Json);
  const groups = [...new Set(entries.map(([, op]) => op.group))];

  return {
    openapi: '3.1.0',
    info: {
      title: 'ops-platform API',
      version: pkg.version,
      summary: 'Multi-tenant business operations backend.',
      description: [
        'Tenants, role-based access, audit log, business exceptions, an outbox with notification delivery, and a public demo surface.',
        '',
        'Errors are `application/problem+json` (RFC 9457) with a stable `code`. A known path called with another method answers 405 with an `Allow` header. Every response carries `x-request-id`.',
      ].join('\n'),
      license: { name: 'UNLICENSED' },
    },
    // The local runtime first: the generated clients take the first server as their default.
    // The cloud address depends on the deployment (docs/infrastructure.md), hence the variables.
    servers: [
      {
        url: LOCAL_BASE_URL,
        description:
          'Local runtime for development and tests (`npm start`), plain HTTP on the loopback address',
        'x-internal': true,
      },
      {
        url: 'https://{api_id}.execute-api.{region}.amazonaws.com',
        description: 'A deployed stage (production or staging): API Gateway HTTP API, HTTPS only',
        'x-internal': false,
        variables: {
          api_id: { default: 'api-id', description: 'The HTTP API id `cdk deploy` prints' },
          region: { default: 'eu-central-1', description: 'The AWS region of the stage' },
        },
      },
    ],
    tags: groups.map((name) => ({ name, description: TAGS[name] ?? name })),
    paths,
    components: {
      schemas: c.sorted(),
      responses: Object.fromEntries(
        (Object.keys(ERRORS).map(Number) as ErrorStatus[]).map((s) => [ERRORS[s][0], errorResponse(s)]),
      ),
      headers: {
        RequestId: {
          description: 'The request id: the caller’s `x-request-id` when sane, otherwise generated.',
          schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,128}$', maxLength: 128 },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An opaque access token from `POST /auth/sessions`, sent as `Authorization: Bearer <access_token>`.',
        },
      },
    },
  };
}
