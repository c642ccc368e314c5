/**
 * The service's error hierarchy. Every error a client may see is an AppError that knows its
 * HTTP status and problem code (docs/api.md section 2). Anything else becomes a plain 500 in the
 * one error mapper (functions/http/problem.ts), so nothing internal leaks.
 */

export interface FieldError {
  path: string;
  code: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail?: string,
    options?: { cause?: unknown; errors?: FieldError[]; headers?: Record<string, string> },
  ) {
    super(detail ?? title, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.errors = options?.errors;
    this.headers = options?.headers;
    this.expose = status < 500;
  }
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;
  /**
   * Whether the client may read this error's own detail and field errors: middy's rule, only
   * below 500. A 5xx's message is for the logs; the client gets a generic detail.
   */
  readonly expose: boolean;
}

export class MalformedJsonError extends AppError {
  constructor(cause?: unknown) {
    super(400, 'malformed_json', 'Malformed JSON', 'The request body is not valid JSON.', { cause });
  }
}

export class InvalidCursorError extends AppError {
  constructor() {
    super(
      400,
      'invalid_cursor',
      'Invalid cursor',
      'The cursor was not issued for this list, tenant and filter.',
    );
  }
}

export class UnauthenticatedError extends AppError {
  constructor(detail = 'A valid bearer token is required.') {
    super(401, 'unauthenticated', 'Unauthenticated', detail, { headers: { 'www-authenticate': 'Bearer' } });
  }
}

export class InvalidCredentialsError extends AppError {
  constructor() {
    super(401, 'invalid_credentials', 'Invalid credentials', 'The email or password is wrong.');
  }
}

export class ForbiddenError extends AppError {
  constructor(detail = 'Your role does not allow this action.') {
    super(403, 'forbidden', 'Forbidden', detail);
  }
}

export class NotFoundError extends AppError {
  constructor(detail = 'The resource does not exist.') {
    super(404, 'not_found', 'Not found', detail);
  }
}

export class MethodNotAllowedError extends AppError {
  constructor(allow: string[]) {
    super(405, 'method_not_allowed', 'Method not allowed', `Allowed methods: ${allow.join(', ')}.`, {
      headers: { allow: allow.join(', ') },
    });
  }
}

export class InvalidTransitionError extends AppError {
  constructor(detail: string) {
    super(409, 'invalid_transition', 'Invalid transition', detail);
  }
}

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(409, 'conflict', 'Conflict', detail);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(limit: number) {
    super(413, 'payload_too_large', 'Payload too large', `Request bodies are limited to ${limit} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends AppError {
  constructor() {
    super(
      415,
      'unsupported_media_type',
      'Unsupported media type',
      'Request bodies must be application/json.',
    );
  }
}

export class ValidationError extends AppError {
  constructor(errors: FieldError[], detail = 'The request does not match the schema.') {
    super(422, 'validation_failed', 'Validation failed', detail, { errors });
  }
}

export class RateLimitedError extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many requests', 'Slow down and retry later.', {
      headers: { 'retry-after': String(retryAfterSeconds) },
    });
  }
}

/** Seconds a client should wait before retrying after a 503 `unavailable`. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/**
 * A dependency (the table) failed or is overloaded: 503 `unavailable` with `Retry-After`
 * (docs/api.md section 2). The adapters raise it (functions/adapters/dynamo.ts) for the SDK's
 * network, throttling and server errors; the cause goes to the log, never to the client.
 * `no-store`, so that no cache between keeps a transient failure as the answer.
 */
export class UnavailableError extends AppError {
  constructor(cause?: unknown) {
    super(503, 'unavailable', 'Service unavailable', 'A dependency of the service did not answer.', {
      cause,
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS), 'cache-control': 'no-store' },
    });
  }
}

/** A notification draft that failed the policy check (docs/api.md section 7); the draft is kept as blocked. */
export class PolicyRejectedError extends AppError {
  constructor(errors: FieldError[], notificationId: string, location: string) {
    super(
      422,
      'policy_rejected',
      'Policy rejected',
      `The notification failed the policy check and was kept as blocked (id ${notificationId}).`,
      { errors, headers: { location } },
    );
  }
}
