import { classifyHttpStatus } from '#shared/kernel/http-status';

/**
 * The error classes of the accounting export (docs/api.md section 9.2): what can go wrong when a
 * document goes to an accounting target, and whether another attempt may fix it. One table: the
 * worker classifies every failure with it, the export's items carry its codes, and the docs
 * render it (docs/api.md section 9.2 quotes it row by row; a unit test keeps them equal).
 */

export interface ErrorClass {
  code: string;
  /** What the target answered, or what happened instead of an answer. */
  when: string;
  retryable: boolean;
  /**
   * True when the target may have booked the document although the call failed (no answer, or a
   * server error): the document's `sending` record stays, and the next attempt resolves it first.
   */
  outcomeUnknown: boolean;
}

export const ERROR_CLASSES = [
  { code: 'timeout', when: 'no answer within the timeout', retryable: true, outcomeUnknown: true },
  { code: 'network_error', when: 'connection refused or reset', retryable: true, outcomeUnknown: true },
  {
    code: 'rate_limited',
    when: '429 Too Many Requests (the next attempt waits at least its Retry-After)',
    retryable: true,
    outcomeUnknown: false,
  },
  {
    code: 'daily_limit_reached',
    when: "429 for the provider's daily limit (Xero: X-Rate-Limit-Problem: day); the next attempt waits for the next day's window",
    retryable: true,
    outcomeUnknown: false,
  },
  { code: 'target_unavailable', when: '500 to 599', retryable: true, outcomeUnknown: true },
  { code: 'validation_rejected', when: '400 or 422', retryable: false, outcomeUnknown: false },
  { code: 'auth_failed', when: '401 or 403', retryable: false, outcomeUnknown: false },
  { code: 'target_rejected', when: 'any other 4xx (404, 409, ...)', retryable: false, outcomeUnknown: false },
  {
    code: 'reauthorization_required',
    when: 'the provider refused to refresh the OAuth 2 tokens (invalid_grant): sending stops until the connection is authorized again',
    retryable: false,
    outcomeUnknown: false,
  },
  {
    code: 'not_configured',
    when: "the connection's adapter has no client, or its secret is missing",
    retryable: false,
    outcomeUnknown: false,
  },
  {
    code: 'invoice_not_booked',
    when: 'a payment or credit note whose invoice the target does not hold yet: it waits for the invoice (retried with backoff), then goes to review naming the invoice',
    retryable: true,
    outcomeUnknown: false,
  },
  {
    code: 'outcome_unknown',
    when: 'an earlier call may have booked the document and the target can neither deduplicate nor look it up',
    retryable: false,
    outcomeUnknown: true,
  },
] as const satisfies readonly ErrorClass[];

export type ErrorCode = (typeof ERROR_CLASSES)[number]['code'];

export const errorClass = (code: ErrorCode): ErrorClass => ERROR_CLASSES.find((c) => c.code === code)!;

/** The error code of a target's HTTP status (2xx is not an error: undefined). */
export const classifyTargetStatus = (status: number): ErrorCode | undefined => classifyHttpStatus(status);
