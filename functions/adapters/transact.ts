import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { UnavailableError } from '#shared/kernel/errors';
import {
  OutcomeUnknownError,
  type PendingWrite,
  TOKEN_WINDOW_MS,
  writeScope,
} from '#functions/http/write-outcome';
import type { Db } from './db';
import type { SdkError } from './dynamo';

/**
 * TransactWriteItems whose outcome is known when it answers: a cancellation for failed conditions
 * is an answer, a conflict with another transaction is tried again, and a lost answer (the table
 * may have committed) is resolved by sending again with the same `ClientRequestToken`.
 */

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
