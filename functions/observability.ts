import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRIC_NAMESPACE, SERVICE } from '#shared/kernel/names';

/**
 * One logger and one metrics object per function process. JSON logs to stdout; metrics as EMF,
 * so CloudWatch extracts them from the log stream without API calls in the hot path.
 */
export const logger = new Logger({ serviceName: SERVICE });

const metricsByGroup = new Map<string, Metrics>();

/** One Metrics per group, so what a handler adds is flushed by its group's `logMetrics`. */
export function metricsFor(functionGroup: string): Metrics {
  let metrics = metricsByGroup.get(functionGroup);
  if (!metrics) {
    metrics = new Metrics({
      namespace: METRIC_NAMESPACE,
      serviceName: SERVICE,
      defaultDimensions: { group: functionGroup },
    });
    metricsByGroup.set(functionGroup, metrics);
  }
  return metrics;
}

/**
 * Flushes what was recorded since the last flush, outside a handler's `logMetrics`. An empty store
 * publishes nothing: Powertools logs a warning for an empty flush, which would be a log line for
 * every quiet batch or sweep. Its dimensions and metadata are dropped all the same, so that the
 * next flush does not inherit them.
 */
export function publishRecorded(metrics: Metrics): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  else {
    metrics.clearDimensions();
    metrics.clearMetadata();
  }
}
