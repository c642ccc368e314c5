import * as z from 'zod';
import * as core from 'zod/v4/core';
import pkg from '../../package.json' with { type: 'json' };
import { OPERATIONS, type Operation, type OperationId } from './manifest';
import { DEMO_CACHE_CONTROL, DEMO_PAYLOADS } from '#shared/demo/index';
import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_MAX_LENGTH } from './schemas/common';
import { Problem } from './schemas/responses';

/**
 * The OpenAPI 3.1 description of every operation, generated from the manifest in `shared/api/manifest.ts`
 * and the zod schemas the handlers validate with (zod 4's JSON Schema output, draft 2020-12, the
 * dialect of OpenAPI 3.1). Request bodies and parameters use the schemas' input side (fields with
 * a default are optional), responses their output side. A schema with a zod `id` becomes a named
 * component; when its input and output sides differ, the input side is named `<id>Input`.
 *
 * The output is deterministic: paths and methods follow the manifest, components are sorted.
 */

type Json = Record<string, unknown>;
type Io = 'input' | 'output';

const REF = '#/components/schemas/';
const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';
const LOCAL_BASE_URL = 'http://127.0.0.1:3000';

const stable = (value: unknown): string => JSON.stringify(value);

/** Rewrites every `$ref` of a JSON Schema tree with `map`. */
function rewriteRefs(node: unknown, map: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, map));
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' ? map(value) : rewriteRefs(value, map);
  }
  return out;
}

/** Collects named schemas as components while converting zod schemas to JSON Schema. */
class Components {
  readonly schemas = new Map<string, Json>();

