import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_OPERATIONS } from '#shared/api/operations/metrics';
import { REVIEW_KINDS } from '#shared/api/schemas/notifications';
import { type MetricsSnapshot, metricsSnapshot } from '#shared/domain/metrics/snapshot';
import { METRICS } from '#shared/kernel/names';
import { dbFor } from '#functions/adapters/dynamo';
import { metricsStore, queueGauge } from '#functions/adapters/metrics-store';
import { sqsClient } from '#functions/adapters/queue';
import { clock, queueConfig, tableConfig } from '#functions/config';
import { httpHandler } from '#functions/http/handler';
import { metricsFor } from '#functions/observability';

const queues = queueConfig();
const deps = {
  queues: queueGauge(sqsClient(queues), queues),
  store: metricsStore(dbFor(tableConfig())),
  clock,
  reviewKinds: REVIEW_KINDS,
};

/**
 * The table figures of a snapshot as CloudWatch metrics too (SQS publishes the queue figures
 * itself), so the dashboard can graph what an operator reads here.
 */
const record = (s: MetricsSnapshot) => {
  const metrics = metricsFor('metrics');
  metrics.addMetric(METRICS.outboxPending, MetricUnit.Count, s.outbox.pending);
  metrics.addMetric(METRICS.outboxOldestAge, MetricUnit.Seconds, s.outbox.oldest_age_seconds ?? 0);
  for (const [kind, open] of Object.entries(s.review_items_open)) {
    const one = metrics.singleMetric();
    one.addDimension('kind', kind);
    one.addMetric(METRICS.reviewItemsOpen, MetricUnit.Count, open);
  }
  return s;
};

export const handler = httpHandler(METRICS_OPERATIONS, {
  'ops.metrics': async () => record(await metricsSnapshot(deps)),
});
