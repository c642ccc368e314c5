import { join } from 'node:path';
import { type AwsClientSettings, type Config, loadConfig, type SdkDeadlines } from '#functions/config';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { localClientSettings } from './dynamodb-local';
import { SANDBOX_APPS } from './oauth-sandbox';
import type { ProviderSandbox } from './provider-sandbox';
import type { LocalQueues } from './queues';

/** Settings by their environment variable names, as the deployed functions get them. */
export type Settings = Record<string, string | undefined>;

/**
 * Deadlines of the SDK clients other than the deployed ones (functions/adapters/client-options.ts),
 * from `OPS_SDK_CONNECTION_TIMEOUT_MS`, `OPS_SDK_REQUEST_TIMEOUT_MS` and `OPS_SDK_MAX_ATTEMPTS`:
 * unset, the cloud's hold. The test suite lengthens them (tests/support/runtime.ts): on a machine
 * running many test files at once DynamoDB Local can take seconds to answer, which in the cloud
 * would be a hang.
 */
export function localDeadlines(settings: Settings): Partial<SdkDeadlines> {
  const named = {
    connectionTimeoutMs: settings.OPS_SDK_CONNECTION_TIMEOUT_MS,
    requestTimeoutMs: settings.OPS_SDK_REQUEST_TIMEOUT_MS,
    maxAttempts: settings.OPS_SDK_MAX_ATTEMPTS,
  };
  return Object.fromEntries(
    Object.entries(named).flatMap(([k, v]) => (v === undefined ? [] : [[k, Number(v)]])),
  );
}

/**
 * The functions' configuration on this machine, read by the same `loadConfig` as in Lambda: the
 * runtime's own values (queues, sandbox, loopback webhooks, where connection secrets live) under the
 * given settings, which win, and the table over both; the SDK clients point at DynamoDB Local and
 * the loopback stand-ins with credentials that name no real account.
 */
export function localConfig(options: {
  endpoint: string;
  tableName: string;
  cursorSecret: string;
  settings: Settings;
  queues: LocalQueues;
  sandbox: ProviderSandbox;
}): Config {
  const { queues, sandbox } = options;
  const deadlines = localDeadlines(options.settings);
  const client = (endpoint?: string): AwsClientSettings => ({ deadlines, ...localClientSettings(endpoint) });
  const config = loadConfig({
    INTERNAL_QUEUE_URL: queues.url(QUEUES.internal),
    EXTERNAL_QUEUE_URL: queues.url(QUEUES.external),
    INTERNAL_DLQ_URL: queues.url(dlqName(QUEUES.internal)),
    EXTERNAL_DLQ_URL: queues.url(dlqName(QUEUES.external)),
    OPS_TELEGRAM_API_URL: `${sandbox.url}/telegram`,
    OPS_HUB_PROVIDER_URL: `${sandbox.url}/providers`,
    OPS_LEDGERLY_API_URL: `${sandbox.url}/ledgerly`,
    OPS_TALLYBOOK_API_URL: `${sandbox.url}/tallybook`,
    // Xero and QuickBooks Online (their OAuth and APIs) on the sandbox; the callback URL is the
    // runtime's own, set once it listens (local/runtime.ts).
    OPS_OAUTH_SANDBOX_URL: sandbox.url,
    OPS_XERO_CLIENT_ID: SANDBOX_APPS.xero.client_id,
    OPS_QUICKBOOKS_CLIENT_ID: SANDBOX_APPS.quickbooks_online.client_id,
    OPS_WEBHOOK_ALLOW_LOOPBACK: '1',
    // Connection secrets beside the kept table (a 0600 file), else in memory like the table.
    OPS_CONNECTION_SECRETS: options.settings.OPS_DATA_DIR
      ? `file:${join(options.settings.OPS_DATA_DIR, 'connection-secrets.json')}`
      : 'memory',
    TABLE_NAME: options.tableName,
    OPS_CURSOR_SECRET: options.cursorSecret,
    ...options.settings,
  });
  return {
    ...config,
    table: { ...config.table, client: client(options.endpoint) },
    queues: { ...config.queues, client: client(queues.endpoint) },
    delivery: { ...config.delivery, queueSecondMs: queues.msPerSecond },
    providers: {
      ...config.providers,
      clients: {
        sesv2: client(`${sandbox.url}/sesv2`),
        sns: client(`${sandbox.url}/sns`),
      },
    },
    // Never an SSM call here (the secrets live in a file or memory); a developer's own
    // credentials must not reach one either.
    connectionSecrets: { ...config.connectionSecrets, client: client() },
  };
}
