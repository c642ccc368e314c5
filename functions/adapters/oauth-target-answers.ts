import type { BookingResult, TargetDocument } from '#shared/domain/accounting/ports';
import type { ErrorCode } from '#shared/domain/accounting/error-classes';
import { errorOf, retryAfterOf } from './oauth-calls';

/**
 * How the OAuth 2 export clients (xero-target.ts, quickbooks-target.ts) read a provider's answer
 * into a document's result: its body, or the document's failure in the provider's own words
 * (never a token: only the answer's error fields are read), cut to MESSAGE_MAX.
 */

type Kind = 'invoice' | 'credit_note' | 'payment';
export const kindOf = (d: TargetDocument): Kind =>
  d.document.document_type === 'payment' || d.document.document_type === 'credit_note'
    ? d.document.document_type
    : 'invoice';

const MESSAGE_MAX = 500;

export const failed = (
  d: TargetDocument,
  error: ErrorCode,
  message?: string,
  retryAfter?: number,
): BookingResult[] => [
  {
    index: d.index,
    ok: false,
    error,
    ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
    ...(message ? { message: message.slice(0, MESSAGE_MAX) } : {}),
  },
];

/** What a provider said in an error answer, read by `words`; undefined when the body is not JSON. */
async function said(res: Response, words: (body: Record<string, unknown>) => string | undefined) {
  try {
    return words((await res.json()) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

type Answer = { ok: true; body: Record<string, unknown> } | { ok: false; result: BookingResult[] };

/** One create call's answer: its body, or the document's failure with the provider's words. */
export async function answerOf(
  d: TargetDocument,
  res: Response | { error: ErrorCode },
  words: (body: Record<string, unknown>) => string | undefined,
): Promise<Answer> {
  if ('error' in res) return { ok: false, result: failed(d, res.error) };
  const error = errorOf(res);
  if (error) return { ok: false, result: failed(d, error, await said(res, words), retryAfterOf(res)) };
  return { ok: true, body: (await res.json()) as Record<string, unknown> };
}

export type Rows = Record<string, unknown>[];
export const rows = (v: unknown): Rows => (Array.isArray(v) ? (v as Rows) : []);

/** A second call's key, derived from the document's: its retry replays it as the first's does. */
export const derivedKey = (key: string, suffix: string, max: number) =>
  `${key.slice(0, max - suffix.length - 1)}-${suffix}`;
