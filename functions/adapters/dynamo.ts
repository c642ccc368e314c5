import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { UnavailableError } from '#shared/kernel/errors';
import type { TableConfig } from '#functions/config';
import { clientOptions, made } from './client-options';
import type { Db } from './db';

/**
 * The DynamoDB edge: one client per function (created when its handler loads, reused by every
 * invocation) and the SDK's failures of the table classified once. Transactions whose outcome is
 * known are in ./transact.ts, signed paged queries in ./query.ts.
 */

export type { Db } from './db';

/** The fields of an SDK error that classify it. */
export interface SdkError {
  name?: string;
  code?: string;
  $fault?: 'client' | 'server';
  $retryable?: unknown;
  CancellationReasons?: { Code?: string }[];
}

/** Errors of an overloaded or failing table (`$fault: 'server'` covers InternalServerError and ServiceUnavailable). */
const UNAVAILABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  // A single-item write that met a transaction in flight on the same item: retrying later succeeds.
  'TransactionConflictException',
  'TimeoutError',
]);
/** Node's codes for a connection that could not be made or broke: no answer from the table at all. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);
/** Reasons of a cancelled transaction that are capacity, not a condition. */
const THROTTLED_REASONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded']);

/**
 * Whether an SDK error means the table is unavailable for now (network, throttling, a server
 * error), after the SDK's own retries: docs/api.md section 2's 503 `unavailable`. Everything else
 * (a failed condition, a cancelled transaction, a bug) stays as it is.
 */
export function isUnavailable(err: unknown): boolean {
  const e = (err ?? {}) as SdkError;
  if (e.$fault === 'server' || e.$retryable) return true;
  if (UNAVAILABLE_NAMES.has(e.name ?? '') || NETWORK_CODES.has(e.code ?? '')) return true;
  return (
    e.name === 'TransactionCanceledException' &&
    (e.CancellationReasons ?? []).some((r) => THROTTLED_REASONS.has(r.Code ?? ''))
  );
}

/**
 * A document client whose every command (whichever adapter sends it) fails with UnavailableError
 * when the table is unavailable: the one place that classifies the SDK's failures.
 */
export const documentClient = (client = new DynamoDBClient(clientOptions())): DynamoDBDocumentClient => {
  // The document client sends through the base client's middleware stack: the local runtime's
  // hook (a test's call recorder) sees the base client.
  const doc = DynamoDBDocumentClient.from(made(client), {
    marshallOptions: { removeUndefinedValues: true },
  });
  doc.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        throw isUnavailable(err) ? new UnavailableError(err) : err;
      }
    },
    // `initialize` is outside the SDK's retries: only the last attempt's failure is classified.
    { step: 'initialize', name: 'unavailableErrors', override: true },
  );
  return doc;
};

/** The configured table, through a new client. */
export function dbFor({ tableName, cursorSecret, client }: TableConfig): Db {
  if (!tableName || !cursorSecret) throw new Error('TABLE_NAME and OPS_CURSOR_SECRET must be set');
  return { doc: documentClient(new DynamoDBClient(clientOptions(client))), tableName, cursorSecret };
}
