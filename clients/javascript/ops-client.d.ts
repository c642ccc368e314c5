import { type Client } from './client/index.js';
import type { AccessTokenRead, Problem } from './types.gen.js';
export declare const DEFAULT_BASE_URL = "http://127.0.0.1:3000";
/** An error answer of the API: its problem+json body (RFC 9457) as an exception. */
export declare class ApiError extends Error {
    readonly status: number;
    readonly code: string;
    readonly title: string;
    readonly detail: string | undefined;
    readonly errors: NonNullable<Problem['errors']>;
    readonly requestId: string | undefined;
    readonly problem: Problem | undefined;
    constructor(status: number, problem: Problem | undefined, body?: unknown);
}
export interface OpsClientOptions {
    /** Defaults to the local runtime, `http://127.0.0.1:3000`. */
    baseUrl?: string;
    /** The bearer token, or a function that returns it; `login()` sets it. */
    token?: string | (() => string | undefined | Promise<string | undefined>);
    fetch?: typeof fetch;
    headers?: Record<string, string>;
    /** Retries of 429 and 503 answers (below); `{ maxAttempts: 1 }` turns them off. */
    retry?: RetryOptions;
    /** Called when an answer carries `Deprecation` (RFC 9745): the operation is deprecated. */
    onDeprecation?: (notice: DeprecationNotice) => void;
}
/**
 * A 429 or 503 is tried again after its `Retry-After` (seconds or an HTTP-date), or after an
 * exponential backoff when it has none: at most `maxAttempts` tries in all. A `Retry-After` longer
 * than `maxRetryAfterSeconds` is not waited for: the error is thrown at once, since an earlier
 * retry would be refused too. A 503 is retried only when repeating the request is safe: GET, PUT,
 * DELETE, or a request carrying an `Idempotency-Key`.
 */
export interface RetryOptions {
    /** Tries in all, the first included; default 3. */
    maxAttempts?: number;
    /** The longest `Retry-After` waited for; default 60. */
    maxRetryAfterSeconds?: number;
    /** The wait before the second try when the answer has no `Retry-After`, doubled each time; default 0.5. */
    backoffSeconds?: number;
    /** How to wait; tests replace it. */
    sleep?: (seconds: number) => Promise<void>;
}
export interface DeprecationNotice {
    method: string;
    url: string;
    /** The `Deprecation` value, `@` and Unix seconds. */
    deprecation: string;
    sunset?: string;
    link?: string;
}
/** `Retry-After` in seconds: delay-seconds or an HTTP-date (RFC 9110 section 10.2.3); undefined when neither. */
export declare function retryAfterSeconds(value: string | null, now?: number): number | undefined;
/**
 * A client for the SDK functions of this package: error answers throw `ApiError`, so the
 * functions resolve to `{ data }` of the success type.
 */
export declare function createOpsClient(options?: OpsClientOptions): Client;
/**
 * Every item of a list, page after page: `page` fetches one page from a cursor (none for the
 * first), and is called again with each `next_cursor` until it is null.
 *
 * ```ts
 * const pages = (cursor?: string) => exceptionsList({ client, path: { tenant_id }, query: { cursor } });
 * for await (const exception of paginate(pages)) { ... }
 * ```
 */
export declare function paginate<Item>(page: (cursor: string | undefined) => Promise<{
    data: {
        items: Item[];
        next_cursor: string | null;
    };
}>): AsyncGenerator<Item, void, undefined>;
/** Logs in and makes `client` send the new token from now on. */
export declare function login(client: Client, email: string, password: string): Promise<AccessTokenRead>;
