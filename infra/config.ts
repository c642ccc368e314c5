import { Aws, Duration } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import {
  ALARMS,
  type AlarmName,
  QUEUES,
  type QueueName,
  SERVICE,
  WORKER_MAX_CONCURRENCY,
} from '#shared/kernel/names';
import { OAUTH_CONTEXT, type OAuthAppConfig, readOAuthApps } from './oauth-config';

/**
 * Every deploy-time knob of the service, in one place: the context values a deployer passes
 * (`-c stage=dev -c alarmEmail=...`), function sizing, queue and stream tuning, throttling and
 * alarm thresholds. Stacks and constructs read from here; nothing else hard-codes a number.
 */

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

export interface DeploymentConfig {
  /** `dev`, `staging`, `prod`, ...: prefixes every physical name. */
  readonly stage: string;
  /** `<stage>-ops-platform`: the prefix of every physical name. */
  readonly prefix: string;
  /** Subscribed to both alarm topics when set. */
  readonly alarmEmail?: string;
  /** Lambda authorizer result cache: revocations and role changes take effect within it. */
  readonly authorizerCacheTtl: Duration;
  readonly logLevel: LogLevel;
  readonly logRetention: RetentionDays;
  /**
   * Optional hardening after the first deploy: the demo distribution's id, so the demo bucket
   * policy names that one distribution instead of any distribution of this account.
   */
  readonly demoDistributionId?: string;
  /**
   * Pins the cursor secret version the functions read. Changing it after a rotation
   * (`put-secret-value`) is what makes CloudFormation resolve the new value on the next deploy.
   */
  readonly cursorSecretVersionId?: string;
  /** The service's own app at each OAuth 2 provider (docs/connecting-accounting.md). */
  readonly oauth: OAuthAppConfig;
}

/** Context keys, documented in docs/infrastructure.md. */
export const CONTEXT = {
  stage: 'stage',
  alarmEmail: 'alarmEmail',
  authorizerCacheTtlSeconds: 'authorizerCacheTtlSeconds',
  logLevel: 'logLevel',
  demoDistributionId: 'demoDistributionId',
  cursorSecretVersionId: 'cursorSecretVersionId',
  ...OAUTH_CONTEXT,
} as const;

export const DEFAULT_STAGE = 'dev';
export const DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS = 60;

/** Short enough that `<stage>-ops-platform-demo-<account>-<region>` fits S3's 63 characters. */
const STAGE_PATTERN = /^[a-z][a-z0-9-]{0,11}$/;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LOG_LEVELS: readonly LogLevel[] = ['DEBUG', 'INFO', 'WARN', 'ERROR'];

const str = (scope: Construct, key: string): string | undefined => {
  const value: unknown = scope.node.tryGetContext(key);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
};

