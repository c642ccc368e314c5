import { type Clock, systemClock } from '#shared/kernel/ids';

/**
 * The functions' runtime configuration, and the only module that reads the environment. A
 * function reads the sections it uses once, when its handler loads; one reader per section keeps
 * the API bundles free of the delivery path's settings. The local runtime provides a whole
 * Config before it loads the handlers, instead of writing `process.env`.
 */

type Env = Record<string, string | undefined>;

/**
 * How an SDK client reaches its service. Absent in the cloud, where the SDK takes region,
 * credentials and endpoint from the Lambda environment; the local runtime points clients at
 * DynamoDB Local and its loopback stand-ins.
 */
export interface AwsClientSettings {
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Shorter or longer deadlines than functions/adapters/client-options.ts SDK_DEADLINES (tests). */
  deadlines?: Partial<SdkDeadlines>;
}

/** How long an SDK client waits for its service (functions/adapters/client-options.ts). */
export interface SdkDeadlines {
  /** To establish the TCP (and TLS) connection of one attempt. */
  connectionTimeoutMs: number;
  /** One attempt, from sending the request to the whole answer, connection included. */
  requestTimeoutMs: number;
  /** Attempts per call, the first included. */
  maxAttempts: number;
}

export interface TableConfig {
  /** Every function but `public` needs the table and its cursor secret. */
  tableName: string | undefined;
  cursorSecret: string | undefined;
  client?: AwsClientSettings;
}

export interface QueueConfig {
  internal: string;
  external: string;
  /** The DLQs: only the metrics route reads them (their depth). */
  internalDlq: string;
  externalDlq: string;
  client?: AwsClientSettings;
}

/**
 * Shortenings of the delivery policy (shared/domain/notifications/channels.ts) for the local runtime and tests;
 * what is unset keeps the policy. The workers apply them, so the policy's module stays out of
 * the bundles that only read the table's settings.
 */
export interface DeliveryOverrides {
  maxAttempts?: number;
  baseSeconds?: number;
  capSeconds?: number;
  leaseSeconds?: number;
  /** The local runtime's queues count a second of delay in fewer milliseconds (SQS: 1000). */
  queueSecondMs?: number;
}

export interface ProviderSettings {
  telegramApiUrl: string;
  /** The accounting adapters' API base URLs (https in the cloud; the sandbox locally). */
  accountingApiUrls: { ledgerly: string; tallybook: string };
  timeoutMs: number;
  clients?: { sesv2?: AwsClientSettings; sns?: AwsClientSettings };
}

/** Where connection secrets live (functions/adapters/connection-secrets.ts). */
export interface ConnectionSecretSettings {
  /** `ssm:<parameter path prefix>` (cloud), `file:<path>` or `memory` (local runtime). */
  store: string | undefined;
  /** Cloud: the KMS key SecureStrings are encrypted with. */
  kmsKeyId: string | undefined;
  client?: AwsClientSettings;
}

/** Where the integration hub reaches its adapters' providers (functions/adapters/provider-reader.ts). */
export interface HubSettings {
  /** `OPS_HUB_PROVIDER_URL`: the local sandbox's providers; unset (cloud), each adapter's own endpoint. */
  providerUrl: string | undefined;
  timeoutMs: number;
  /** `AWS_REGION` (set by Lambda): the region of the SES and SNS endpoints. */
  region: string | undefined;
  endpoints: Readonly<Record<string, string | undefined>>;
  allowLoopback: boolean;
}

/** OAuth 2 adapters (functions/adapters/oauth-provider.ts): the service's own app at each provider. */
export interface OAuthSettings {
  /** `OPS_OAUTH_REDIRECT_URL`: the public `GET /oauth/callback` URL the provider sends the browser to. */
  redirectUrl: string | undefined;
  /** The app's client id per adapter (`OPS_XERO_CLIENT_ID`, `OPS_QUICKBOOKS_CLIENT_ID`); not secret. */
  clientIds: Readonly<Record<string, string | undefined>>;
  /**
   * `OPS_OAUTH_SANDBOX_URL`, the local runtime only: every OAuth adapter's consent page, token
   * endpoint and API under `<url>/<adapter_key>/`. Unset (the cloud): each provider's own URLs.
   */
  sandboxUrl: string | undefined;
  timeoutMs: number;
  /**
   * `OPS_CONSOLE_URL`: the operator console's URL (`https://<site>/console/`), the only place an
   * authorize call's `return_to` may point (the callback page links back there).
   */
  consoleUrl?: string | undefined;
}

export interface Config {
  table: TableConfig;
  sessionTtlSeconds: number;
  /**
   * Webhook recipients, connection target URLs and provider probes on loopback
   * (`OPS_WEBHOOK_ALLOW_LOOPBACK=1`): allowed on the local runtime only.
   */
  allowLoopback: boolean;
  queues: QueueConfig;
  /** Outbox items the relay should have published by now: older ones are swept. */
  outboxSweepAfterMs: number;
  delivery: DeliveryOverrides;
  providers: ProviderSettings;
  connectionSecrets: ConnectionSecretSettings;
  hub: HubSettings;
  oauth: OAuthSettings;
}

const num = (value: string | undefined, fallback: number) => Number(value ?? fallback);
const optionalNum = (value: string | undefined) => (value === undefined ? undefined : Number(value));

