import { IDEMPOTENCY_KEY, IDEMPOTENCY_KEY_MAX_LENGTH } from '#shared/api/schemas/common';
import { AppError, ConflictError, ValidationError } from '#shared/kernel/errors';
import { LOG_EVENTS } from '#shared/kernel/names';
import { sha256 } from '#shared/kernel/secrets';
import { logger } from '#functions/observability';
import type { HttpResponse } from './context';
import { toProblem } from './problem';
import { OutcomeUnknownError, type PendingWrite, TOKEN_WINDOW_MS, writeScope } from './write-outcome';

/**
 * `Idempotency-Key` for creating POSTs (docs/api.md section 7), as a small conditional-write
 * record (not Powertools idempotency; docs/decisions.md says what it could not do here).
 *
 * 1. Claim the record of `<scope>, <operation>, sha256(key)` (in progress, with the request's
 *    fingerprint). Scope is the tenant, or the user on tenant-less routes, so another tenant's
 *    identical key never sees the first answer.
 * 2. Taken: another fingerprint -> 409 conflict; still in progress -> 409 conflict; completed ->
 *    the stored status, headers and body, with `idempotent-replayed: true`.
 * 3. Run; store the answer (2xx and 4xx, which are final); a 5xx or crash deletes the claim so the
 *    client may retry.
 * 4. The answer is given even when it cannot be stored: the write it reports is committed, so
 *    neither a 500 nor a second run may follow. An answer too large for the store completes the
 *    record without it (a retry is 409, never a second write); a store failure leaves the claim
 *    in progress until its lease ends (logged as `idempotency.answer_not_kept`).
 * 5. A write whose outcome is still unknown when the request's budget ends (./write-outcome.ts)
 *    answers 503, and the claim keeps the pending transaction and the answer the request would
 *    have given. A retry with the key sends that transaction again with its token: committed ->
 *    the kept answer, replayed; cancelled (the first wrote nothing) -> the request runs anew;
 *    still unknown -> 503 again. Past DynamoDB's token window it can no longer be learnt: 409.
 */

const RETENTION_SECONDS = 24 * 3600;
const IN_PROGRESS_SECONDS = 60;

export interface IdempotencyRecordId {
  scope: string;
  operation: string;
  /** sha256 of the client's key: the key itself is never stored. */
  keyHash: string;
}

/** A record as it is stored; times are epoch seconds. */
export interface IdempotencyRecord {
  state: 'in_progress' | 'completed';
  /** sha256 of the request's params and body. */
  fingerprint: string;
  /** An in-progress claim older than this may be taken over (its request crashed). */
  lease_until?: number;
  /** The record is gone after this (the table's TTL). */
  ttl: number;
  /** The answer to replay, once completed; absent when it was too large to keep. */
  response?: HttpResponse;
  /** In progress: the request's write whose outcome was unknown when it answered 503; `response` is its answer had it committed. */
  pending?: PendingWrite;
}

/** Where the records live (functions/adapters/idempotency-store.ts). */
export interface IdempotencyStore {
  /**
   * Writes the record unless the id holds a live one: not past its `ttl`, and not an in-progress
   * one past its lease. False when it does.
   */
  claim(id: IdempotencyRecordId, record: IdempotencyRecord, nowSeconds: number): Promise<boolean>;
  /** The record, read consistently. */
  get(id: IdempotencyRecordId): Promise<IdempotencyRecord | undefined>;
  /** Writes the record; false, writing nothing, when it is too large for the store. */
  put(id: IdempotencyRecordId, record: IdempotencyRecord): Promise<boolean>;
  delete(id: IdempotencyRecordId): Promise<void>;
  /**
   * Learns a pending write's outcome by sending it again with its token: 'committed' or
   * 'not_committed'; throws OutcomeUnknownError when it still cannot be learnt.
   */
  resolve(pending: PendingWrite): Promise<'committed' | 'not_committed'>;
}

