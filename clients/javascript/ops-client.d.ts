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
}
/**
 * A client for the SDK functions of this package: error answers throw `ApiError`, so the
 * functions resolve to `{ data }` of the success type.
 */
export declare function createOpsClient(options?: OpsClientOptions): Client;
/** Logs in and makes `client` send the new token from now on. */
export declare function login(client: Client, email: string, password: string): Promise<AccessTokenRead>;
