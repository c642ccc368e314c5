import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { type CursorScope, decodeCursor, encodeCursor } from '#shared/kernel/cursor';
import { UnavailableError } from '#shared/kernel/errors';
import type { Page, PageRequest } from '#shared/kernel/page';
import { type IndexName, keyAttributes } from '#shared/table/table';
import type { TableConfig } from '#functions/config';
import {
  OutcomeUnknownError,
  type PendingWrite,
  TOKEN_WINDOW_MS,
  writeScope,
} from '#functions/http/write-outcome';
import { recordingCalls } from './call-record';
import { clientOptions } from './client-options';
import type { Db } from './db';

/**
 * The DynamoDB edge: one client per function (created when its handler loads, reused by every
 * invocation), the SDK's failures of the table classified once, transactions that report which
 * condition failed, and signed paged queries.
 */

export type { Db } from './db';

interface SdkError {
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
  // The document client sends through the base client's middleware stack: recorded there.
  const doc = DynamoDBDocumentClient.from(recordingCalls(client), {
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

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Transaction items without the table name; `transact` adds it. */
export type WriteOp =
  | { Put: Omit<NonNullable<TransactItem['Put']>, 'TableName'> }
  | { Update: Omit<NonNullable<TransactItem['Update']>, 'TableName'> }
  | { Delete: Omit<NonNullable<TransactItem['Delete']>, 'TableName'> }
  | { ConditionCheck: Omit<NonNullable<TransactItem['ConditionCheck']>, 'TableName'> };

export type TransactResult = { ok: true } | { ok: false; failed: number[] };

/** Attempts of a transaction that DynamoDB cancels because another one in flight holds an item. */
export const TRANSACT_ATTEMPTS = 3;
/** Before attempt n + 1: 10 to 30 ms, then 20 to 60 ms, jittered so that two losers do not meet again. */
const conflictPause = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, (10 + Math.random() * 20) * 2 ** (attempt - 1)));

/** Positions of the items whose cancellation reason is `code`. */
const positionsOf = (reasons: { Code?: string }[], code: string) =>
  reasons.flatMap((r, i) => (r.Code === code ? [i] : []));

/** Errors that say the table refused the work (throttling): nothing was written, the outcome is known. */
const REFUSED_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
]);

/** Node's codes for a connection never made: the request did not leave, nothing was written. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether a failed send may have committed: a timeout, a broken connection or a server error
 * after the request left (the table may have written it and the answer was lost). DynamoDB's
 * `TransactionInProgressException` says the first send with the token is still running.
 */
const outcomeUnknown = (err: unknown) => {
  if ((err as SdkError).name === 'TransactionInProgressException') return true;
  if (!(err instanceof UnavailableError)) return false;
  const cause = (err.cause ?? {}) as SdkError;
  return !REFUSED_NAMES.has(cause.name ?? '') && !NOT_CONNECTED_CODES.has(cause.code ?? '');
};

/**
 * Outside a request (workers: a failure is retried by their queue with a new token), how long an
 * unknown outcome is re-sent for: about one more SDK call's deadlines.
 */
export const RESOLVE_BUDGET_MS = 4_000;
/** The first pause before a re-send, doubled up to RESOLVE_PAUSE_MAX_MS. */
const RESOLVE_PAUSE_MS = 50;
const RESOLVE_PAUSE_MAX_MS = 800;

/**
 * Sends a pending transaction again with its token until its outcome is known or `deadline`
 * (epoch ms) passes: 'committed' (the first send or this one wrote it), or the cancellation
 * DynamoDB answers now (the first send wrote nothing: with the token, a committed one answers
 * success). Throws OutcomeUnknownError when the deadline passes first, or when the token is past
 * DynamoDB's window (a re-send would be a new transaction, and its answer no proof). The first
 * re-send waits a moment, unless `immediately` (a later request resolving a kept one).
 */
export async function resolvePending(
  db: Db,
  pending: PendingWrite,
  deadline: number,
  { immediately = false } = {},
): Promise<'committed'> {
  const first = immediately ? 0 : RESOLVE_PAUSE_MS;
  for (let pause = first; ; pause = Math.min(Math.max(pause * 2, RESOLVE_PAUSE_MS), RESOLVE_PAUSE_MAX_MS)) {
    if (Date.now() + pause >= Math.min(deadline, pending.sent_at + TOKEN_WINDOW_MS))
      throw new OutcomeUnknownError(pending);
    await sleep(pause);
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: pending.items as TransactItem[],
          ClientRequestToken: pending.token,
        }),
        // A re-send ends with the budget: its answer after the function's timeout helps nobody.
        { abortSignal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) },
      );
      return 'committed';
    } catch (err) {
      if (!outcomeUnknown(err) && (err as SdkError).name !== 'AbortError') throw err;
    }
  }
}