export interface IdempotentCall {
  key: string;
  scope: string;
  operation: string;
  fingerprint: string;
  requestId: string;
}

/** What a route group is given: `idempotently` over the store its records live in. */
export type Idempotency = (call: IdempotentCall, run: () => Promise<HttpResponse>) => Promise<HttpResponse>;

export const idempotencyWith =
  (store: IdempotencyStore): Idempotency =>
  (call, run) =>
    idempotently(store, call, run);

async function idempotently(
  store: IdempotencyStore,
  call: IdempotentCall,
  run: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  if (!IDEMPOTENCY_KEY.test(call.key))
    throw new ValidationError([
      {
        path: 'Idempotency-Key',
        code: 'invalid_header',
        message: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters`,
      },
    ]);
  const id = { scope: call.scope, operation: call.operation, keyHash: sha256(call.key) };
  const fingerprint = sha256(call.fingerprint);
  const nowSeconds = Math.floor(Date.now() / 1000);
  const ttl = nowSeconds + RETENTION_SECONDS;
  const claim = {
    state: 'in_progress',
    fingerprint,
    lease_until: nowSeconds + IN_PROGRESS_SECONDS,
    ttl,
  } as const;
  if (!(await store.claim(id, claim, nowSeconds))) {
    const held = await store.get(id);
    if (!held || held.fingerprint !== fingerprint)
      throw new ConflictError('This Idempotency-Key was used with another request body.');
    if (held.state !== 'completed' && held.pending && held.response) {
      if (Date.now() > held.pending.sent_at + TOKEN_WINDOW_MS)
        throw new ConflictError(
          'The outcome of the first request with this Idempotency-Key could not be learnt; read the resource before trying again.',
        );
      if ((await store.resolve(held.pending)) === 'not_committed') {
        await store.delete(id);
        return idempotently(store, call, run);
      }
      const { pending: _, ...done } = held;
      await store.put(id, { ...done, state: 'completed' }).catch(() => undefined);
      return { ...held.response, headers: { ...held.response.headers, 'idempotent-replayed': 'true' } };
    }
    if (held.state !== 'completed')
      throw new ConflictError('A request with this Idempotency-Key is still in progress.');
    if (!held.response)
      throw new ConflictError(
        'A request with this Idempotency-Key succeeded, but its answer was too large to replay.',
      );
    const stored = held.response;
    return { ...stored, headers: { ...stored.headers, 'idempotent-replayed': 'true' } };
  }

  const complete = async (response: HttpResponse) => {
    try {
      if (await store.put(id, { state: 'completed', fingerprint, response, ttl })) return;
      await store.put(id, { state: 'completed', fingerprint, ttl });
      logger.warn('idempotent answer too large to keep', {
        event: LOG_EVENTS.idempotencyAnswerNotKept,
        operation: call.operation,
        status: response.statusCode,
        body_bytes: Buffer.byteLength(response.body ?? ''),
      });
    } catch (error) {
      logger.error('idempotent answer not kept', {
        event: LOG_EVENTS.idempotencyAnswerNotKept,
        operation: call.operation,
        status: response.statusCode,
        error: error as Error,
      });
    }
  };
  let response: HttpResponse;
  try {
    response = await run();
  } catch (err) {
    if (err instanceof AppError && err.status < 500 && !writeScope()?.pending)
      await complete(toProblem(err, call.requestId));
    else await store.delete(id).catch(() => undefined);
    throw err;
  }
  const pending = writeScope()?.pending;
  if (pending) {
    // Kept until the token's window ends: no other request may take the claim over meanwhile.
    const kept =
      response.statusCode < 500 &&
      (await store
        .put(id, { ...claim, lease_until: nowSeconds + IN_PROGRESS_SECONDS, response, pending })
        .catch(() => false));
    if (!kept) await store.delete(id).catch(() => undefined);
    throw new OutcomeUnknownError(pending);
  }
  if (response.statusCode < 500) await complete(response);
  else await store.delete(id);
  return response;
}