  /**
   * Converts `schema` and hoists every named (`$defs`) schema into the components. Returns the
   * schema to place inline: a `$ref` when the root schema itself is named.
   */
  convert(schema: core.$ZodType, io: Io): Json {
    const {
      $schema: _,
      $defs,
      ...root
    } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      reused: 'inline',
    }) as Json & { $defs?: Record<string, Json> };
    const defs = $defs ?? {};
    const rename = new Map<string, string>();
    const local = (id: string) => rename.get(id) ?? id;
    const mapRef = (ref: string) => (ref.startsWith('#/$defs/') ? `${REF}${local(ref.slice(8))}` : ref);
    // A named schema whose input side differs from the output side already registered gets its own
    // name; renaming one can change the ones that refer to it, so repeat until nothing changes.
    for (let changed = true; changed;) {
      changed = false;
      for (const [id, def] of Object.entries(defs)) {
        if (rename.has(id)) continue;
        const known = this.schemas.get(id);
        if (io === 'input' && known && stable(known) !== stable(rewriteRefs(def, mapRef))) {
          rename.set(id, `${id}Input`);
          changed = true;
        }
      }
    }
    for (const [id, def] of Object.entries(defs)) {
      const name = local(id);
      const converted = rewriteRefs(def, mapRef) as Json;
      const known = this.schemas.get(name);
      if (known && stable(known) !== stable(converted)) {
        throw new Error(`Two different schemas are both named ${name}`);
      }
      this.schemas.set(name, converted);
    }
    return rewriteRefs(root, mapRef) as Json;
  }

  sorted(): Record<string, Json> {
    return Object.fromEntries([...this.schemas.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }
}

// ---------------------------------------------------------------------------------------------
// Errors (docs/api.md section 2)

const ERRORS = {
  400: [
    'BadRequest',
    'Malformed JSON (`malformed_json`) or a cursor not issued for this list (`invalid_cursor`).',
  ],
  401: [
    'Unauthenticated',
    'Missing, unknown, expired or revoked token (`unauthenticated`), or a failed login (`invalid_credentials`).',
  ],
  403: ['Forbidden', 'The caller is a member of the tenant but its role may not do this (`forbidden`).'],
  404: ['NotFound', 'Unknown route or resource, or a tenant the caller is not a member of (`not_found`).'],
  405: [
    'MethodNotAllowed',
    'Known path, other method (`method_not_allowed`); the `Allow` header lists the methods.',
  ],
  409: [
    'Conflict',
    'A duplicate natural key or reused idempotency key (`conflict`), or a state change the state machine refuses (`invalid_transition`).',
  ],
  413: ['PayloadTooLarge', 'The request body is over 256 KiB (`payload_too_large`).'],
  415: ['UnsupportedMediaType', 'The request body is not `application/json` (`unsupported_media_type`).'],
  422: [
    'ValidationFailed',
    'Bounds, patterns, enums, required or unknown fields (`validation_failed`); `errors[]` names each path.',
  ],
  429: ['TooManyRequests', 'Rate limited (`rate_limited`); retry after `Retry-After` seconds.'],
  500: ['InternalError', 'Unexpected failure (`internal`); the body never shows anything internal.'],
  503: [
    'Unavailable',
    'The table is unavailable or overloaded (`unavailable`); retry after `Retry-After` seconds.',
  ],
} as const satisfies Record<number, readonly [string, string]>;
type ErrorStatus = keyof typeof ERRORS;

const ERROR_EXAMPLES: Record<ErrorStatus, { title: string; code: string; detail: string }> = {
  400: { title: 'Malformed JSON', code: 'malformed_json', detail: 'The request body is not valid JSON.' },
  401: { title: 'Unauthenticated', code: 'unauthenticated', detail: 'A valid bearer token is required.' },
  403: { title: 'Forbidden', code: 'forbidden', detail: 'Your role does not allow this action.' },
  404: { title: 'Not found', code: 'not_found', detail: 'The resource does not exist.' },
  405: { title: 'Method not allowed', code: 'method_not_allowed', detail: 'Allowed methods: GET.' },
  409: {
    title: 'Invalid transition',
    code: 'invalid_transition',
    detail: 'A resolved exception cannot change status.',
  },
  413: {
    title: 'Payload too large',
    code: 'payload_too_large',
    detail: 'Request bodies are limited to 262144 bytes.',
  },
  415: {
    title: 'Unsupported media type',
    code: 'unsupported_media_type',
    detail: 'Request bodies must be application/json.',
  },
  422: {
    title: 'Validation failed',
    code: 'validation_failed',
    detail: 'The request does not match the schema.',
  },
  429: { title: 'Too many requests', code: 'rate_limited', detail: 'Slow down and retry later.' },
  500: { title: 'Internal error', code: 'internal', detail: 'Something went wrong on our side.' },
  503: {
    title: 'Service unavailable',
    code: 'unavailable',
    detail: 'A dependency of the service is unavailable or overloaded; retry after Retry-After seconds.',
  },
};

/** Operations that answer an error the general rules below do not derive. */
const EXTRA_ERRORS: Partial<Record<OperationId, ErrorStatus[]>> = {
  'auth.login': [401],
  'auth.acceptInvitation': [409],
  'auth.declineInvitation': [409],
  'public.health': [503],
};

function errorStatuses(id: OperationId, op: Operation): ErrorStatus[] {
  const out = new Set<ErrorStatus>(EXTRA_ERRORS[id] ?? []);
  if (op.body) for (const s of [400, 413, 415, 422] as const) out.add(s);
  if (op.query) {
    out.add(422);
    if (op.query instanceof core.$ZodObject && 'cursor' in op.query._zod.def.shape) out.add(400);
  }
  if (op.auth === 'bearer') out.add(401);
  if (op.permission) out.add(403);
  if (op.params || op.path.includes('{')) out.add(404);
  if (op.method !== 'GET' && op.auth === 'bearer' && op.permission) out.add(409);
  out.add(429);
  out.add(500);
  // Every other group reads the table; the public group serves static answers.
  if (op.group !== 'public') out.add(503);
  return [...out].sort((a, b) => a - b);
}

function errorResponse(status: ErrorStatus): Json {
  const [, description] = ERRORS[status];
  const headers: Json = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  if (status === 401)
    headers['WWW-Authenticate'] = {
      description: '`Bearer` when a token is missing or invalid.',
      schema: { type: 'string' },
    };
  if (status === 405)
    headers.Allow = { description: 'The methods the path supports.', schema: { type: 'string' } };
  if (status === 429 || status === 503)
    headers['Retry-After'] = { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 0 } };
  if (status === 503)
    headers['Cache-Control'] = {
      description: '`no-store`: the answer is transient.',
      schema: { type: 'string' },
    };
  const example: Json = { type: 'about:blank', status, ...ERROR_EXAMPLES[status], request_id: 'req-7f3c2a' };
  if (status === 422)
    example.errors = [
      { path: 'title', code: 'too_small', message: 'Too small: expected string to have >=2 characters' },
    ];
  return {
    description,
    headers,
    content: { [PROBLEM_TYPE]: { schema: { $ref: `${REF}Problem` }, example } },
  };
}

// ---------------------------------------------------------------------------------------------
// Examples of the core operations; demo operations use their payloads. A test validates every
// example against its schema, so an example cannot drift from the contract.

const AT = '2026-03-31T07:05:00Z';
const EXAMPLE_USER = {
  id: 'usr_01HZX3K8QG',
  email: 'admin@example.com',
  display_name: 'Platform admin',
  created_at: AT,
};
const EXAMPLE_EXCEPTION = {
  id: 'exc_01HZX4B2N7',
  tenant_id: 'alder-creek-supply',
  exception_type: 'payment.amount_mismatch',
  severity: 'warning',
  status: 'open',
  subject_type: 'supplier_invoice',
  subject_id: 'INV-20417',
  title: 'Payment 540.00 USD below invoice',
  summary: 'Payment PAY-88120 of 4,860.00 USD does not cover invoice INV-20417 of 5,400.00 USD.',
  impact_json: '{"amount_gap":"540.00","currency":"USD"}',
  evidence_json: '{"payment_ref":"PAY-88120"}',
  detected_at: AT,
  created_at: AT,
  updated_at: AT,
  resolved_at: null,
};

