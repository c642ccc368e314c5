import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRIC_NAMESPACE, SERVICE } from '../../shared/names';

/**
 * One logger and one metrics object per function process. JSON logs to stdout; metrics as EMF,
 * so CloudWatch extracts them from the log stream without API calls in the hot path.
 */
export const logger = new Logger({ serviceName: SERVICE });

export const metricsFor = (functionGroup: string): Metrics =>
  new Metrics({
    namespace: METRIC_NAMESPACE,
    serviceName: SERVICE,
    defaultDimensions: { group: functionGroup },
  });