const readTable = (env: Env): TableConfig => ({
  tableName: env.TABLE_NAME,
  cursorSecret: env.OPS_CURSOR_SECRET,
});
const readSessionTtl = (env: Env) => num(env.OPS_SESSION_TTL_SECONDS, 12 * 3600);
const readAllowLoopback = (env: Env) => env.OPS_WEBHOOK_ALLOW_LOOPBACK === '1';
const readQueues = (env: Env): QueueConfig => ({
  internal: env.INTERNAL_QUEUE_URL ?? '',
  external: env.EXTERNAL_QUEUE_URL ?? '',
  internalDlq: env.INTERNAL_DLQ_URL ?? '',
  externalDlq: env.EXTERNAL_DLQ_URL ?? '',
});
const readSweepAfter = (env: Env) => num(env.OPS_OUTBOX_SWEEP_AFTER_MS, 120_000);
const readDelivery = (env: Env): DeliveryOverrides => ({
  maxAttempts: optionalNum(env.OPS_DELIVERY_MAX_ATTEMPTS),
  baseSeconds: optionalNum(env.OPS_RETRY_BASE_SECONDS),
  capSeconds: optionalNum(env.OPS_RETRY_MAX_SECONDS),
  leaseSeconds: optionalNum(env.OPS_DELIVERY_LEASE_SECONDS),
});
const readProviders = (env: Env): ProviderSettings => ({
  telegramApiUrl: env.OPS_TELEGRAM_API_URL ?? 'https://api.telegram.org',
  accountingApiUrls: {
    ledgerly: env.OPS_LEDGERLY_API_URL ?? 'https://api.ledgerly.example',
    tallybook: env.OPS_TALLYBOOK_API_URL ?? 'https://api.tallybook.example',
  },
  timeoutMs: num(env.OPS_PROVIDER_TIMEOUT_MS, 5000),
});

const readConnectionSecrets = (env: Env): ConnectionSecretSettings => ({
  store: env.OPS_CONNECTION_SECRETS,
  kmsKeyId: env.OPS_CONNECTION_SECRETS_KMS_KEY,
});

const readHub = (env: Env): HubSettings => ({
  providerUrl: env.OPS_HUB_PROVIDER_URL,
  timeoutMs: num(env.OPS_PROVIDER_TIMEOUT_MS, 5000),
  region: env.AWS_REGION,
  // The delivering functions' endpoints, so the probe asks the provider they call.
  endpoints: {
    telegram: env.OPS_TELEGRAM_API_URL,
    ledgerly: env.OPS_LEDGERLY_API_URL,
    tallybook: env.OPS_TALLYBOOK_API_URL,
  },
  allowLoopback: readAllowLoopback(env),
});

const readOAuth = (env: Env): OAuthSettings => ({
  redirectUrl: env.OPS_OAUTH_REDIRECT_URL,
  clientIds: { xero: env.OPS_XERO_CLIENT_ID, quickbooks_online: env.OPS_QUICKBOOKS_CLIENT_ID },
  sandboxUrl: env.OPS_OAUTH_SANDBOX_URL,
  timeoutMs: num(env.OPS_PROVIDER_TIMEOUT_MS, 5000),
  consoleUrl: env.OPS_CONSOLE_URL,
});

/** The whole configuration from environment-shaped settings (the local runtime's way in). */
export const loadConfig = (env: Env): Config => ({
  table: readTable(env),
  sessionTtlSeconds: readSessionTtl(env),
  allowLoopback: readAllowLoopback(env),
  queues: readQueues(env),
  outboxSweepAfterMs: readSweepAfter(env),
  delivery: readDelivery(env),
  providers: readProviders(env),
  connectionSecrets: readConnectionSecrets(env),
  hub: readHub(env),
  oauth: readOAuth(env),
});

let provided: Config | undefined;

/**
 * The local runtime's configuration, given before it loads the handlers. `undefined` hands back
 * to the environment: tests that share a worker give their own and must not leave it to the next.
 */
export const provideConfig = (config: Config | undefined): void => {
  provided = config;
};

const section = <K extends keyof Config>(key: K, read: (env: Env) => Config[K]): Config[K] =>
  provided ? provided[key] : read(process.env);

export const tableConfig = () => section('table', readTable);
export const sessionTtlSeconds = () => section('sessionTtlSeconds', readSessionTtl);
export const allowLoopback = () => section('allowLoopback', readAllowLoopback);
export const queueConfig = () => section('queues', readQueues);
export const outboxSweepAfterMs = () => section('outboxSweepAfterMs', readSweepAfter);
export const deliveryOverrides = () => section('delivery', readDelivery);
export const providerSettings = () => section('providers', readProviders);
export const connectionSecretSettings = () => section('connectionSecrets', readConnectionSecrets);
export const hubSettings = () => section('hub', readHub);
export const oauthSettings = () => section('oauth', readOAuth);

let clockSource: Clock = systemClock;

/**
 * The functions' one clock. The local runtime's manual clock (OPS_LOCAL_CLOCK=manual) replaces
 * the system clock here before any function loads; in the cloud it is always the system clock.
 */
export const clock: Clock = { now: () => clockSource.now() };

export const provideClock = (source: Clock): void => {
  clockSource = source;
};