export const EXAMPLES: Partial<Record<OperationId, { request?: unknown; response?: unknown }>> = {
  'auth.login': {
    request: { email: 'admin@example.com', password: 'your-password' },
    response: {
      access_token: 'opaque-random-token',
      expires_at: '2026-03-31T19:05:00Z',
      token_type: 'bearer',
      user: EXAMPLE_USER,
    },
  },
  'tenants.create': {
    request: { id: 'alder-creek-supply', name: 'Alder Creek Supply Co.' },
    response: { id: 'alder-creek-supply', name: 'Alder Creek Supply Co.', status: 'active', created_at: AT },
  },
  'exceptions.create': {
    request: {
      exception_type: 'payment.amount_mismatch',
      subject_type: 'supplier_invoice',
      subject_id: 'INV-20417',
      title: 'Payment 540.00 USD below invoice',
      summary: 'Payment PAY-88120 of 4,860.00 USD does not cover invoice INV-20417 of 5,400.00 USD.',
      severity: 'warning',
      impact: { amount_gap: '540.00', currency: 'USD' },
      evidence: { payment_ref: 'PAY-88120' },
    },
    response: EXAMPLE_EXCEPTION,
  },
  'exceptions.list': { response: { items: [EXAMPLE_EXCEPTION], next_cursor: null } },
  'exceptions.changeStatus': {
    request: { status: 'resolved', note: 'Early-payment discount of 10% confirmed.' },
    response: {
      ...EXAMPLE_EXCEPTION,
      status: 'resolved',
      updated_at: '2026-03-31T09:05:00Z',
      resolved_at: '2026-03-31T09:05:00Z',
    },
  },
  'public.health': { response: { status: 'ok' } },
};

// ---------------------------------------------------------------------------------------------

const header = (description: string) => ({ description, schema: { type: 'string' } });

function parameters(c: Components, op: Operation): Json[] {
  const out: Json[] = [];
  const add = (schema: core.$ZodType | undefined, where: 'path' | 'query') => {
    if (!schema) return;
    const js = c.convert(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  add(op.params, 'path');
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    if (!out.some((p) => p.in === 'path' && p.name === name)) {
      out.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    }
  }
  add(op.query, 'query');
  if (op.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'The same key and body return the first answer; the same key with another body is 409 `conflict`.',
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: IDEMPOTENCY_KEY_MAX_LENGTH,
        pattern: IDEMPOTENCY_KEY.source,
      },
    });
  }
  return out;
}

function operation(c: Components, id: OperationId, op: Operation): Json {
  const example = EXAMPLES[id];
  const demo = (DEMO_PAYLOADS as Record<string, { body: unknown } | undefined>)[id];
  const out: Json = {
    operationId: id,
    summary: op.summary,
    tags: [op.group],
    security: op.auth === 'bearer' ? [{ bearerAuth: [] }] : [],
  };
  if (op.permission) out['x-permission'] = op.permission;
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
  if (demo) {
    headers.ETag = header('Strong validator of the body; send it back in `If-None-Match`.');
    headers['Cache-Control'] = header(`\`${DEMO_CACHE_CONTROL}\``);
  }
  const success: Json = { description: op.summary, headers };
  if (op.status !== 204) {
    const body = example?.response ?? demo?.body;
    success.content = {
      [JSON_TYPE]: {
        schema: op.response
          ? c.convert(op.response, 'output')
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
  for (const status of errorStatuses(id, op))
    responses[String(status)] = { $ref: `#/components/responses/${ERRORS[status][0]}` };
  out.responses = responses;
  return out;
}

const TAGS: Record<string, string> = {
  auth: 'Sessions and the current identity.',
  tenants: 'Tenants and their members.',
  exceptions: 'Business exceptions.',
  audit: 'The audit log.',
  public: 'Health, this document and the public demo (static synthetic data, no credentials).',
};

export function buildOpenApi(): Json {
  const c = new Components();
  c.convert(Problem, 'output');
  const entries = Object.entries(OPERATIONS) as [OperationId, Operation][];

  // Every response schema first, so that a request-side schema that differs from its response
  // side is the one that gets the `Input` suffix, whatever the manifest order.
  for (const [, op] of entries) {
    if (op.response) c.convert(op.response, 'output');
    if (op.alternative?.response) c.convert(op.alternative.response, 'output');
  }
  const paths: Record<string, Json> = {};
  for (const [id, op] of entries) {
    paths[op.path] ??= {};
    paths[op.path]![op.method.toLowerCase()] = operation(c, id, op);
  }
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
    servers: [{ url: LOCAL_BASE_URL, description: 'Local runtime (`npm start`)' }],
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
          schema: { type: 'string' },
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
