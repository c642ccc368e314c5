import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { ALARM_SEVERITY } from '#infra/config';
import { REPO_ROOT } from '#infra/paths';
import { ALARMS, type AlarmName, dlqName, METRIC_NAMESPACE, METRICS, QUEUES } from '#shared/kernel/names';
import { type Cfn, resourcesOf, type Synthesized, TEST_STAGE } from '#tests/infra/synth';

/** Alarms (each names an existing runbook), runbooks (each names a real alarm), the dashboard. */
export function alarmAndRunbookCases(s: Synthesized): void {
  const { statelessTemplate: t, statefulTemplate, stateless } = s;
  const prefix = `${TEST_STAGE}-ops-platform`;
  const RUNBOOKS = join(REPO_ROOT, 'runbooks');
  const INDEX = 'README.md';

  const alarms = resourcesOf(t, 'AWS::CloudWatch::Alarm').map(([, p]) => p);
  const alarmNames = alarms.map((a) => a.AlarmName as string);
  const runbookOf = (description: string) => description.match(/Runbook: runbooks\/([a-z0-9-]+)\.md$/)?.[1];
  const runbookFiles = readdirSync(RUNBOOKS).filter((f) => f.endsWith('.md') && f !== INDEX);

  /** The stateful topic (page or ticket) an alarm action points at. */
  const topicOf = (action: unknown): string => {
    const outputName = JSON.stringify(action).match(/"OutputName":"([^"]+)"/)![1]!;
    const id = JSON.stringify(statefulTemplate.toJSON().Outputs[outputName].Value).match(
      /"Ref":"([A-Za-z0-9]+)"/,
    )![1]!;
    return statefulTemplate.toJSON().Resources[id].Properties.TopicName;
  };

  describe('alarms', () => {
    it('each description names its runbook as runbooks/<name>.md, and that file exists', () => {
      expect(alarms.length).toBeGreaterThan(0);
      for (const a of alarms) {
        const runbook = runbookOf(a.AlarmDescription);
        expect(runbook, a.AlarmName).toBeDefined();
        expect(Object.values(ALARMS)).toContain(runbook);
        expect(a.AlarmName.startsWith(`${prefix}-${runbook}`), a.AlarmName).toBe(true);
        expect(existsSync(join(RUNBOOKS, `${runbook}.md`)), `runbooks/${runbook}.md`).toBe(true);
      }
    });

    it('notify the topic of their severity, on ALARM and on OK', () => {
      for (const a of alarms) {
        const runbook = runbookOf(a.AlarmDescription) as AlarmName;
        const topic = `${prefix}-alarms-${ALARM_SEVERITY[runbook]}`;
        expect(a.AlarmActions.map(topicOf), a.AlarmName).toEqual([topic]);
        expect(a.OKActions.map(topicOf), a.AlarmName).toEqual([topic]);
        expect(a.AlarmDescription.startsWith(`[${ALARM_SEVERITY[runbook]}]`)).toBe(true);
        expect(a.TreatMissingData).toBe('notBreaching');
      }
    });

    it('cover the API: 5xx rate and p99 latency', () => {
      const rate = alarms.find((a) => a.AlarmName === `${prefix}-${ALARMS.api5xxRate}`)!;
      const expression = rate.Metrics.find((m: Cfn) => m.Expression)!.Expression;
      expect(expression).toContain('100 * errors / requests');
      expect(
        rate.Metrics.map((m: Cfn) => m.MetricStat?.Metric.MetricName)
          .filter(Boolean)
          .sort(),
      ).toEqual(['5xx', 'Count']);
      const latency = alarms.find((a) => a.AlarmName === `${prefix}-${ALARMS.apiLatencyP99}`)!;
      expect(latency).toMatchObject({
        MetricName: 'Latency',
        Namespace: 'AWS/ApiGateway',
        ExtendedStatistic: 'p99',
      });
    });

    it("cover each function's errors and throttles", () => {
      for (const f of stateless.functions) {
        for (const [alarm, metric] of [
          [ALARMS.functionErrors, 'Errors'],
          [ALARMS.functionThrottles, 'Throttles'],
        ] as const) {
          const a = alarms.find((x) => x.AlarmName === `${prefix}-${alarm}-${f.shortName}`);
          expect(a, `${alarm} ${f.shortName}`).toMatchObject({ MetricName: metric, Namespace: 'AWS/Lambda' });
        }
      }
    });

    it('cover each DLQ (depth > 0) and each queue (oldest message age)', () => {
      for (const queue of Object.values(QUEUES)) {
        const dlq = alarms.find((a) => a.AlarmName === `${prefix}-${ALARMS.dlqNotEmpty}-${dlqName(queue)}`);
        expect(dlq).toMatchObject({
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Threshold: 0,
          ComparisonOperator: 'GreaterThanThreshold',
        });
        const age = alarms.find((a) => a.AlarmName === `${prefix}-${ALARMS.queueOldestMessageAge}-${queue}`);
        expect(age).toMatchObject({ MetricName: 'ApproximateAgeOfOldestMessage' });
      }
      expect(alarmNames).toContain(`${prefix}-${ALARMS.dlqNotEmpty}-outbox-relay-failures`);
    });

    it("cover the relay: iterator age, the service's RelayFailed and RelayLagMs metrics", () => {
      const iterator = alarms.find((a) => a.AlarmName === `${prefix}-${ALARMS.relayIteratorAge}`);
      expect(iterator).toMatchObject({
        MetricName: 'IteratorAge',
        Namespace: 'AWS/Lambda',
        Statistic: 'Maximum',
      });
      expect(JSON.stringify(iterator!.Dimensions)).toContain('OutboxRelayFunction');
      for (const [alarm, metric] of [
        [ALARMS.relayFailures, METRICS.relayFailed],
        [ALARMS.outboxRelayLag, METRICS.relayLag],
      ] as const) {
        const a = alarms.find((x) => x.AlarmName === `${prefix}-${alarm}`)!;
        const query = a.Metrics[0].Expression as string;
        expect(query).toContain(`(${metric}) FROM ${METRIC_NAMESPACE} WHERE service = 'ops-platform'`);
      }
    });

    it('cover a relay the sweeper is covering for: any SweeperRepublished item opens a ticket', () => {
      const a = alarms.find((x) => x.AlarmName === `${prefix}-${ALARMS.outboxSweeperRepublished}`)!;
      expect(a.Metrics[0].Expression).toBe(
        `SELECT SUM(${METRICS.sweeperRepublished}) FROM ${METRIC_NAMESPACE} WHERE service = 'ops-platform'`,
      );
      expect(a).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        EvaluationPeriods: 1,
      });
      expect(ALARM_SEVERITY[ALARMS.outboxSweeperRepublished]).toBe('ticket');
    });

    it('cover late timers: the maximum TimerLagMs over 120 s for 10 minutes pages', () => {
      const a = alarms.find((x) => x.AlarmName === `${prefix}-${ALARMS.timerLate}`)!;
      expect(a.Metrics[0].Expression).toBe(
        `SELECT MAX(${METRICS.timerLag}) FROM ${METRIC_NAMESPACE} WHERE service = 'ops-platform'`,
      );
      expect(a).toMatchObject({ Threshold: 120_000, EvaluationPeriods: 2 });
      expect(ALARM_SEVERITY[ALARMS.timerLate]).toBe('page');
    });

    it('cover a refused OAuth app: one OAuthAppCredentialsInvalid in 5 minutes pages', () => {
      const a = alarms.find((x) => x.AlarmName === `${prefix}-${ALARMS.oauthAppCredentials}`)!;
      expect(a.Metrics[0].Expression).toBe(
        `SELECT SUM(${METRICS.oauthAppCredentialsInvalid}) FROM ${METRIC_NAMESPACE} WHERE service = 'ops-platform'`,
      );
      expect(a).toMatchObject({
        Threshold: 1,
        EvaluationPeriods: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      });
      expect(ALARM_SEVERITY[ALARMS.oauthAppCredentials]).toBe('page');
    });

    it('exist for every name in ALARMS', () => {
      const used = new Set(alarms.map((a) => runbookOf(a.AlarmDescription)));
      expect([...used].sort()).toEqual(Object.values(ALARMS).sort());
    });
  });

  describe('runbooks', () => {
    it('every runbook names a real alarm (its file name) and says which alarm it is for', () => {
      const used = new Set(alarms.map((a) => runbookOf(a.AlarmDescription)));
      expect(runbookFiles.length).toBeGreaterThan(0);
      for (const file of runbookFiles) {
        const name = file.replace(/\.md$/, '');
        expect(used.has(name), `${file} has no alarm`).toBe(true);
        const text = readFileSync(join(RUNBOOKS, file), 'utf8');
        expect(text.split('\n')[0], file).toContain(`\`${name}\``);
      }
    });

    it('each has the four parts: meaning, first three checks with Logs Insights queries, redrive, rollback', () => {
      for (const file of runbookFiles) {
        const text = readFileSync(join(RUNBOOKS, file), 'utf8');
        for (const heading of ['## What it means', '## First three checks', '## Redrive', '## Roll back']) {
          expect(text, `${file}: ${heading}`).toContain(heading);
        }
        const checks = text.split('## First three checks')[1]!.split('\n## ')[0]!;
        expect(checks.match(/^\d\. /gm)?.length, file).toBeGreaterThanOrEqual(3);
        expect(checks, file).toMatch(/```(?:sql|text)?\n(?:.|\n)*?(fields|filter|stats)(?:.|\n)*?```/);
      }
    });

    it('the index links every runbook', () => {
      const index = readFileSync(join(RUNBOOKS, INDEX), 'utf8');
      for (const file of runbookFiles) expect(index, file).toContain(`(${file})`);
    });
  });

  describe('dashboard', () => {
    const [, dashboard] = resourcesOf(t, 'AWS::CloudWatch::Dashboard')[0]!;
    const body = JSON.stringify(dashboard.DashboardBody);

    it('is named after the stage', () => {
      expect(dashboard.DashboardName).toBe(prefix);
    });

    it('shows API traffic, errors and latency', () => {
      for (const s of ['AWS/ApiGateway', '\\"Count\\"', '\\"5xx\\"', '\\"4xx\\"', '\\"Latency\\"', 'p99']) {
        expect(body).toContain(s);
      }
    });

    it('shows per function errors, duration, throttles and cold starts', () => {
      for (const s of ['\\"Errors\\"', '\\"Duration\\"', '\\"Throttles\\"', '@initDuration'])
        expect(body).toContain(s);
      // The cold-start query reads every function's log group.
      for (const f of stateless.functions) {
        const logGroupId = stateless.getLogicalId(f.logGroup.node.defaultChild as CfnElement);
        expect(body, f.shortName).toContain(`SOURCE '",{"Ref":"${logGroupId}"}`);
      }
    });

    it("shows queue depth and age, DLQ depth, relay lag and the service's own metrics", () => {
      for (const s of [
        'ApproximateNumberOfMessagesVisible',
        'ApproximateAgeOfOldestMessage',
        'IteratorAge',
        `FROM ${METRIC_NAMESPACE}`,
        METRICS.relayLag,
        METRICS.notificationDelivered,
        METRICS.notificationDeadLettered,
      ]) {
        expect(body).toContain(s);
      }
    });
  });
}
