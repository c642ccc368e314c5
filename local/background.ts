import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { lambdaContext } from './api-gateway';
import { ProviderSandbox } from './provider-sandbox';
import { LocalQueues, type WorkerHandler } from './queues';
import { type RelayHandler, startStreamPoller } from './stream-poller';

/**
 * The local runtime's background work, as the cloud runs it: the stream relay fed from DynamoDB
 * Local's real stream, the in-process SQS queues (with DLQs) feeding the same worker handlers, the
 * scheduled sweeper, and the provider sandbox on loopback. Environment for the functions is set
 * here before they load (they read it once per process, as Lambda does); values already in the
 * environment (tests) win.
 */
export interface BackgroundOptions {
  endpoint: string;
  tableName: string;
}

export interface Background {
  queues: LocalQueues;
  sandbox: ProviderSandbox;
  /** Runs one sweep now (the timer runs it every OPS_LOCAL_SWEEP_INTERVAL_MS). */
  sweep(): Promise<{ republished: number; failed: number }>;
  stop(): Promise<void>;
}

let active: Background | undefined;
/** The running background of this process (tests reach the queues and the sandbox through it). */
export const activeBackground = (): Background | undefined => active;

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

export async function startBackground(options: BackgroundOptions): Promise<Background> {
  const sandbox = new ProviderSandbox();
  await sandbox.listen();
  const queues = new LocalQueues({
    visibilityTimeoutSeconds: num('OPS_LOCAL_QUEUE_VISIBILITY_SECONDS', 30),
    maxReceiveCount: num('OPS_DELIVERY_MAX_ATTEMPTS', DELIVERY_MAX_ATTEMPTS),
    msPerSecond: num('OPS_LOCAL_QUEUE_MS_PER_SECOND', 1000),
  });
  const sqsEndpoint = await queues.listen();
  queues.create(QUEUES.internal, dlqName(QUEUES.internal));
  queues.create(QUEUES.external, dlqName(QUEUES.external));

  const defaults: Record<string, string> = {
    AWS_ENDPOINT_URL_SQS: sqsEndpoint,
    INTERNAL_QUEUE_URL: queues.url(QUEUES.internal),
    EXTERNAL_QUEUE_URL: queues.url(QUEUES.external),
    OPS_TELEGRAM_API_URL: `${sandbox.url}/telegram`,
    AWS_ENDPOINT_URL_SESV2: `${sandbox.url}/sesv2`,
    AWS_ENDPOINT_URL_SNS: `${sandbox.url}/sns`,
    OPS_WEBHOOK_ALLOW_LOOPBACK: '1',
    // Local-only stand-in for the SSM parameters: every tenant gets sandbox provider configs.
    OPS_PROVIDER_CONFIG_JSON: JSON.stringify({
      '*/telegram': { bot_token: `123456:${randomBytes(12).toString('hex')}` },
      '*/email': { from_address: 'ops@sandbox.invalid' },
      '*/sms': { sender_id: 'OPSLOCAL' },
      '*/webhook': { signing_secret: `whsec_${randomBytes(24).toString('base64')}` },
    }),
  };
  for (const [k, v] of Object.entries(defaults)) process.env[k] ??= v;

  const relay = (await import('#functions/relay/handler')).handler as unknown as RelayHandler;
  const internal = (await import('#functions/workers/internal')).handler as unknown as WorkerHandler;
  const external = (await import('#functions/workers/external')).handler as unknown as WorkerHandler;
  const sweeper = (await import('#functions/sweeper/handler')).handler;
  const ctx = (name: string) => (): Context => lambdaContext(`ops-platform-${name}`);

  const poller = await startStreamPoller({
    endpoint: options.endpoint,
    tableName: options.tableName,
    handler: relay,
    context: ctx('relay'),
  });
  queues.consume(QUEUES.internal, internal, ctx('worker-internal'));
  queues.consume(QUEUES.external, external, ctx('worker-external'));

  let sweeping: Promise<unknown> = Promise.resolve();
  const sweepTimer = setInterval(
    () => {
      sweeping = sweeper().catch((err) => {
        if (!process.env.OPS_LOCAL_QUIET) console.error('sweeper error', err);
      });
    },
    num('OPS_LOCAL_SWEEP_INTERVAL_MS', 60_000),
  );

  const background: Background = {
    queues,
    sandbox,
    sweep: () => sweeper(),
    stop: async () => {
      clearInterval(sweepTimer);
      await sweeping;
      await poller.stop();
      await queues.stop();
      await sandbox.stop();
      if (active === background) active = undefined;
    },
  };
  active = background;
  return background;
}
