import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  type Dashboard,
  type IMetric,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ALARMS, type AlarmName, dlqName, METRICS } from '#shared/kernel/names';
import { ALARM_SEVERITY, ALARM_THRESHOLDS, type DeploymentConfig, type Severity } from '#infra/config';
import { serviceDashboard } from './dashboard';
import { emfMetric, FIVE_MINUTES, ONE_MINUTE } from './emf';
import { type DeliveryQueue, RELAY_FAILURES_QUEUE } from './queues';
import type { ServiceFunction } from './service-function';

/** Where an alarm's runbook lives; every alarm description names it. */
export const runbookPath = (alarm: AlarmName): string => `runbooks/${alarm}.md`;

export interface MonitoringProps {
  readonly config: DeploymentConfig;
  readonly topics: Readonly<Record<Severity, ITopic>>;
  readonly api: HttpApi;
  readonly apiAccessLogGroupName: string;
  readonly functions: readonly ServiceFunction[];
  readonly relay: ServiceFunction;
  readonly queues: readonly DeliveryQueue[];
  /** The relay's on-failure destination: a DLQ in all but name. */
  readonly relayFailures: IQueue;
}

/**
 * Alarms routed by severity (ALARM_SEVERITY) and the SRE dashboard. Alarm names are
 * `<prefix>-<alarm>[-<function or queue>]`; every description ends with its runbook path.
 */
