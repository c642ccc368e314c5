import { Duration } from 'aws-cdk-lib';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { METRIC_NAMESPACE, SERVICE } from '#shared/kernel/names';

/** The periods the alarms and the dashboard read metrics over. */
export const FIVE_MINUTES = Duration.minutes(5);
export const ONE_MINUTE = Duration.minutes(1);

/** Metrics Insights over the service's own EMF metrics, whatever other dimensions they carry. */
export const emfQuery = (fn: 'SUM' | 'MAX' | 'AVG', metric: string, groupBy?: string): string =>
  `SELECT ${fn}(${metric}) FROM ${METRIC_NAMESPACE} WHERE service = '${SERVICE}'${groupBy ? ` GROUP BY ${groupBy}` : ''}`;

/** One of the service's EMF metrics over 5 minutes, named after itself. */
export const emfMetric = (fn: 'SUM' | 'MAX', metric: string) =>
  new MathExpression({ expression: emfQuery(fn, metric), period: FIVE_MINUTES, label: metric });