/** Reads and validates the deploy-time context. Fails synth with a clear message on bad input. */
export function readConfig(scope: Construct): DeploymentConfig {
  const stage = str(scope, CONTEXT.stage) ?? DEFAULT_STAGE;
  if (!STAGE_PATTERN.test(stage)) {
    throw new Error(`context "${CONTEXT.stage}" must match ${STAGE_PATTERN} (got "${stage}")`);
  }
  const alarmEmail = str(scope, CONTEXT.alarmEmail);
  if (alarmEmail !== undefined && !EMAIL_PATTERN.test(alarmEmail)) {
    throw new Error(`context "${CONTEXT.alarmEmail}" is not an e-mail address`);
  }
  const ttlText = str(scope, CONTEXT.authorizerCacheTtlSeconds);
  const ttl = ttlText === undefined ? DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS : Number(ttlText);
  if (!Number.isInteger(ttl) || ttl < 0 || ttl > 3600) {
    throw new Error(`context "${CONTEXT.authorizerCacheTtlSeconds}" must be an integer from 0 to 3600`);
  }
  const logLevel = (str(scope, CONTEXT.logLevel) ?? 'INFO').toUpperCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`context "${CONTEXT.logLevel}" must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const demoDistributionId = str(scope, CONTEXT.demoDistributionId);
  if (demoDistributionId !== undefined && !/^[A-Z0-9]{8,20}$/.test(demoDistributionId)) {
    throw new Error(`context "${CONTEXT.demoDistributionId}" is not a CloudFront distribution id`);
  }
  const cursorSecretVersionId = str(scope, CONTEXT.cursorSecretVersionId);
  if (cursorSecretVersionId !== undefined && !/^[A-Za-z0-9-]{32,64}$/.test(cursorSecretVersionId)) {
    throw new Error(`context "${CONTEXT.cursorSecretVersionId}" is not a Secrets Manager version id`);
  }
  return {
    stage,
    prefix: `${stage}-${SERVICE}`,
    oauth: readOAuthApps(scope),
    alarmEmail,
    authorizerCacheTtl: Duration.seconds(ttl),
    logLevel,
    logRetention: stage === 'prod' ? RetentionDays.THREE_MONTHS : RetentionDays.ONE_MONTH,
    demoDistributionId,
    cursorSecretVersionId,
  };
}

/**
 * Bucket names, fixed from the stage, account and region (S3 names are global). Both stacks
 * derive them from here: the stateless stack then refers to the buckets by name, with no
 * cross-stack reference, so IAM findings and policies name a stable ARN.
 */
export const bucketNames = (config: Pick<DeploymentConfig, 'prefix'>) => ({
  demo: `${config.prefix}-demo-${Aws.ACCOUNT_ID}-${Aws.REGION}`,
  accessLogs: `${config.prefix}-logs-${Aws.ACCOUNT_ID}-${Aws.REGION}`,
});

/** CloudFormation stack names (also the CDK construct ids, so `cdk deploy <name>` works). */
export const stackNames = (config: Pick<DeploymentConfig, 'prefix'>) => ({
  stateful: `${config.prefix}-stateful`,
  stateless: `${config.prefix}-stateless`,
  apiRoutes: `${config.prefix}-api-routes`,
});

/**
 * How each function is invoked. It decides the failure path (and so the cdk-nag
 * acknowledgements for Lambda-level DLQs and async destinations, which only apply to
 * asynchronous invocations).
 */
export type Invocation = 'http' | 'authorizer' | 'stream' | 'queue' | 'schedule';

export interface FunctionProfile {
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly invocation: Invocation;
}

/** Memory and timeout of every function of the service: change them here only. */
export const FUNCTION_PROFILES = {
  /** Route groups. 1 GiB for the CPU share scrypt needs at login; API Gateway's limit is 30 s. */
  api: { memorySize: 1024, timeout: Duration.seconds(10), invocation: 'http' },
  /** Runs before every cache miss of a bearer route: small and quick. */
  authorizer: { memorySize: 512, timeout: Duration.seconds(5), invocation: 'authorizer' },
  relay: { memorySize: 512, timeout: Duration.seconds(60), invocation: 'stream' },
  sweeper: { memorySize: 512, timeout: Duration.seconds(120), invocation: 'schedule' },
  /** Two sweeps 30 s apart per invocation (functions/timer-sweeper/sweeper.ts), then done. */
  timerSweeper: { memorySize: 512, timeout: Duration.seconds(55), invocation: 'schedule' },
  internalWorker: { memorySize: 512, timeout: Duration.seconds(30), invocation: 'queue' },
  /** Makes outbound HTTPS calls (webhooks, providers) with their own timeouts. */
  externalWorker: { memorySize: 512, timeout: Duration.seconds(60), invocation: 'queue' },
} as const satisfies Record<string, FunctionProfile>;
export type FunctionProfileName = keyof typeof FUNCTION_PROFILES;

/** SQS queues and their consumers. */
export const QUEUE_SETTINGS = {
  /** AWS guidance: visibility timeout at least 6x the consumer function's timeout. */
  visibilityTimeoutFactor: 6,
  /**
   * Receives before a message moves to the DLQ: the worker's own attempt limit, so its last
   * attempt marks the notification dead_lettered just before SQS moves the message.
   */
  maxReceiveCount: DELIVERY_MAX_ATTEMPTS,
  sourceRetention: Duration.days(4),
  /** The maximum SQS allows; longer than the source's, since a moved message keeps its age. */
  dlqRetention: Duration.days(14),
  batchSize: 10,
  maxBatchingWindow: Duration.seconds(1),
  maxConcurrency: WORKER_MAX_CONCURRENCY,
} as const;

/** DynamoDB stream -> outbox relay. */
export const RELAY_SETTINGS = {
  batchSize: 100,
  maxBatchingWindow: Duration.seconds(1),
  retryAttempts: 5,
  maxRecordAge: Duration.hours(1),
  parallelizationFactor: 1,
} as const;

/** The outbox sweeper re-publishes items the relay did not mark as relayed. */
export const SWEEPER_SETTINGS = {
  rate: Duration.minutes(5),
  retryAttempts: 2,
  maxEventAge: Duration.minutes(4),
} as const;

/** The timer sweeper: EventBridge's finest rate; a dropped run is covered by the next minute's. */
export const TIMER_SWEEPER_SETTINGS = {
  rate: Duration.minutes(1),
  retryAttempts: 0,
  maxEventAge: Duration.minutes(1),
} as const;

/**
 * The login rate the service must absorb without refusing anyone: a large tenant's shift start,
 * 10,000 people signing in within 5 minutes (33 per second), plus the retries of their clients.
 */
export const LOGIN_PEAK_PER_SECOND = 40;

/**
 * API Gateway throttling: the stage default and stricter limits on sensitive routes. Each limit
 * is one token bucket shared by every client, so it caps cost and protects the functions and the
 * table; it cannot tell a flooding client from the others (per-source limits and the per-email
 * login throttle: docs/infrastructure.md, "Floods").
 */
export const API_THROTTLING = {
  stage: { rateLimit: 200, burstLimit: 400 },
  routes: {
    /**
     * Login: caps what scrypt may cost (at the limit, about five concurrent 1 GiB functions). Set
     * above the real peak, so a rush of legitimate logins never meets it; a single client can
     * still use it up, which only a per-source limit in front of the API prevents.
     */
    'POST /auth/sessions': { rateLimit: 50, burstLimit: 100 },
  } as Record<string, { rateLimit: number; burstLimit: number }>,
} as const;

export type Severity = 'page' | 'ticket';

/** Which topic each alarm notifies. `page` wakes someone up; `ticket` is next business day. */
export const ALARM_SEVERITY: Record<AlarmName, Severity> = {
  [ALARMS.api5xxRate]: 'page',
  [ALARMS.apiLatencyP99]: 'page',
  [ALARMS.functionErrors]: 'ticket',
  [ALARMS.functionThrottles]: 'ticket',
  [ALARMS.dlqNotEmpty]: 'ticket',
  [ALARMS.queueOldestMessageAge]: 'page',
  [ALARMS.relayIteratorAge]: 'page',
  [ALARMS.relayFailures]: 'ticket',
  [ALARMS.outboxRelayLag]: 'page',
  // Delivery still happens, minutes late, through the sweeper; the relay needs fixing soon.
  [ALARMS.outboxSweeperRepublished]: 'ticket',
  // The action is in the review queue, waiting for a person; nothing is lost.
  [ALARMS.workflowActionErrors]: 'ticket',
  // The export waits in the review queue: nothing is booked twice and nothing is lost.
  [ALARMS.accountingExportFailures]: 'ticket',
  // Escalations of critical exceptions ride on timers: late timers mean people are told late.
  [ALARMS.timerLate]: 'page',
  // Every OAuth connection of that provider stops exporting and reconciling until an operator
  // fixes the app's secret: no tenant can fix it, and nothing heals before someone does.
  [ALARMS.oauthAppCredentials]: 'page',
};

export const ALARM_THRESHOLDS = {
  /** 5xx responses as a percentage of all requests, over 5 minutes, 3 periods in a row. */
  api5xxRatePercent: 1,
  apiLatencyP99Ms: 2_000,
  /** Sum of function errors in 5 minutes, 2 periods in a row. */
  functionErrors: 5,
  functionThrottles: 1,
  /**
   * Oldest message age per queue, in seconds. The external queue is higher because its worker
   * delays retries on purpose (ChangeMessageVisibility backoff).
   */
  queueOldestMessageAgeSeconds: { [QUEUES.internal]: 600, [QUEUES.external]: 3_600 } as Record<
    QueueName,
    number
  >,
  relayIteratorAgeMs: 60_000,
  /** Sum of the service's RelayFailed metric in 5 minutes. */
  relayFailures: 1,
  /** Maximum of the service's RelayLagMs metric over 5 minutes. */
  outboxRelayLagMs: 120_000,
  /**
   * Sum of the service's SweeperRepublished metric in 5 minutes. A healthy relay publishes every
   * outbox item within seconds, so one item the sweeper had to publish is already a finding.
   */
  outboxSweeperRepublished: 1,
  /**
   * Sum of WorkflowActionErrored in 5 minutes: rule actions that failed with an error on every
   * attempt (not a policy refusal, which is a tenant's configuration and only reaches review).
   */
  workflowActionErrors: 1,
  /** Sum of AccountingExportFailed in 5 minutes: exports that ended failed or partially exported. */
  accountingExportFailures: 1,
  /**
   * Maximum of TimerLagMs over 5 minutes, 2 periods in a row: from a timer's due time to the
   * worker acting on it. The sweeper runs every minute, so a healthy lag stays under 60 s plus
   * the relay's second; 120 s means sweeps or firings are failing or far behind.
   */
  timerLateMs: 120_000,
  /** Sum of OAuthAppCredentialsInvalid in 5 minutes: one refused token call is already the finding. */
  oauthAppCredentials: 1,
} as const;
