import type { AwsClientSettings, SdkDeadlines } from '#functions/config';

/**
 * The deadlines every AWS SDK client of the service is built with (DynamoDB, DynamoDB Streams,
 * SQS, SSM, SES, SNS): a dependency that accepts a connection and never answers costs a caller
 * seconds, not the function's timeout (docs/decisions.md, "Deadlines on every dependency").
 *
 * Without them the SDK waits for as long as the socket stays open: `requestTimeout` alone only
 * logs a warning since @smithy/node-http-handler 4.4 unless `throwOnRequestTimeout` is set, and
 * there is no default connection deadline. A timed-out attempt fails with `TimeoutError`, which
 * the SDK's standard retry strategy retries; the last one becomes the 503 `unavailable` of the
 * table's classifier (dynamo.ts `isUnavailable`).
 *
 * In-region DynamoDB answers a key read in milliseconds and a 100-item transaction well under a
 * second, so 1.5 s per attempt is a hang, not a slow answer. Two attempts bound one call at about
 * 3.2 s (1.5 s, a jittered backoff of a few hundred milliseconds at most, 1.5 s): inside the 5 s authorizer, whose token check
 * is one call, and twice over inside the 10 s route functions.
 */
export const SDK_DEADLINES: SdkDeadlines = {
  connectionTimeoutMs: 1_000,
  requestTimeoutMs: 1_500,
  maxAttempts: 2,
};

/** Client settings whose deadlines are unset fall back to SDK_DEADLINES, field by field. */
export const deadlinesOf = (settings?: AwsClientSettings): SdkDeadlines => ({
  ...SDK_DEADLINES,
  ...settings?.deadlines,
});

/** The options an SDK client is constructed with: where it points, plus the deadlines. */
export function clientOptions(settings: AwsClientSettings = {}, overrides: Partial<SdkDeadlines> = {}) {
  const { deadlines: _, ...where } = settings;
  const d = { ...deadlinesOf(settings), ...overrides };
  return {
    ...where,
    maxAttempts: d.maxAttempts,
    // The shorthand form: the client builds its NodeHttpHandler from these options.
    requestHandler: {
      connectionTimeout: d.connectionTimeoutMs,
      requestTimeout: d.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  };
}

/**
 * What the local runtime does with each SDK client a function builds: when a test records the
 * functions' AWS calls it adds its recorder (local/call-record.ts). Unset in a deployed function,
 * whose bundles carry only this hook.
 */
let clientHook: ((client: object) => void) | undefined;

/** Sets (or clears) the hook: the local runtime only. */
export const onClientMade = (hook: ((client: object) => void) | undefined): void => {
  clientHook = hook;
};

/** `client`, once the local runtime's hook, if any, has seen it. */
export const made = <C extends object>(client: C): C => {
  clientHook?.(client);
  return client;
};
