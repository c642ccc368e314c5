import type { Context } from 'aws-lambda';
import { DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { asFunction } from './call-record';
import { lambdaContext } from './api-gateway';
import { localDeadlines, type Settings } from './config';
import { ProviderSandbox } from './provider-sandbox';
import { LocalQueues, type WorkerHandler } from './queues';
import { type RelayHandler, startStreamPoller } from './stream-poller';

/**
 * The local runtime's background work, as the cloud runs it: the stream relay fed from DynamoDB
 * Local's real stream, the in-process SQS queues (with DLQs) feeding the same worker handlers, the
 * scheduled outbox sweeper and timer sweeper, and the provider sandbox on loopback. The stand-ins start first, so the
 * functions' configuration (local/config.ts) can point at them before any function loads.
 */
export interface LocalServices {
  queues: LocalQueues;
  sandbox: ProviderSandbox;
}

export interface Background extends LocalServices {
  /** Runs one sweep now (the timer runs it every OPS_LOCAL_SWEEP_INTERVAL_MS). */
  sweep(): Promise<{ republished: number; failed: number }>;
  /**
   * Claims every timer due by the runtime's clock now, as the cloud's timer sweeper does (the
   * interval runs it every OPS_LOCAL_TIMER_INTERVAL_MS; the clock route after every move).
   */
  sweepTimers(): Promise<{ fired: number; gone: number }>;
  stop(): Promise<void>;
}

let active: Background | undefined;
/** The running background of this process (tests reach the queues and the sandbox through it). */
export const activeBackground = (): Background | undefined => active;

/** `handler`, its calls attributed to the deployed function `name`. */
const as =
  <A extends unknown[], R>(name: string, handler: (...args: A) => R) =>
  (...args: A): R =>
    asFunction(name, () => handler(...args));

const num = (settings: Settings, name: string, fallback: number) => Number(settings[name] ?? fallback);

/** The provider sandbox and the queues, listening on loopback; nothing consumes yet. */
export async function startServices(settings: Settings): Promise<LocalServices> {
  const sandbox = new ProviderSandbox();
  await sandbox.listen();
  const queues = new LocalQueues({
    visibilityTimeoutSeconds: num(settings, 'OPS_LOCAL_QUEUE_VISIBILITY_SECONDS', 30),
    maxReceiveCount: num(settings, 'OPS_DELIVERY_MAX_ATTEMPTS', DELIVERY_MAX_ATTEMPTS),
    msPerSecond: num(settings, 'OPS_LOCAL_QUEUE_MS_PER_SECOND', 1000),
  });
  await queues.listen();
  queues.create(QUEUES.internal, dlqName(QUEUES.internal));
  queues.create(QUEUES.external, dlqName(QUEUES.external));
  return { sandbox, queues };
}

/** The relay, the workers and the sweeper over the services; the functions' configuration is provided by now. */
export async function startBackground(
  services: LocalServices,
  options: { endpoint: string; tableName: string; settings: Settings },
): Promise<Background> {
  const { queues, sandbox } = services;
  // Each handler as its deployed function, whose AWS calls a test may record (call-record.ts).
  const relay = as(
    'outbox-relay',
    (await import('#functions/relay/handler')).handler as unknown as RelayHandler,
  );
  const internal = as(
    'worker-internal',
    (await import('#functions/workers/internal')).handler as unknown as WorkerHandler,
  );
  const external = as(
    'worker-external',
    (await import('#functions/workers/external')).handler as unknown as WorkerHandler,
  );
  const sweeper = as('outbox-sweeper', (await import('#functions/sweeper/handler')).handler);
  const { createTimerSweep } = await import('#functions/timer-sweeper/sweeper');
  const { timerStore } = await import('#functions/adapters/timer-store');
  const { dbFor } = await import('#functions/adapters/dynamo');
  const { clock, tableConfig } = await import('#functions/config');
  const timerSweep = as(
    'timer-sweeper',
    createTimerSweep({ timers: timerStore(dbFor(tableConfig())), clock }),
  );
  // One sweep at a time: the interval's and the clock route's queue behind each other.
  let timerSweeping: Promise<unknown> = Promise.resolve();
  const sweepTimers = () => {
    const next = timerSweeping.then(timerSweep, timerSweep);
    timerSweeping = next.catch((err) => {
      if (!process.env.OPS_LOCAL_QUIET) console.error('timer sweeper error', err);
    });
    return next;
  };
  const ctx = (name: string) => (): Context => lambdaContext(`ops-platform-${name}`);

  const poller = await startStreamPoller({
    endpoint: options.endpoint,
    tableName: options.tableName,
    handler: relay,
    context: ctx('relay'),
    deadlines: localDeadlines(options.settings),
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
    num(options.settings, 'OPS_LOCAL_SWEEP_INTERVAL_MS', 60_000),
  );

  const timerInterval = setInterval(
    () => void sweepTimers().catch(() => undefined),
    num(options.settings, 'OPS_LOCAL_TIMER_INTERVAL_MS', 1_000),
  );

  const background: Background = {
    queues,
    sandbox,
    sweep: () => sweeper(),
    sweepTimers,
    stop: async () => {
      clearInterval(sweepTimer);
      clearInterval(timerInterval);
      await sweeping;
      await timerSweeping;
      await poller.stop();
      await queues.stop();
      await sandbox.stop();
      if (active === background) active = undefined;
    },
  };
  active = background;
  return background;
}
