import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { dbFor } from '#functions/adapters/dynamo';
import { loadConfig, provideConfig } from '#functions/config';
import { exportRunDeps } from '#functions/workers/accounting-deps';
import { hubRunDeps } from '#functions/workers/hub-deps';
import { workerHandler } from '#functions/workers/worker-handler';
import { workflowRunDeps } from '#functions/workers/workflow-deps';
import { createQueueWorker, type KindHandlers } from '#functions/workers/queue-worker';
import { eventRow, kindsOn } from '#shared/kernel/events';
import { EVENT_KINDS } from '#shared/kernel/names';
import { DELIVERY_BACKOFF, DELIVERY_MAX_ATTEMPTS } from '#shared/domain/notifications/channels';
import { localConfig } from '#local/config';
import type { ProviderSandbox } from '#local/provider-sandbox';
import { LocalQueues } from '#local/queues';

/**
 * The delivery policy the workers run with (functions/workers/delivery-policy.ts): the service's defaults,
 * or what the environment sets (the local runtime and the e2e tests shorten it). The queues'
 * receive limit is the same attempt limit, so a wrong value here dead-letters too early or never.
 */

const TABLE = { TABLE_NAME: 'ops', OPS_CURSOR_SECRET: 'c'.repeat(32) };
const db = dbFor({ tableName: 'ops', cursorSecret: 'c'.repeat(32) });

const policyOf = () => {
  const run = exportRunDeps(db);
  return {
    export: {
      maxAttempts: run.maxAttempts,
      backoff: run.backoff,
      leaseSeconds: run.leaseSeconds,
      queueSecondMs: run.queueSecondMs,
    },
    workflows: workflowRunDeps(db).maxAttempts,
    hub: hubRunDeps(db).maxAttempts,
  };
};

afterAll(() => provideConfig(undefined));

describe('the delivery policy of the workers', () => {
  it('is the service default when the environment sets nothing', () => {
    provideConfig(loadConfig(TABLE));
    expect(policyOf()).toEqual({
      export: {
        maxAttempts: DELIVERY_MAX_ATTEMPTS,
        backoff: DELIVERY_BACKOFF,
        leaseSeconds: 60,
        queueSecondMs: 1000,
      },
      workflows: DELIVERY_MAX_ATTEMPTS,
      hub: DELIVERY_MAX_ATTEMPTS,
    });
  });

  it('is what the environment sets, for every worker alike', () => {
    provideConfig(
      loadConfig({
        ...TABLE,
        OPS_DELIVERY_MAX_ATTEMPTS: '2',
        OPS_RETRY_BASE_SECONDS: '1',
        OPS_RETRY_MAX_SECONDS: '3',
        OPS_DELIVERY_LEASE_SECONDS: '7',
      }),
    );
    expect(policyOf()).toEqual({
      export: {
        maxAttempts: 2,
        backoff: { baseSeconds: 1, capSeconds: 3 },
        leaseSeconds: 7,
        queueSecondMs: 1000,
      },
      workflows: 2,
      hub: 2,
    });
  });

  it("on the local runtime, an export's retry time is counted in its queues' seconds (10 ms in the e2e tests)", () => {
    const queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: 5, msPerSecond: 10 });
    provideConfig(
      localConfig({
        endpoint: 'http://127.0.0.1:1',
        tableName: 'ops',
        cursorSecret: 'c'.repeat(32),
        settings: {},
        queues,
        sandbox: { url: 'http://127.0.0.1:2' } as ProviderSandbox,
      }),
    );
    expect(exportRunDeps(db).queueSecondMs).toBe(10);
  });
});

describe('a queue worker handler', () => {
  const internalKinds = kindsOn('internal');
  const recording = (handled: string[]) => {
    const handlers: Partial<KindHandlers<'internal'>> = {};
    for (const kind of internalKinds)
      handlers[kind] = async (event) => {
        handled.push(`${kind}:${event.event_id}`);
      };
    return handlers as KindHandlers<'internal'>;
  };
  const message = (kind: string, payload: Record<string, unknown>) => ({
    messageId: `m-${kind}`,
    body: JSON.stringify({ kind, event_id: 'e-1', payload }),
    attributes: {},
  });

  it('hands its kinds the configured table and its own queue, and dispatches each message by the event manifest', async () => {
    provideConfig(
      loadConfig({
        ...TABLE,
        INTERNAL_QUEUE_URL: 'https://sqs.local/internal',
        EXTERNAL_QUEUE_URL: 'https://sqs.local/external',
      }),
    );
    const given: [string, string][] = [];
    const handled: string[] = [];
    const handler = workerHandler('internal', (table, queue) => {
      given.push([table.tableName, queue.queueUrl]);
      return recording(handled);
    });
    expect(given).toEqual([['ops', 'https://sqs.local/internal']]);
    const full = (kind: string) =>
      Object.fromEntries(Object.keys(eventRow(kind)!.payload).map((field) => [field, 'x']));
    const out = await handler(
      { Records: internalKinds.map((kind) => message(kind, full(kind))) } as unknown as SQSEvent,
      {} as Context,
    );
    expect(out.batchItemFailures).toEqual([]);
    expect(handled).toEqual(internalKinds.map((kind) => `${kind}:e-1`));
  });

  it('refuses to start without a handler for a kind of its queue, or with one for another queue', () => {
    const { [EVENT_KINDS.workflowEventRecorded]: _dropped, ...missing } = recording([]);
    expect(() => createQueueWorker('internal', missing as KindHandlers<'internal'>)).toThrow(
      `the internal worker's handlers do not match the event manifest: missing [${EVENT_KINDS.workflowEventRecorded}], not on this queue []`,
    );
    const foreign = { ...recording([]), [EVENT_KINDS.accountingExportRequested]: async () => {} };
    expect(() => createQueueWorker('internal', foreign)).toThrow(
      `missing [], not on this queue [${EVENT_KINDS.accountingExportRequested}]`,
    );
  });
});
