import { Duration } from 'aws-cdk-lib';
import {
  type Alarm,
  AlarmStatusWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  LogQueryVisualizationType,
  LogQueryWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { METRICS } from '#shared/kernel/names';
import { emfMetric, FIVE_MINUTES, ONE_MINUTE } from './emf';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { DeploymentConfig } from '#infra/config';
import type { DeliveryQueue } from './queues';
import type { ServiceFunction } from './service-function';

/** The metrics the alarms watch that the dashboard draws too (one metric object for both). */
export interface Watched {
  readonly requests: IMetric;
  readonly clientErrors: IMetric;
  readonly serverErrors: IMetric;
  readonly errorRate: IMetric;
  readonly latencyP99: IMetric;
  readonly iteratorAge: IMetric;
  readonly relayLag: IMetric;
  readonly dlqs: readonly { name: string; queue: IQueue }[];
}

/** What the dashboard reads of the monitoring construct's props (./monitoring.ts). */
export interface DashboardProps {
  readonly config: DeploymentConfig;
  readonly api: HttpApi;
  readonly apiAccessLogGroupName: string;
  readonly functions: readonly ServiceFunction[];
  readonly queues: readonly DeliveryQueue[];
}

/**
 * The SRE dashboard: API, functions, queues and DLQs, the outbox relay, the service's own metrics,
 * and every alarm's state at the bottom. Built in the monitoring construct's scope, so its
 * logical id stays the construct's `Dashboard`.
 */
export function serviceDashboard(
  scope: Construct,
  props: DashboardProps,
  { requests, clientErrors, serverErrors, errorRate, latencyP99, iteratorAge, relayLag, dlqs }: Watched,
  alarms: Alarm[],
): Dashboard {
  const { config, api } = props;
  const fns = props.functions;
  const perFunction = (label: string, metric: (f: ServiceFunction) => IMetric) =>
    new GraphWidget({
      title: label,
      width: 8,
      left: fns.map((f) => metric(f)),
    });
  const emf = (metrics: string[], title: string) =>
    new GraphWidget({
      title,
      width: 12,
      left: metrics.map((m) => emfMetric('SUM', m)),
    });
  return new Dashboard(scope, 'Dashboard', {
    dashboardName: config.prefix,
    defaultInterval: Duration.hours(3),
    widgets: [
      [
        new TextWidget({
          width: 24,
          height: 2,
          markdown: `# ${config.prefix}\nAPI, functions, queues and the outbox relay. Every alarm names its runbook in \`runbooks/\`; the alarm list is at the bottom.`,
        }),
      ],
      [
        new GraphWidget({
          title: 'API requests',
          width: 8,
          left: [requests],
          right: [clientErrors, serverErrors],
        }),
        new GraphWidget({ title: 'API 5xx rate (%)', width: 8, left: [errorRate] }),
        new GraphWidget({
          title: 'API latency (ms)',
          width: 8,
          left: [
            api.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }),
            api.metricLatency({ period: FIVE_MINUTES, statistic: 'p90' }),
            latencyP99,
            api.metricIntegrationLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
          ],
        }),
      ],
      [
        perFunction('Function errors', (f) =>
          f.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum', label: f.shortName }),
        ),
        perFunction('Function duration p99 (ms)', (f) =>
          f.fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99', label: f.shortName }),
        ),
        perFunction('Function throttles', (f) =>
          f.fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum', label: f.shortName }),
        ),
      ],
      [
        new LogQueryWidget({
          title: 'Cold starts per function (init duration from REPORT lines)',
          width: 12,
          height: 6,
          logGroupNames: fns.map((f) => f.logGroup.logGroupName),
          view: LogQueryVisualizationType.TABLE,
          queryLines: [
            'filter @type = "REPORT" and ispresent(@initDuration)',
            'stats count(*) as coldStarts, pct(@initDuration, 50) as p50InitMs, pct(@initDuration, 99) as p99InitMs by @log',
            'sort coldStarts desc',
          ],
        }),
        new LogQueryWidget({
          title: 'API 5xx by route (access log)',
          width: 12,
          height: 6,
          logGroupNames: [props.apiAccessLogGroupName],
          view: LogQueryVisualizationType.TABLE,
          queryLines: [
            'filter status >= 500',
            'stats count(*) as errors by routeKey, status',
            'sort errors desc',
          ],
        }),
      ],
      [
        new GraphWidget({
          title: 'Queue depth (visible)',
          width: 8,
          left: props.queues.map((q) =>
            q.queue.metricApproximateNumberOfMessagesVisible({
              period: ONE_MINUTE,
              statistic: 'Maximum',
              label: q.name,
            }),
          ),
        }),
        new GraphWidget({
          title: 'Oldest message age (s)',
          width: 8,
          left: props.queues.map((q) =>
            q.queue.metricApproximateAgeOfOldestMessage({
              period: ONE_MINUTE,
              statistic: 'Maximum',
              label: q.name,
            }),
          ),
        }),
        new GraphWidget({
          title: 'DLQ depth',
          width: 8,
          left: dlqs.map(({ name, queue }) =>
            queue.metricApproximateNumberOfMessagesVisible({
              period: ONE_MINUTE,
              statistic: 'Maximum',
              label: name,
            }),
          ),
        }),
      ],
      [
        new GraphWidget({ title: 'Relay iterator age (ms)', width: 8, left: [iteratorAge] }),
        new GraphWidget({ title: 'Outbox relay lag, max (ms)', width: 8, left: [relayLag] }),
        emf(
          [METRICS.relayPublished, METRICS.relayFailed, METRICS.sweeperRepublished, METRICS.outboxWritten],
          'Outbox',
        ),
      ],
      [
        emf(
          [
            METRICS.notificationQueued,
            METRICS.notificationBlocked,
            METRICS.notificationDelivered,
            METRICS.notificationRetried,
            METRICS.notificationGated,
            METRICS.notificationDeadLettered,
            METRICS.reviewItemOpened,
          ],
          'Notifications (service metrics)',
        ),
        emf(
          [METRICS.apiRequest, METRICS.apiServerError, METRICS.apiClientError, METRICS.loginFailed],
          'API (service metrics)',
        ),
      ],
      [
        emf(
          [METRICS.workflowRuleFired, METRICS.workflowActionFailed, METRICS.workflowActionErrored],
          'Workflow rules (service metrics)',
        ),
      ],
      [new AlarmStatusWidget({ title: 'Alarms', width: 24, alarms })],
    ],
  });
}