/**
 * One send of a transaction with a new `ClientRequestToken`. When its answer is lost (a timeout
 * after the table committed answered 503 for a change that was made, issue 38), it is sent again
 * with the same token, which DynamoDB makes idempotent for 10 minutes, until the outcome is known
 * or the request's budget ends (OutcomeUnknownError).
 */
async function sendKnown(db: Db, TransactItems: TransactItem[]): Promise<void> {
  const pending = { token: randomUUID(), items: TransactItems, sent_at: Date.now() };
  try {
    await db.doc.send(new TransactWriteCommand({ TransactItems, ClientRequestToken: pending.token }));
    return;
  } catch (err) {
    if (!outcomeUnknown(err)) throw err;
  }
  await resolvePending(db, pending, writeScope()?.deadline ?? Date.now() + RESOLVE_BUDGET_MS);
}

/**
 * One TransactWriteItems, whose outcome is known when it answers (see sendKnown). A cancelled
 * transaction whose reasons are condition failures is an answer (`failed` lists the positions),
 * not an error. One cancelled for a conflict with another transaction in flight
 * (`TransactionConflict`, which wrote nothing) is tried again with a new token, up to
 * TRANSACT_ATTEMPTS times; if it still conflicts, the other transaction won the race, and the
 * conflicting positions are answered as failed conditions, so the use case answers 409 as for
 * any lost race. Anything else propagates.
 *
 * An outcome still unknown at the end of the request's budget is a 503, except in a request
 * with an `Idempotency-Key` (functions/http/write-outcome.ts): there the request goes on as if
 * it committed, so its answer can be kept with the pending transaction for a retry with the same
 * key to resolve; a later transaction of that request is not sent on a write not known to be made.
 */
export async function transact(db: Db, ops: WriteOp[]): Promise<TransactResult> {
  const scope = writeScope();
  if (scope?.pending) throw new OutcomeUnknownError();
  const TransactItems = ops.map((op) => {
    const [kind, body] = Object.entries(op)[0] as [string, object];
    return { [kind]: { ...body, TableName: db.tableName } } as TransactItem;
  });
  for (let attempt = 1; ; attempt++) {
    try {
      await sendKnown(db, TransactItems);
      return { ok: true };
    } catch (err) {
      if (err instanceof OutcomeUnknownError && scope?.acceptUnknown && err.pending) {
        scope.pending = err.pending;
        return { ok: true };
      }
      const { name, CancellationReasons: reasons } = err as SdkError;
      if (name !== 'TransactionCanceledException' || !reasons) throw err;
      const known = reasons.every((r) =>
        ['ConditionalCheckFailed', 'TransactionConflict', 'None'].includes(r.Code ?? ''),
      );
      const failed = positionsOf(reasons, 'ConditionalCheckFailed');
      const conflicts = positionsOf(reasons, 'TransactionConflict');
      if (!known || failed.length + conflicts.length === 0) throw err;
      if (failed.length > 0) return { ok: false, failed };
      if (attempt >= TRANSACT_ATTEMPTS) return { ok: false, failed: conflicts };
      await conflictPause(attempt);
    }
  }
}

/** The conditional writes of a record, written once (./records.ts), for the stores' transactions. */
export { putIf, putIfStatus, putNew } from './records';

/** What a Query reads: one partition of the table or of an index, optionally narrowed by sort key. */
export interface KeyQuery {
  index?: IndexName | undefined;
  partition: string;
  /** Optional sort-key condition over `:sk` (and `:sk2`), written against `#sk`. */
  sortCondition?: { expression: string; values: Record<string, string> };
  /** Ascending sort-key order; lists default to newest (highest) first. */
  forward?: boolean;
}

export const beginsWith = (prefix: string) => ({
  expression: 'begins_with(#sk, :sk)',
  values: { ':sk': prefix },
});

export const equals = (value: string) => ({ expression: '#sk = :sk', values: { ':sk': value } });

export const below = (bound: string) => ({ expression: '#sk < :sk', values: { ':sk': bound } });

