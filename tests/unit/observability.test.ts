import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { describe, expect, it } from 'vitest';
import { metricsFor } from '#functions/observability';
import { METRIC_NAMESPACE } from '#shared/kernel/names';

/**
 * The functions' metrics objects (functions/observability.ts): the dashboards and alarms read the
 * namespace and the `group` dimension, so a metric written without them is one no alarm sees.
 */
describe('metricsFor', () => {
  it('gives each group one Metrics, in the service namespace, with the group as a dimension', () => {
    const relay = metricsFor('relay');
    expect(metricsFor('relay')).toBe(relay);
    expect(metricsFor('timer-sweeper')).not.toBe(relay);
    relay.addMetric('probe', MetricUnit.Count, 1);
    const emf = relay.serializeMetrics();
    relay.clearMetrics();
    expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: METRIC_NAMESPACE,
      Dimensions: [expect.arrayContaining(['group'])],
    });
    expect(emf).toMatchObject({ group: 'relay', probe: 1 });
  });
});
