import * as core from 'zod/v4/core';
import type { Operation, OperationId } from '../manifest';
import { type Json, REF } from './components';
import { PERMISSIONS, ROLES, type Role } from '#shared/kernel/policy';

const PROBLEM_TYPE = 'application/problem+json';

// Errors (docs/api.md section 2)

export const ERRORS = {
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
export type ErrorStatus = keyof typeof ERRORS;

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
  // A connection whose adapter is not connected by OAuth 2 (`not_oauth2`, naming connection_id).
  'integrationConnections.authorize': [422],
};

/** Headers an operation's error answer carries beyond the general ones of `errorResponse`. */
export const EXTRA_ERROR_HEADERS: Partial<Record<OperationId, Partial<Record<ErrorStatus, Json>>>> = {
  // A draft the policy check refuses is kept as blocked (docs/api.md section 7).
  'notifications.create': {
    422: {
      Location: {
        description: 'With `policy_rejected`: the blocked draft that was kept.',
        schema: { type: 'string', maxLength: 256, pattern: '^/tenants/[^/]+/notifications/[^/]+$' },
      },
    },
  },
};

export function errorStatuses(id: OperationId, op: Operation): ErrorStatus[] {
  const out = new Set<ErrorStatus>(EXTRA_ERRORS[id] ?? []);
  if (op.body) for (const s of [400, 413, 415, 422] as const) out.add(s);
  if (op.query) {
    out.add(422);
    if (op.query instanceof core.$ZodObject && 'cursor' in op.query._zod.def.shape) out.add(400);
  }
  if (op.auth === 'bearer') out.add(401);
  // Only where some caller can be refused: a permission every tenant role holds never answers 403.
  if (op.permission && ROLES.some((role) => !(PERMISSIONS[op.permission!] as readonly Role[]).includes(role)))
    out.add(403);
  if (op.params || op.path.includes('{')) out.add(404);
  if (op.method !== 'GET' && op.auth === 'bearer' && op.permission) out.add(409);
  out.add(429);
  out.add(500);
  // Every other group reads the table; the public group serves static answers.
  if (op.group !== 'public') out.add(503);
  return [...out].sort((a, b) => a - b);
}

/**
 * The longest `Retry-After` the service sends: the rest of a 15-minute failed-login window
 * (LOGIN_WINDOW_SECONDS, shared/domain/identity/sessions.ts). API Gateway's own throttling 429
 * (docs/api.md section 2) sends none.
 */
export const RETRY_AFTER_MAX_SECONDS = 900;

export const RETRY_AFTER_HEADER: Json = {
  description:
    'Seconds to wait before retrying. Always on the service’s own 429 and 503; API Gateway’s throttling 429 has none.',
  schema: { type: 'integer', format: 'int32', minimum: 1, maximum: RETRY_AFTER_MAX_SECONDS },
};

export function errorResponse(status: ErrorStatus): Json {
  const [, description] = ERRORS[status];
  const headers: Json = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  if (status === 401)
    headers['WWW-Authenticate'] = {
      description: '`Bearer` when a token is missing or invalid.',
      schema: { type: 'string', const: 'Bearer' },
    };
  if (status === 405)
    headers.Allow = {
      description: 'The methods the path supports.',
      schema: { type: 'string', maxLength: 64, pattern: '^[A-Z]+(, [A-Z]+)*$' },
    };
  if (status === 429 || status === 503) headers['Retry-After'] = RETRY_AFTER_HEADER;
  if (status === 503)
    headers['Cache-Control'] = {
      description: '`no-store`: the answer is transient.',
      schema: { type: 'string', const: 'no-store' },
    };
  const example: Json = { type: 'about:blank', status, ...ERROR_EXAMPLES[status], request_id: 'req-7f3c2a' };
  if (status === 422)
    example.errors = [{ path: 'title', code: 'too_small', message: 'must be at least 2 characters' }];
  return {
    description,
    headers,
    content: { [PROBLEM_TYPE]: { schema: { $ref: `${REF}Problem` }, example } },
  };
}