const keyCondition = (q: KeyQuery) => {
  const keyAttrs = keyAttributes(q.index ?? 'table');
  const names: Record<string, string> = { '#pk': keyAttrs.partitionKey };
  const values: Record<string, unknown> = { ':pk': q.partition };
  let expression = '#pk = :pk';
  if (q.sortCondition) {
    names['#sk'] = keyAttrs.sortKey;
    Object.assign(values, q.sortCondition.values);
    expression += ` AND ${q.sortCondition.expression}`;
  }
  return {
    IndexName: q.index,
    KeyConditionExpression: expression,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: q.forward ?? false,
  } satisfies Omit<QueryCommandInput, 'TableName'>;
};

export interface PageQuery<T> extends KeyQuery {
  scope: CursorScope;
  filters?: Record<string, string | undefined>;
  /** Filter values that items without the attribute also match (items written before it existed). */
  absentMeans?: Record<string, string>;
  page: PageRequest;
  map: (item: Record<string, unknown>) => T;
}

/**
 * Query calls one response may make to fill a page whose filter has no key of its own: the
 * filters the API offers on a tenant's growing history have indexes (docs/data-model.md), so a
 * residual filter is a narrowing of an already selective partition; the bound keeps a rare one
 * from reading a whole history in one request (its page then ends early with a cursor).
 */
export const FILL_READS = 10;

/** The most items one later Query of a page fill evaluates (one Query reads at most 1 MB anyway). */
const FILL_BATCH = 200;

/**
 * One page: a Query on the key condition, with `filters` as an equality FilterExpression. Without
 * filters that is one Query of `limit` items. With filters, a Query that evaluated `limit` items
 * may match fewer, so the page is filled by reading on (up to FILL_READS Queries) until `limit`
 * items match or the partition ends (docs/api.md section 4: a page holds `limit` items, or all
 * that are left). The cursor is the signed key of the last item the page returns (or the Query's
 * LastEvaluatedKey when it returned them all), bound to `scope`.
 */
export async function queryPage<T>(db: Db, q: PageQuery<T>): Promise<Page<T>> {
  const input = keyCondition(q);
  const filterParts: string[] = [];
  for (const [attr, value] of Object.entries(q.filters ?? {})) {
    if (value === undefined) continue;
    input.ExpressionAttributeNames[`#f_${attr}`] = attr;
    input.ExpressionAttributeValues[`:f_${attr}`] = value;
    const equal = `#f_${attr} = :f_${attr}`;
    filterParts.push(
      q.absentMeans?.[attr] === value ? `(attribute_not_exists(#f_${attr}) OR ${equal})` : equal,
    );
  }
  const limit = q.page.limit;
  const items: Record<string, unknown>[] = [];
  let start = q.page.cursor ? decodeCursor(db.cursorSecret, q.scope, q.page.cursor) : undefined;
  for (let reads = 0; ; reads++) {
    const out = await db.doc.send(
      new QueryCommand({
        ...input,
        TableName: db.tableName,
        FilterExpression: filterParts.length ? filterParts.join(' AND ') : undefined,
        Limit: reads === 0 ? limit : Math.max(limit - items.length, FILL_BATCH),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
    if (items.length > limit) {
      // Read past the page: it ends at its last item, and the cursor resumes after that one.
      items.length = limit;
      start = keyOf(items[limit - 1]!, q.index);
    }
    if (!start || items.length >= limit || reads + 1 >= FILL_READS) break;
  }
  return {
    items: items.map(q.map),
    next_cursor: start ? encodeCursor(db.cursorSecret, q.scope, start) : null,
  };
}

/** An item's key in the table, and in `index` when it is read through one: a Query's ExclusiveStartKey. */
const keyOf = (item: Record<string, unknown>, index?: IndexName) => {
  const names = [keyAttributes('table'), ...(index ? [keyAttributes(index)] : [])];
  return Object.fromEntries(
    names.flatMap((n) => [
      [n.partitionKey, item[n.partitionKey]],
      [n.sortKey, item[n.sortKey]],
    ]),
  );
};

/** One page of a Query from `start` (the previous page's LastEvaluatedKey). */
export const queryFrom = (db: Db, q: KeyQuery, start?: Record<string, unknown>, limit?: number) =>
  db.doc.send(
    new QueryCommand({ ...keyCondition(q), TableName: db.tableName, ExclusiveStartKey: start, Limit: limit }),
  );

/** Every item of a Query, for the few lists that are small by design (a user's memberships, sessions). */
export async function queryAll(db: Db, q: KeyQuery) {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await queryFrom(db, q, start);
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}