export class Monitoring extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  private readonly prefix: string;
  private readonly topics: Readonly<Record<Severity, ITopic>>;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.prefix = props.config.prefix;
    this.topics = props.topics;
    const api = this.apiAlarms(props.api);
    this.functionAlarms(props.functions);
    const dlqs = this.queueAlarms(props);
    const relay = this.relayAlarms(props.relay);
    this.businessAlarms();
    this.dashboard = serviceDashboard(this, props, { ...api, ...relay, dlqs }, this.alarms);
  }

  private apiAlarms(api: HttpApi) {
    const T = ALARM_THRESHOLDS;
    const requests = api.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = api.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const clientErrors = api.metricClientError({ period: FIVE_MINUTES, statistic: 'Sum' });
    const errorRate = new MathExpression({
      // Below 20 requests in 5 minutes a single error is not a rate.
      expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      period: FIVE_MINUTES,
      label: '5xx rate (%)',
    });
    this.alarm(ALARMS.api5xxRate, undefined, errorRate, {
      threshold: T.api5xxRatePercent,
      evaluationPeriods: 3,
      what: `More than ${T.api5xxRatePercent}% of API requests answered 5xx for 15 minutes.`,
    });
    const latencyP99 = api.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' });
    this.alarm(ALARMS.apiLatencyP99, undefined, latencyP99, {
      threshold: T.apiLatencyP99Ms,
      evaluationPeriods: 3,
      what: `API p99 latency above ${T.apiLatencyP99Ms} ms for 15 minutes.`,
    });
    return { requests, serverErrors, clientErrors, errorRate, latencyP99 };
  }

  private functionAlarms(functions: readonly ServiceFunction[]) {
    const T = ALARM_THRESHOLDS;
    for (const f of functions) {
      this.alarm(
        ALARMS.functionErrors,
        f.shortName,
        f.fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }),
        {
          threshold: T.functionErrors,
          comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          what: `${f.functionName} raised ${T.functionErrors} or more errors in 5 minutes.`,
        },
      );
      this.alarm(
        ALARMS.functionThrottles,
        f.shortName,
        f.fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }),
        {
          threshold: T.functionThrottles,
          comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          what: `${f.functionName} was throttled (account or reserved concurrency exhausted).`,
        },
      );
    }
  }

  /** Every DLQ not empty; every queue's oldest message too old. Returns the DLQs, for the dashboard. */
  private queueAlarms(props: MonitoringProps) {
    const T = ALARM_THRESHOLDS;
    const dlqs: { name: string; queue: IQueue }[] = [
      ...props.queues.map((q) => ({ name: dlqName(q.name), queue: q.dlq as IQueue })),
      { name: RELAY_FAILURES_QUEUE, queue: props.relayFailures },
    ];
    for (const { name, queue } of dlqs) {
      this.alarm(
        ALARMS.dlqNotEmpty,
        name,
        queue.metricApproximateNumberOfMessagesVisible({ period: ONE_MINUTE, statistic: 'Maximum' }),
        {
          threshold: 0,
          evaluationPeriods: 1,
          what: `The dead-letter queue ${this.prefix}-${name} holds messages that exhausted their retries.`,
        },
      );
    }
    for (const q of props.queues) {
      const seconds = T.queueOldestMessageAgeSeconds[q.name];
      this.alarm(
        ALARMS.queueOldestMessageAge,
        q.name,
        q.queue.metricApproximateAgeOfOldestMessage({ period: FIVE_MINUTES, statistic: 'Maximum' }),
        {
          threshold: seconds,
          evaluationPeriods: 2,
          what: `The oldest message in ${q.name} is older than ${seconds} s: its worker is not keeping up or is failing.`,
        },
      );
    }
    return dlqs;
  }

  private relayAlarms(relay: ServiceFunction) {
    const T = ALARM_THRESHOLDS;
    const iteratorAge = relay.fn.metric('IteratorAge', { period: ONE_MINUTE, statistic: 'Maximum' });
    this.alarm(ALARMS.relayIteratorAge, undefined, iteratorAge, {
      threshold: T.relayIteratorAgeMs,
      evaluationPeriods: 5,
      what: `The outbox relay is more than ${T.relayIteratorAgeMs / 1000} s behind the table stream for 5 minutes.`,
    });
    const relayFailed = emfMetric('SUM', METRICS.relayFailed);
    this.alarm(ALARMS.relayFailures, undefined, relayFailed, {
      threshold: T.relayFailures,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      what: 'The outbox relay failed to publish outbox events to SQS.',
    });
    // RelayLagMs exists only for events the relay published: no outbox writes, no data. Missing
    // data stays not breaching, or every quiet night would page. What a missing metric could also
    // hide, a relay that stopped publishing, is caught below: the sweeper then publishes the
    // stranded items, each counted in SweeperRepublished.
    const relayLag = emfMetric('MAX', METRICS.relayLag);
    this.alarm(ALARMS.outboxRelayLag, undefined, relayLag, {
      threshold: T.outboxRelayLagMs,
      evaluationPeriods: 2,
      what: `Outbox events reach SQS more than ${T.outboxRelayLagMs / 1000} s after they were written.`,
    });
    const sweeperRepublished = emfMetric('SUM', METRICS.sweeperRepublished);
    this.alarm(ALARMS.outboxSweeperRepublished, undefined, sweeperRepublished, {
      threshold: T.outboxSweeperRepublished,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      what: 'The outbox sweeper re-published items the relay had not published in time: the relay is stopped, failing or far behind, and the sweeper is covering for it.',
    });
    return { iteratorAge, relayLag };
  }

  /** Workflow actions and accounting exports that ended in the review queue; an OAuth app refused. */
  private businessAlarms() {
    const T = ALARM_THRESHOLDS;
    const workflowErrors = emfMetric('SUM', METRICS.workflowActionErrored);
    this.alarm(ALARMS.workflowActionErrors, undefined, workflowErrors, {
      threshold: T.workflowActionErrors,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      what: 'A workflow rule action failed with an error on every attempt and went to the review queue.',
    });

    const exportFailures = emfMetric('SUM', METRICS.accountingExportFailed);
    this.alarm(ALARMS.accountingExportFailures, undefined, exportFailures, {
      threshold: T.accountingExportFailures,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      what: 'An accounting export ended failed or partially exported and went to the review queue.',
    });

    // One alarm for every connection at once: the app's credentials are the service's, not a tenant's.
    const appRefused = emfMetric('SUM', METRICS.oauthAppCredentialsInvalid);
    this.alarm(ALARMS.oauthAppCredentials, undefined, appRefused, {
      threshold: T.oauthAppCredentials,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      what: "A provider's token endpoint refused the service's OAuth app (invalid_client): its client id or secret is wrong.",
    });

    // --- Timers: from a timer's due time to the worker acting on it (docs/api.md, "Time").
    // A sweeper that fails or stops shows in function-errors and in this lag once it recovers;
    // firings that keep failing reach the internal DLQ (dlq-not-empty).
    const timerLag = emfMetric('MAX', METRICS.timerLag);
    this.alarm(ALARMS.timerLate, undefined, timerLag, {
      threshold: T.timerLateMs,
      evaluationPeriods: 2,
      what: `Timers fire more than ${T.timerLateMs / 1000} s after they were due, for 10 minutes.`,
    });
  }

  private alarm(
    name: AlarmName,
    suffix: string | undefined,
    metric: IMetric,
    o: { threshold: number; evaluationPeriods: number; what: string; comparison?: ComparisonOperator },
  ): Alarm {
    const alarmName = [this.prefix, name, suffix].filter(Boolean).join('-');
    const severity = ALARM_SEVERITY[name];
    const alarm = new Alarm(this, `Alarm-${name}${suffix ? `-${suffix}` : ''}`, {
      alarmName,
      alarmDescription: `[${severity}] ${o.what} Runbook: ${runbookPath(name)}`,
      metric,
      threshold: o.threshold,
      evaluationPeriods: o.evaluationPeriods,
      datapointsToAlarm: o.evaluationPeriods,
      comparisonOperator: o.comparison ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topics[severity]);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.push(alarm);
    return alarm;
  }
}
