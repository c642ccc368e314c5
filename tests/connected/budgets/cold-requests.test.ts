import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationName, recordCalls } from '../../../bench/lib/capture';
import type { Handler } from '../../../bench/lib/measure';
import { apiEvent, coldAnswerOk, coldReads, coldRequest, context } from '../../../bench/lib/requests';
import { type Fixture, lambdaEnv, seed } from '../../../bench/lib/scenario';
import { ensureTable } from '#local/dynamodb-local';
import { LocalQueues } from '#local/queues';
import { GROUPS } from '#shared/api/manifest';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { dynamoEndpoint, uniqueTableName } from '#tests/support/db';

/**
 * The bench's cold start of each route group serves one request and compares it with the SDK-only
 * floor replaying that request's wire calls (docs/performance.md). Both sides do comparable work
 * only if the request is a real one: it succeeds and reads the table, as the group's main route
 * does. A group's first GET was not (a static catalog, a 403, a 422 without a body).
 */

const queues = new LocalQueues({ visibilityTimeoutSeconds: 30, maxReceiveCount: 5, msPerSecond: 1000 });
const recorder = recordCalls();
let fx: Fixture;

beforeAll(async () => {
  const endpoint = dynamoEndpoint();
  const table = uniqueTableName('cold');
  await ensureTable(endpoint, table);
  fx = await seed(endpoint, table, { exceptions: 2 });
  await queues.listen();
  queues.create(QUEUES.internal, dlqName(QUEUES.internal));
  queues.create(QUEUES.external, dlqName(QUEUES.external));
  Object.assign(process.env, lambdaEnv('cold', endpoint, fx), {
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    AWS_ENDPOINT_URL_SQS: queues.endpoint,
    INTERNAL_QUEUE_URL: queues.url(QUEUES.internal),
    EXTERNAL_QUEUE_URL: queues.url(QUEUES.external),
    INTERNAL_DLQ_URL: queues.url(dlqName(QUEUES.internal)),
    EXTERNAL_DLQ_URL: queues.url(dlqName(QUEUES.external)),
  });
}, 60_000);

afterAll(async () => {
  recorder.stop();
  await queues.stop();
});

describe("each group's cold request", () => {
  for (const group of GROUPS) {
    it(`${group}: answers as its cold request should and reads the table`, async () => {
      const { handler } = (await import(/* @vite-ignore */ `../../../functions/${group}/handler.ts`)) as {
        handler: Handler;
      };
      recorder.take();
      const res = (await handler(apiEvent(coldRequest(group, fx)), context(group))) as { statusCode: number };
      const calls = recorder.take().map((c) => c.target);
      expect(coldAnswerOk(group, res.statusCode), `${group}: ${res.statusCode}`).toBe(true);
      if (group === 'oauth') expect(res.statusCode, group).toBe(400);
      else expect(res.statusCode, group).toBeLessThan(300);
      if (!coldReads(group)) return;
      const reads = calls.filter((t) => t.startsWith('DynamoDB_') && /Get|Query/.test(operationName(t)));
      expect(reads.length, `${group}: ${calls.join(', ')}`).toBeGreaterThan(0);
    }, 30_000);
  }

  it('metrics reads the queue depths too, as a platform admin', async () => {
    const { handler } = (await import('#functions/metrics/handler')) as { handler: Handler };
    recorder.take();
    await handler(apiEvent(coldRequest('metrics', fx)), context('metrics'));
    expect(recorder.take().map((c) => operationName(c.target))).toContain('GetQueueAttributes');
  });
});
