import { EventType } from '@aws-lambda-powertools/batch';
import { MetricUnit, Metrics } from '@aws-lambda-powertools/metrics';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { partialBatch } from '#functions/batch';
import { logger } from '#functions/observability';

/**
 * The one batch runner of the relay and the workers (functions/batch.ts): a failed record fails
 * alone, a batch that fails whole is reported rather than thrown, the records run at once, log
 * lines carry the invocation's context, and the metrics are flushed after every batch that
 * recorded any.
 */

const context = {
  awsRequestId: 'req-batch-1',
  functionName: 'ops-worker-external',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-west-1:000000000000:function:ops-worker-external',
  memoryLimitInMB: '256',
} as Context;

const sqsRecord = (id: string): SQSRecord =>
  ({ messageId: id, receiptHandle: `r-${id}`, body: id, eventSource: 'aws:sqs' }) as SQSRecord;
const sqsEvent = (...ids: string[]): SQSEvent => ({ Records: ids.map(sqsRecord) });

/** One SQS batch of these message ids through `partialBatch`, under the test's context. */
const runSqs = (metrics: Metrics, ids: string[], record: (r: SQSRecord) => Promise<void>) =>
  partialBatch({ type: EventType.SQS, event: sqsEvent(...ids), record }, context, metrics);

const quietMetrics = () => {
  const metrics = new Metrics({ namespace: 'ops-test', serviceName: 'ops-test' });
  const flushed = vi.spyOn(metrics, 'publishStoredMetrics').mockImplementation(() => metrics);
  return { metrics, flushed };
};

afterEach(() => {
  vi.restoreAllMocks();
  logger.setLogLevel('SILENT');
});

describe('partialBatch', () => {
  it('reports only the failed record, and a batch failed whole without throwing', async () => {
    const { metrics } = quietMetrics();
    const some = await runSqs(metrics, ['a', 'b', 'c'], async (r) => {
      if (r.messageId === 'b') throw new Error('b failed');
    });
    expect(some).toEqual({ batchItemFailures: [{ itemIdentifier: 'b' }] });

    const all = await runSqs(metrics, ['a', 'b'], async () => {
      throw new Error('down');
    });
    expect(all).toEqual({ batchItemFailures: [{ itemIdentifier: 'a' }, { itemIdentifier: 'b' }] });
  });

  it("starts every record before the first one's wait ends (at once, not one after another)", async () => {
    const { metrics } = quietMetrics();
    const seen: string[] = [];
    await runSqs(metrics, ['a', 'b', 'c'], async (r) => {
      seen.push(`start ${r.messageId}`);
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(`end ${r.messageId}`);
    });
    expect(seen.slice(0, 3)).toEqual(['start a', 'start b', 'start c']);
  });

  it('flushes the metrics after the records ran, a failed batch too', async () => {
    const { metrics, flushed } = quietMetrics();
    const order: string[] = [];
    flushed.mockImplementation(() => {
      order.push('flush');
      return metrics;
    });
    await runSqs(metrics, ['a'], async () => {
      order.push('record');
      metrics.addMetric('recordFailed', MetricUnit.Count, 1);
      throw new Error('down');
    });
    expect(order).toEqual(['record', 'flush']);
  });

  it('writes neither metrics nor a warning for a batch that recorded none, and keeps no dimension or metadata', async () => {
    const warned: unknown[] = [];
    const quiet = {
      trace() {},
      debug() {},
      info() {},
      error() {},
      warn: (...a: unknown[]) => warned.push(a),
    };
    const metrics = new Metrics({ namespace: 'ops-test', serviceName: 'ops-test', logger: quiet });
    const flushed = vi.spyOn(metrics, 'publishStoredMetrics');
    await runSqs(metrics, ['a'], async () => {
      metrics.addDimension('kind', 'quiet');
      metrics.addMetadata('note', 'quiet-metadata');
    });
    expect(flushed).not.toHaveBeenCalled();
    expect(warned).toEqual([]);
    // The next batch's metrics do not inherit this one's dimension or metadata.
    metrics.addMetric('next', MetricUnit.Count, 1);
    expect(JSON.stringify(metrics.serializeMetrics())).not.toContain('quiet');
  });

  it("gives the records' log lines the invocation's request id and function name", async () => {
    const { metrics } = quietMetrics();
    logger.setLogLevel('INFO');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    await runSqs(metrics, ['a'], async () => {
      logger.info('record handled');
    });
    const line = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.message === 'record handled');
    expect(line).toMatchObject({ function_request_id: 'req-batch-1', function_name: 'ops-worker-external' });
  });
});
