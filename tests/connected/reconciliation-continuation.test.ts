import { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '#functions/adapters/dynamo';
import type { createStores } from '#functions/adapters/stores';
import { hubHandlers } from '#functions/workers/hub';
import { createQueueWorker, type KindHandlers } from '#functions/workers/queue-worker';
import { createConnection } from '#shared/domain/integrations/connections';
import { requestReconciliation } from '#shared/domain/integrations/reconciliation-requests';
import type { OutboxEvent } from '#shared/domain/outbox';
import { kindsOn } from '#shared/kernel/events';
import { newId } from '#shared/kernel/ids';
import { dlqName, EVENT_KINDS, METRICS, QUEUES } from '#shared/kernel/names';
import { LocalQueues } from '#local/queues';
import { ProviderSandbox } from '#local/provider-sandbox';
import { hubDeps, LEDGERLY_REQUEST, LEDGERLY_SECRET } from '#tests/support/connections';
import { freshDb } from '#tests/support/db';
import { principal } from '#tests/support/fixtures';
import { localSqsClient } from '#tests/support/local-sqs';

/**
 * A reconciliation continuation on the internal queue (docs/api.md section 9.3): one that arrives
 * before its `not_before` (the provider's Retry-After) is put back until then by a visibility
 * change, not failed, and the run completes on its next receive; never in the DLQ. The queue's
 * seconds are milliseconds here; the worker's clock is the test's.
 */

const RECEIVES = 5;
const queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: RECEIVES, msPerSecond: 1 });
const internal = queues.create(QUEUES.internal, dlqName(QUEUES.internal));
const dlq = queues.queues.get(dlqName(QUEUES.internal))!;
const sandbox = new ProviderSandbox();
const receives: number[] = [];
let db: Db;
let stores: ReturnType<typeof createStores>;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const deps = () => ({ ...hubDeps(db, stores, `${sandbox.url}/providers`, 5000), clock });
const manager = principal('manager-1', {}, true);

beforeAll(async () => {
  process.env.OPS_LOCAL_QUIET = '1';
  ({ db, stores } = await freshDb());
  await sandbox.listen();
  await queues.listen();
  const url = queues.url(QUEUES.internal);
  const others = Object.fromEntries(
    kindsOn('internal').map((kind) => [kind, () => Promise.reject(new Error(`no ${kind} in this test`))]),
  ) as unknown as KindHandlers<'internal'>;
  const worker = createQueueWorker('internal', {
    ...others,
    ...hubHandlers(deps(), { sqs: localSqsClient(queues, { internal: url }), queueUrl: url }),
  });
  queues.consume(
    QUEUES.internal,
    async (event, context) => {
      for (const r of event.Records) receives.push(Number(r.attributes.ApproximateReceiveCount));
      const out = await worker(event, context);
      // Time passes past not_before right after the first (early) receive, whatever the load.
      if (receives.length === 1) offsetMs += 41_000;
      return out;
    },
    () => ({ functionName: 'worker-internal', awsRequestId: 'r' }) as Context,
    { pollMs: 2, concurrency: 1 },
  );
});
afterAll(async () => {
  await queues.stop();
  await sandbox.stop();
});

const until = async (what: string, done: () => boolean | Promise<boolean>) => {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`not ${what} in 10 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('a reconciliation continuation that comes before the provider lets it', () => {
  it('waits on the queue until not_before, then completes the run; no failure, no DLQ', async () => {
    const tenantId = `t-${newId().slice(-12)}`;
    const c = await createConnection(deps(), manager, tenantId, {
      ...LEDGERLY_REQUEST,
      secret: LEDGERLY_SECRET,
    });
    const run = await requestReconciliation(deps(), manager, tenantId, {
      connection_id: c.id,
      rule_set: 'payment_reconciliation',
    });
    const continuation: OutboxEvent = {
      event_id: newId(),
      kind: EVENT_KINDS.reconciliationRunRequested,
      tenant_id: tenantId,
      idempotency_key: `reconciliation:${tenantId}:${run.id}:0`,
      occurred_at: clock.now().toISOString(),
      payload: { run_id: run.id, not_before: new Date(clock.now().getTime() + 40_000).toISOString() },
    };
    const added = vi.spyOn(Metrics.prototype, 'addMetric');
    try {
      internal.send(JSON.stringify(continuation));
      // The first receive is early: the message goes back for the 40 "seconds" left, then completes.
      await until('completed', async () => (await deps().runs.get(tenantId, run.id))!.status === 'completed');
      expect(receives).toEqual([1, 2]);
      expect(dlq.depth().visible).toBe(0);
      // An early continuation is not a failed record.
      expect(added.mock.calls.filter(([name]) => name === METRICS.workerFailed)).toEqual([]);
    } finally {
      added.mockRestore();
    }
  });
});
