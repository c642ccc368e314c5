export { type Client, type Config, createClient, createConfig } from './client/index.js';
export { client } from './client.gen.js';
export { ApiError, createOpsClient, DEFAULT_BASE_URL, type DeprecationNotice, login, type OpsClientOptions, paginate, type RetryOptions, retryAfterSeconds, } from './ops-client.js';
export * from './sdk.gen.js';
export type * from './types.gen.js';
