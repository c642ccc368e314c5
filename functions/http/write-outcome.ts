import { AsyncLocalStorage } from 'node:async_hooks';
import { UnavailableError } from '#shared/kernel/errors';

/**
 * A transaction whose outcome is not known (the table's answer did not come back in time): its
 * items with the table names and the `ClientRequestToken` it was sent with. Sent again with that
 * token within ten minutes, DynamoDB commits it at most once and says whether it did.
 */
export interface PendingWrite {
  token: string;
  items: unknown[];
  /** Epoch milliseconds of the first send: DynamoDB keeps a token for 10 minutes after it. */
  sent_at: number;
}

/** How long after its first send a pending transaction may still be resolved by its token (the 10 minutes, less a margin). */
export const TOKEN_WINDOW_MS = 9 * 60_000;

/** 503: a write's outcome is still unknown when the request's budget ends. */
export class OutcomeUnknownError extends UnavailableError {
  constructor(readonly pending?: PendingWrite) {
    super();
  }
}

/**
 * What one request's writes share (docs/api.md section 7, "An answer after a commit"): the instant
 * by which an unknown outcome must be resolved, and whether the request may go on past a write
 * still unknown at that instant (it carries an `Idempotency-Key`, whose record then keeps the
 * pending write and the answer for a retry to resolve).
 */
export interface WriteScope {
  deadline: number;
  acceptUnknown: boolean;
  pending?: PendingWrite;
}

const scope = new AsyncLocalStorage<WriteScope>();

export const inWriteScope = <T>(s: WriteScope, run: () => Promise<T>): Promise<T> => scope.run(s, run);

/** The current request's scope; none outside a request (workers, scripts). */
export const writeScope = (): WriteScope | undefined => scope.getStore();
