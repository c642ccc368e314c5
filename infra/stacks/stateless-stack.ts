import { CfnOutput, type Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { Construct } from 'constructs';
import { GROUPS } from '#shared/api/manifest';
import {
  type DeploymentConfig,
  type FunctionProfileName,
  SWEEPER_SETTINGS,
  TIMER_SWEEPER_SETTINGS,
} from '#infra/config';
import { DemoSite } from '#infra/constructs/demo-site';
import { Monitoring } from '#infra/constructs/monitoring';
import { apiAccessLogGroupName, ServiceApi } from '#infra/constructs/service-api';
import { ServiceFunction } from '#infra/constructs/service-function';
import { GROUP_TABLE_ACCESS } from './group-table-access';
import type { StatefulResources } from './stateful-stack';

export interface StatelessStackProps extends StackProps {
  readonly config: DeploymentConfig;
  readonly stateful: StatefulResources;
}

const pascal = (s: string) => s.replace(/(^|[-_])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * A sweeper's schedule: an EventBridge rule running `target` at its rate, with the attempts and
 * event age of its settings. Such rules have no dead-letter queue; `dropped` says why losing one
 * event is safe, as the acknowledgement of that check.
 */
function schedule(
  scope: Construct,
  id: string,
  ruleName: string,
  description: string,
  run: {
    target: ServiceFunction;
    settings: { rate: Duration; retryAttempts: number; maxEventAge: Duration };
    dropped: string;
  },
): void {
  const rule = new Rule(scope, id, {
    ruleName,
    description,
    schedule: Schedule.rate(run.settings.rate),
    targets: [
      new LambdaFunction(run.target.handle, {
        retryAttempts: run.settings.retryAttempts,
        maxEventAge: run.settings.maxEventAge,
      }),
    ],
  });
  Validations.of(rule).acknowledge({ id: 'Serverless-EventBusDLQ', reason: run.dropped });
}

/**
 * The code and everything that can be replaced at will: functions and their triggers, the HTTP
 * API (its routes and stage: infra/stacks/api-routes-stack.ts), the sweeper schedule, alarms, the
 * dashboard and the demo site's CDN.
 */
export class StatelessStack extends Stack {
  readonly functions: ServiceFunction[] = [];
  readonly groupFunctions: Readonly<Record<string, ServiceFunction>>;
  readonly authorizer: ServiceFunction;
  readonly relay: ServiceFunction;
  readonly sweeper: ServiceFunction;
  readonly timerSweeper: ServiceFunction;
  readonly internalWorker: ServiceFunction;
  readonly externalWorker: ServiceFunction;
  readonly api: ServiceApi;
  readonly demoSite: DemoSite;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const { config, stateful } = props;
    const { table, cursorSecret, internalQueue, externalQueue } = stateful;

    const fn = (name: string, entry: string, profile: FunctionProfileName, description: string) => {
      const f = new ServiceFunction(this, pascal(name), {
        config,
        name,
        entry,
        profile,
        description,
      });
      this.functions.push(f);
      return f;
    };

    // --- API route groups: one function each.
    const groups: Record<string, ServiceFunction> = {};
    for (const group of GROUPS) {
      const f = fn(`api-${group}`, `${group}/handler.ts`, 'api', `HTTP routes of the ${group} group`);
      if (!(group in GROUP_TABLE_ACCESS))
        throw new Error(
          `route group ${group} has no entry in GROUP_TABLE_ACCESS (infra/stacks/group-table-access.ts)`,
        );
      const access = GROUP_TABLE_ACCESS[group]!;
      if (access) f.bindTable(table, access);
      if (access?.read || access?.write) f.bindCursorSecret(cursorSecret);
      groups[group] = f;
    }
    this.groupFunctions = groups;
    groups.integrations!.bindConnectionSecrets(stateful.connectionSecretsKey, 'write');
    // Webhook endpoint secrets share that storage: the API writes them, only the external worker reads them.
    groups.webhooks!.bindConnectionSecrets(stateful.connectionSecretsKey, 'write');
    // The metrics route reads the depth of both queues and their DLQs (docs/api.md section 9.6).
    groups.metrics?.bindQueue(internalQueue, 'depth').bindQueue(externalQueue, 'depth');

    // --- Bearer token check. Reads the session and the user's memberships; touches last_used_at.
    this.authorizer = fn(
      'authorizer',
      'authorizer/handler.ts',
      'authorizer',
      'Lambda authorizer: bearer token check',
    )
      .bindTable(table, { read: ['get', 'gsi1'], write: ['update'] })
      .bindCursorSecret(cursorSecret);

    // --- Outbox: stream relay and the sweeper that re-publishes what the relay missed.
    this.relay = fn(
      'outbox-relay',
      'relay/handler.ts',
      'relay',
      'Relays outbox items from the table stream to SQS',
    )
      .bindTable(table, { write: ['update'] })
      .bindQueue(internalQueue, 'send')
      .bindQueue(externalQueue, 'send')
      .bindCursorSecret(cursorSecret)
      .consumeOutboxStream(table, stateful.relayFailures);
    this.sweeper = fn(
      'outbox-sweeper',
      'sweeper/handler.ts',
      'sweeper',
      'Re-publishes outbox items not yet relayed',
    )
      .bindTable(table, { read: ['gsi3'], write: ['update'] })
      .bindQueue(internalQueue, 'send')
      .bindQueue(externalQueue, 'send')
      .bindCursorSecret(cursorSecret);
    schedule(this, 'SweeperSchedule', `${config.prefix}-outbox-sweeper`, 'Runs the outbox sweeper', {
      target: this.sweeper,
      settings: SWEEPER_SETTINGS,
      dropped:
        'A dropped schedule event only skips one sweep; the sweep is idempotent and the next run minutes later covers the same pending outbox items.',
    });

    // --- Timers: the sweeper claims due timers (gsi3) and writes their firings to the outbox in
    // the claim's transaction (Delete + Put); the relay takes them to the internal worker.
    this.timerSweeper = fn(
      'timer-sweeper',
      'timer-sweeper/handler.ts',
      'timerSweeper',
      'Claims due timers and writes their firings to the outbox',
    )
      .bindTable(table, { read: ['gsi3'], claimTimers: true })
      .bindCursorSecret(cursorSecret);
    schedule(this, 'TimerSweeperSchedule', `${config.prefix}-timer-sweeper`, 'Runs the timer sweeper', {
      target: this.timerSweeper,
      settings: TIMER_SWEEPER_SETTINGS,
      dropped:
        'A dropped schedule event only delays the due timers to the next minute; the sweep claims every timer due by then.',
    });

    // --- Workers. Neither sends messages; both delay a retry by changing the visibility of the
    // message they hold (functions/workers/queue-worker.ts), so each needs its own queue's URL.
    this.internalWorker = fn(
      'worker-internal',
      'workers/internal.ts',
      'internalWorker',
      'Internal delivery worker',
    )
      // Timers' firings, workflow runs, escalations, digests, the hub's schedules and reconciliation
      // (its documents by type, gsi2), OAuth token refreshes.
      .bindTable(table, {
        read: ['get', 'query', 'gsi1', 'gsi2'],
        write: ['put', 'update', 'delete', 'conditionCheck'],
      })
      .bindQueue(internalQueue, 'changeVisibility')
      // Reconciliation reads and the oauth_refresh timer refresh OAuth 2 token pairs.
      .bindConnectionSecrets(stateful.connectionSecretsKey, 'rotate')
      .bindCursorSecret(cursorSecret)
      .consumeQueue(internalQueue);
    this.externalWorker = fn(
      'worker-external',
      'workers/external.ts',
      'externalWorker',
      'External delivery worker',
    )
      // Deliveries, exports and their bookings, webhook messages; all by key or partition.
      .bindTable(table, { read: ['get', 'query'], write: ['put', 'update', 'delete'] })
      .bindQueue(externalQueue, 'changeVisibility')
      .bindConnectionSecrets(stateful.connectionSecretsKey, 'rotate')
      .bindMessagingProviders()
      .bindCursorSecret(cursorSecret)
      .consumeQueue(externalQueue);

    // --- Demo site and API (the API allows the site's origin only).
    this.demoSite = new DemoSite(this, 'DemoSite', { config });
    // The API's routes, authorizer and stage are the api-routes stack's (infra/stacks/api-routes-stack.ts).
    this.api = new ServiceApi(this, 'Api', { config, allowedOrigin: this.demoSite.url });
    this.demoSite.publish(this.api.url);

    // --- OAuth 2 apps. Authorize builds the consent URL, the callback exchanges the code (reading
    // the app's client secret, writing the token pair), the workers refresh token pairs. No
    // gateway setting: each provider's documented URLs are in its adapter declaration.
    const redirectUrl = config.oauth.redirectUrl ?? `${this.api.url}oauth/callback`;
    groups.integrations!.bindOAuthApps(config.oauth, redirectUrl, `${this.demoSite.url}/console/`);
    groups.oauth
      ?.bindConnectionSecrets(stateful.connectionSecretsKey, 'rotate')
      .bindOAuthApps(config.oauth, redirectUrl);
    this.internalWorker.bindOAuthApps(config.oauth);
    this.externalWorker.bindOAuthApps(config.oauth);

    // --- Alarms and dashboard.
    this.monitoring = new Monitoring(this, 'Monitoring', {
      config,
      topics: stateful.alarmTopics,
      api: this.api.httpApi,
      apiAccessLogGroupName: apiAccessLogGroupName(config),
      functions: this.functions,
      relay: this.relay,
      queues: [internalQueue, externalQueue],
      relayFailures: stateful.relayFailures,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'DemoSiteUrl', {
      value: this.demoSite.url,
      description: 'The demo site (CloudFront)',
    });
    new CfnOutput(this, 'DemoDistributionId', {
      value: this.demoSite.distribution.distributionId,
      description: 'Pass as -c demoDistributionId=<id> to narrow the demo bucket policy to this distribution',
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${this.region}.console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards/dashboard/${config.prefix}`,
      description: 'CloudWatch dashboard',
    });
    new CfnOutput(this, 'AlarmsUrl', {
      value: `https://${this.region}.console.aws.amazon.com/cloudwatch/home?region=${this.region}#alarmsV2:?search=${config.prefix}`,
      description: 'CloudWatch alarms of this stage',
    });
  }
}
