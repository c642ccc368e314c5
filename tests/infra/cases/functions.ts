import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ESBUILD_OPTIONS } from '#infra/bundling';
import { FUNCTION_PROFILES, QUEUE_SETTINGS, RELAY_SETTINGS, SWEEPER_SETTINGS } from '#infra/config';
import { CDK_BUNDLING } from '#infra/constructs/service-function';
import { GROUP_TABLE_ACCESS } from '#infra/stacks/group-table-access';
import { GROUPS, OPERATIONS, type Operation } from '#shared/api/manifest';
import { METRIC_NAMESPACE, SERVICE } from '#shared/kernel/names';
import { healthProbe } from '#shared/table/entities/health-probe';
import { outbox } from '#shared/table/entities/outbox';
import { type Cfn, resourcesOf, type Synthesized, TEST_STAGE } from '#tests/infra/synth';

/** The functions: one construct, least-privilege grants, event sources and the sweeper schedule. */
export function functionCases(s: Synthesized): void {
  const { statelessTemplate: t, statefulTemplate, stateless } = s;
  const prefix = `${TEST_STAGE}-ops-platform`;

  /** Stateful logical id behind a cross-stack reference in the stateless template. */
  const statefulIdOf = (value: unknown): string => {
    const outputName = JSON.stringify(value).match(/"OutputName":"([^"]+)"/)?.[1];
    const output = outputName ? statefulTemplate.toJSON().Outputs[outputName] : undefined;
    const id = JSON.stringify(output?.Value ?? {}).match(/"(?:Ref|Fn::GetAtt)":\[?"([A-Za-z0-9]+)"/)?.[1];
    if (!id) throw new Error(`not a cross-stack reference: ${JSON.stringify(value)}`);
    return id;
  };
  const statefulQueueName = (value: unknown) =>
    statefulTemplate.toJSON().Resources[statefulIdOf(value)].Properties.QueueName;

  const functions = resourcesOf(t, 'AWS::Lambda::Function').filter(([, p]) =>
    String(p.FunctionName ?? '').startsWith(prefix),
  );
  const fnByName = (short: string) => {
    const found = functions.find(([, p]) => p.FunctionName === `${prefix}-${short}`);
    if (!found) throw new Error(`function ${short} not found`);
    return found;
  };

  /** Every (action, resource) the function's role is allowed, resources as readable strings. */
  const grantsOf = (short: string): { action: string; resource: string; condition?: unknown }[] => {
    const [, fn] = fnByName(short);
    const roleId = fn.Role['Fn::GetAtt'][0];
    const policies = resourcesOf(t, 'AWS::IAM::Policy').filter(([, p]) =>
      p.Roles.some((r: Cfn) => r.Ref === roleId),
    );
    const readable = (r: unknown): string => {
      const s = JSON.stringify(r);
      if (s.includes('Fn::GetStackOutput')) {
        const id = statefulIdOf(r);
        const suffix = s.match(/"(\/index\/[a-z0-9]+)"/)?.[1] ?? '';
        const attr = s.includes('StreamArn') ? ':stream' : '';
        return `stateful:${id}${attr}${suffix}`;
      }
      return s;
    };
    return policies.flatMap(([, p]) =>
      (p.PolicyDocument.Statement as Cfn[]).flatMap((st) =>
        [st.Action]
          .flat()
          .flatMap((action: string) =>
            [st.Resource].flat().map((r) => ({ action, resource: readable(r), condition: st.Condition })),
          ),
      ),
    );
  };
  const actionsOf = (short: string, service: string) =>
    [
      ...new Set(
        grantsOf(short)
          .filter((g) => g.action.startsWith(`${service}:`))
          .map((g) => g.action),
      ),
    ].sort();

  const tableId = resourcesOf(statefulTemplate, 'AWS::DynamoDB::Table')[0]![0];
  const allFunctions = [
    ...GROUPS.map((g) => `api-${g}`),
    'authorizer',
    'outbox-relay',
    'outbox-sweeper',
    'timer-sweeper',
    'worker-internal',
    'worker-external',
  ];

  describe('a function of this service (one construct)', () => {
    it('exists once per route group plus authorizer, relay, the two sweepers and the two workers', () => {
      expect(functions.map(([, p]) => p.FunctionName).sort()).toEqual(
        allFunctions.map((n) => `${prefix}-${n}`).sort(),
      );
    });

    it.each(allFunctions)(
      '%s: nodejs24.x on arm64, traced, with memory and timeout from FUNCTION_PROFILES',
      (name) => {
        const [, p] = fnByName(name);
        const f = stateless.functions.find((x) => x.shortName === name)!;
        expect(p.Runtime).toBe('nodejs24.x');
        expect(p.Architectures).toEqual(['arm64']);
        expect(p.TracingConfig).toEqual({ Mode: 'Active' });
        expect(p.MemorySize).toBe(f.profile.memorySize);
        expect(p.Timeout).toBe(f.profile.timeout.toSeconds());
        expect(Object.values(FUNCTION_PROFILES)).toContain(f.profile);
        expect(p.Handler).toBe('index.handler');
      },
    );

    it.each(allFunctions)(
      '%s: its own log group with a retention, and a role that may write only there',
      (name) => {
        const [, p] = fnByName(name);
        const logGroupId = p.LoggingConfig.LogGroup.Ref;
        const logGroup = t.toJSON().Resources[logGroupId];
        expect(logGroup.Properties.LogGroupName).toBe(`/aws/lambda/${prefix}-${name}`);
        expect(logGroup.Properties.RetentionInDays).toBeGreaterThan(0);
        const logs = grantsOf(name).filter((g) => g.action.startsWith('logs:'));
        expect(logs.map((g) => g.action).sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
        for (const g of logs) expect(g.resource).toBe(JSON.stringify({ 'Fn::GetAtt': [logGroupId, 'Arn'] }));
        const role = t.toJSON().Resources[p.Role['Fn::GetAtt'][0]];
        expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      },
    );

    it.each(allFunctions)('%s: Powertools and stage environment, never the loopback switch', (name) => {
      const env = fnByName(name)[1].Environment.Variables;
      expect(env).toMatchObject({
        OPS_STAGE: TEST_STAGE,
        POWERTOOLS_SERVICE_NAME: SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: METRIC_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
      expect(env.OPS_WEBHOOK_ALLOW_LOOPBACK).toBeUndefined();
    });

    it('bundles with the shared esbuild options: CJS, minified, node24, everything bundled, no source maps', () => {
      expect(ESBUILD_OPTIONS).toMatchObject({
        bundle: true,
        format: 'cjs',
        minify: true,
        target: 'node24',
        platform: 'node',
        sourcemap: false,
        external: [],
      });
      expect(ESBUILD_OPTIONS.mainFields).toEqual(['module', 'main']);
      expect(CDK_BUNDLING).toMatchObject({
        format: 'cjs',
        minify: true,
        target: 'node24',
        sourceMap: false,
        mainFields: ['module', 'main'],
        externalModules: [],
        bundleAwsSDK: true,
      });
    });

    it('passes the cursor secret as a dynamic reference to every function that uses the table, but public', () => {
      for (const [, p] of functions) {
        const env = p.Environment.Variables;
        if (!env.TABLE_NAME) continue;
        if (p.FunctionName === `${prefix}-api-public`) {
          expect(env.OPS_CURSOR_SECRET).toBeUndefined();
          continue;
        }
        expect(JSON.stringify(env.OPS_CURSOR_SECRET)).toMatch(
          /\{\{resolve:secretsmanager:.*:SecretString:::\}\}/,
        );
      }
    });
  });

  describe('least-privilege grants', () => {
    const table = `stateful:${tableId}`;

    it('route groups get the table access GROUP_TABLE_ACCESS names', () => {
      for (const group of GROUPS) {
        expect(group in GROUP_TABLE_ACCESS, `${group} declares its table access`).toBe(true);
        const access = GROUP_TABLE_ACCESS[group];
        const dynamo = actionsOf(`api-${group}`, 'dynamodb');
        if (!access) {
          expect(dynamo, group).toEqual([]);
          expect(fnByName(`api-${group}`)[1].Environment.Variables.TABLE_NAME, group).toBeUndefined();
          continue;
        }
        if (access.write?.includes('put'))
          expect(dynamo, group).toEqual(expect.arrayContaining(['dynamodb:PutItem']));
        else expect(dynamo, group).not.toContain('dynamodb:PutItem');
        // Only metrics reads queue attributes (its own test below).
        if (group !== 'metrics') expect(actionsOf(`api-${group}`, 'sqs'), group).toEqual([]);
      }
    });

    it("metrics: reads only (no table write but the token check's session touch), GetQueueAttributes on both queues and their DLQs, nothing else of SQS", () => {
      expect(actionsOf('api-metrics', 'dynamodb')).toEqual([
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ]);
      expect(grantsOf('api-metrics').filter((g) => g.action === 'dynamodb:UpdateItem')).toEqual([
        {
          action: 'dynamodb:UpdateItem',
          resource: table,
          condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] } },
        },
      ]);
      expect(actionsOf('api-metrics', 'sqs')).toEqual(['sqs:GetQueueAttributes']);
      const queues = grantsOf('api-metrics')
        .filter((g) => g.action === 'sqs:GetQueueAttributes')
        .map(
          (g) =>
            statefulTemplate.toJSON().Resources[g.resource.replace('stateful:', '')].Properties.QueueName,
        )
        .sort();
      expect(queues).toEqual(
        ['external-delivery', 'external-delivery-dlq', 'internal-delivery', 'internal-delivery-dlq'].map(
          (q) => `${prefix}-${q}`,
        ),
      );
      expect(Object.keys(fnByName('api-metrics')[1].Environment.Variables)).toEqual(
        expect.arrayContaining([
          'INTERNAL_QUEUE_URL',
          'INTERNAL_DLQ_URL',
          'EXTERNAL_QUEUE_URL',
          'EXTERNAL_DLQ_URL',
        ]),
      );
    });

    it('every group with bearer routes may run the token check itself (authorizer unavailable)', () => {
      const bearerGroups = [
        ...new Set(
          (Object.values(OPERATIONS) as Operation[]).filter((o) => o.auth === 'bearer').map((o) => o.group),
        ),
      ];
      expect(bearerGroups.length).toBeGreaterThanOrEqual(5);
      for (const group of bearerGroups) {
        const g = grantsOf(`api-${group}`);
        const unconditioned = (action: string, resource: string) =>
          g.some((x) => x.action === action && x.resource === resource && x.condition === undefined);
        // The session (GetItem), the user and their memberships (Query on gsi1), last_used_at
        // (UpdateItem), but in previews, which writes nothing and skips the touch.
        expect(unconditioned('dynamodb:GetItem', table), group).toBe(true);
        expect(unconditioned('dynamodb:Query', `${table}/index/gsi1`), group).toBe(true);
        if (group === 'previews') continue;
        expect(
          g.some(
            (x) =>
              x.action === 'dynamodb:UpdateItem' &&
              x.resource === table &&
              (x.condition === undefined ||
                JSON.stringify(x.condition) ===
                  JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] } })),
          ),
          group,
        ).toBe(true);
      }
    });

    it('public may GetItem the health probe key and nothing else of the table', () => {
      const g = grantsOf('api-public').filter((x) => x.action.startsWith('dynamodb:'));
      expect(g).toEqual([
        {
          action: 'dynamodb:GetItem',
          resource: table,
          condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [healthProbe.key({}).pk] } },
        },
      ]);
      expect(healthProbe.key({}).pk).toBe('HEALTH');
      expect(fnByName('api-public')[1].Environment.Variables.TABLE_NAME).toBeDefined();
      expect(actionsOf('api-public', 'sqs')).toEqual([]);
    });

    it("audit reads only, but for the token check's touch of session items; the other tenant groups read and write", () => {
      expect(actionsOf('api-audit', 'dynamodb')).toEqual([
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ]);
      expect(grantsOf('api-audit').filter((g) => g.action === 'dynamodb:UpdateItem')).toEqual([
        {
          action: 'dynamodb:UpdateItem',
          resource: table,
          condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SESSION#*'] } },
        },
      ]);
      // Each group holds exactly the actions its declaration names (each function's own list,
      // narrowed to its calls: tests/e2e/roles-from-calls.test.ts).
      const ACTION: Record<string, string> = {
        get: 'dynamodb:GetItem',
        query: 'dynamodb:Query',
        put: 'dynamodb:PutItem',
        update: 'dynamodb:UpdateItem',
        delete: 'dynamodb:DeleteItem',
        conditionCheck: 'dynamodb:ConditionCheckItem',
      };
      for (const [g, access] of Object.entries(GROUP_TABLE_ACCESS)) {
        if (!access || access.healthProbe) continue;
        const named = [
          ...(access.read ?? []).map((r) => ACTION[r] ?? 'dynamodb:Query'),
          ...(access.write ?? []).map((w) => ACTION[w]!),
          ...(access.batchGet ? ['dynamodb:BatchGetItem'] : []),
          ...(access.touchSessions ? ['dynamodb:UpdateItem'] : []),
        ];
        expect(actionsOf(`api-${g}`, 'dynamodb'), g).toEqual([...new Set(named)].sort());
        const indexes = (access.read ?? []).filter((r) => r.startsWith('gsi'));
        expect(
          grantsOf(`api-${g}`)
            .filter((x) => x.action === 'dynamodb:Query' && x.resource.includes('/index/'))
            .map((x) => x.resource.split('/index/')[1])
            .sort(),
          g,
        ).toEqual(indexes);
      }
    });

    it('previews may only read: GetItem and Query on the table, Query on gsi1; no write, queue, SSM or KMS', () => {
      const g = grantsOf('api-previews').filter(
        (x) => !x.action.startsWith('logs:') && !x.action.startsWith('xray:'),
      );
      expect(
        g
          .map(({ action, resource, condition }) => ({ action, resource, condition }))
          .sort((a, b) => `${a.action}${a.resource}`.localeCompare(`${b.action}${b.resource}`)),
      ).toEqual([
        { action: 'dynamodb:GetItem', resource: table, condition: undefined },
        { action: 'dynamodb:Query', resource: table, condition: undefined },
        { action: 'dynamodb:Query', resource: `${table}/index/gsi1`, condition: undefined },
      ]);
      expect(actionsOf('api-previews', 'sqs')).toEqual([]);
      expect(actionsOf('api-previews', 'ssm')).toEqual([]);
      expect(actionsOf('api-previews', 'kms')).toEqual([]);
    });

    it('never grants a table action on a wildcard index or table', () => {
      for (const name of allFunctions) {
        // ListStreams is the one stream action without resource-level permissions.
        for (const g of grantsOf(name).filter(
          (x) => x.action.startsWith('dynamodb:') && x.action !== 'dynamodb:ListStreams',
        )) {
          expect(g.resource, `${name} ${g.action}`).not.toContain('*');
        }
      }
    });

    it('authorizer: GetItem of the session, Query on gsi1 (the user and memberships), UpdateItem on the table, nothing else', () => {
      const g = grantsOf('authorizer').filter((x) => x.action.startsWith('dynamodb:'));
      expect(actionsOf('authorizer', 'dynamodb')).toEqual([
        'dynamodb:GetItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
      ]);
      expect(g.filter((x) => x.action === 'dynamodb:UpdateItem').map((x) => x.resource)).toEqual([table]);
      expect(
        g
          .filter((x) => x.action === 'dynamodb:Query')
          .map((x) => x.resource)
          .sort(),
      ).toEqual([`${table}/index/gsi1`]);
      expect(g.filter((x) => x.action === 'dynamodb:GetItem').map((x) => x.resource)).toEqual([table]);
      expect(actionsOf('authorizer', 'sqs')).toEqual([]);
    });

    it('relay: reads the stream, sends to both queues, UpdateItem on the table only', () => {
      expect(actionsOf('outbox-relay', 'dynamodb')).toEqual([
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
        'dynamodb:UpdateItem',
      ]);
      const g = grantsOf('outbox-relay');
      expect(g.filter((x) => x.action === 'dynamodb:UpdateItem').map((x) => x.resource)).toEqual([table]);
      expect(g.filter((x) => x.action === 'dynamodb:GetRecords').map((x) => x.resource)).toEqual([
        `${table}:stream`,
      ]);
      const sends = g.filter((x) => x.action === 'sqs:SendMessage').map((x) => x.resource);
      const queueNames = sends.map(
        (r) => statefulTemplate.toJSON().Resources[r.replace('stateful:', '')].Properties.QueueName,
      );
      expect(queueNames.sort()).toEqual(
        [
          `${prefix}-external-delivery`,
          `${prefix}-internal-delivery`,
          `${prefix}-outbox-relay-failures`,
        ].sort(),
      );
      // GetQueueAttributes/GetQueueUrl come with the on-failure destination, on that queue only.
      expect(actionsOf('outbox-relay', 'sqs')).toEqual([
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
      ]);
    });

    it('sweeper: Query on gsi3 only, UpdateItem, SendMessage to both queues', () => {
      const g = grantsOf('outbox-sweeper');
      expect(actionsOf('outbox-sweeper', 'dynamodb')).toEqual(['dynamodb:Query', 'dynamodb:UpdateItem']);
      expect(g.filter((x) => x.action === 'dynamodb:Query').map((x) => x.resource)).toEqual([
        `${table}/index/gsi3`,
      ]);
      expect(actionsOf('outbox-sweeper', 'sqs')).toEqual(['sqs:SendMessage']);
      expect(g.filter((x) => x.action === 'sqs:SendMessage')).toHaveLength(2);
    });

    it('timer sweeper: Query on gsi3 only, DeleteItem on timer partitions, PutItem on outbox partitions, no queue', () => {
      const g = grantsOf('timer-sweeper');
      expect(actionsOf('timer-sweeper', 'dynamodb')).toEqual([
        'dynamodb:DeleteItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
      ]);
      expect(g.filter((x) => x.action === 'dynamodb:Query').map((x) => x.resource)).toEqual([
        `${table}/index/gsi3`,
      ]);
      const leading = (action: string) =>
        g.filter((x) => x.action === action).map((x) => JSON.stringify(x.condition));
      expect(leading('dynamodb:DeleteItem')).toEqual([
        JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#*#TIMER'] } }),
      ]);
      expect(leading('dynamodb:PutItem')).toEqual([
        JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['OUTBOX#*'] } }),
      ]);
      expect(actionsOf('timer-sweeper', 'sqs')).toEqual([]);
    });

    it('runs the timer sweeper every minute, without retries (the next minute covers a dropped run)', () => {
      const [id] = fnByName('timer-sweeper');
      t.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: 'rate(1 minute)',
        State: 'ENABLED',
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [id, 'Arn'] },
            RetryPolicy: { MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: 60 },
          }),
        ],
      });
    });

    // Both workers delay retries with ChangeMessageVisibility on the message they hold
    // (functions/workers/queue-worker.ts) and send nothing.
    for (const [worker, queue, urlVariable] of [
      ['worker-internal', 'internal-delivery', 'INTERNAL_QUEUE_URL'],
      ['worker-external', 'external-delivery', 'EXTERNAL_QUEUE_URL'],
    ] as const) {
      it(`${worker}: table read/write, consumes and changes visibility on its own queue only, sends nothing`, () => {
        expect(actionsOf(worker, 'sqs')).toEqual([
          'sqs:ChangeMessageVisibility',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
          'sqs:ReceiveMessage',
        ]);
        const g = grantsOf(worker).filter((x) => x.action.startsWith('sqs:'));
        for (const x of g) {
          const queueId = x.resource.replace('stateful:', '');
          expect(statefulTemplate.toJSON().Resources[queueId].Properties.QueueName, x.action).toBe(
            `${prefix}-${queue}`,
          );
        }
        expect(actionsOf(worker, 'dynamodb')).toContain('dynamodb:PutItem');
        const [, fn] = fnByName(worker);
        expect(statefulQueueName(fn.Environment.Variables[urlVariable])).toBe(`${prefix}-${queue}`);
      });
    }

    // Connection secrets (and OAuth 2 token pairs): tests/infra/cases/oauth.ts.

    it('the accounting export: the API function writes the table only (no queue, no secret); the external worker sends nothing to SQS but changes visibility', () => {
      for (const service of ['sqs', 'ssm', 'kms', 'ses', 'sns'])
        expect(actionsOf('api-accounting', service), service).toEqual([]);
      expect(actionsOf('worker-external', 'sqs')).not.toContain('sqs:SendMessage');
      expect(actionsOf('worker-external', 'sqs')).toContain('sqs:ChangeMessageVisibility');
    });

    it('no function can read the cursor secret at run time (it arrives by dynamic reference)', () => {
      for (const name of allFunctions) expect(actionsOf(name, 'secretsmanager'), name).toEqual([]);
    });
  });

  describe('event sources', () => {
    const mappings = resourcesOf(t, 'AWS::Lambda::EventSourceMapping');
    const mappingOf = (short: string) => {
      const [id] = fnByName(short);
      return mappings.filter(([, p]) => p.FunctionName.Ref === id).map(([, p]) => p);
    };

    it('relay: the table stream, INSERTs of outbox items only, with bounded, partial-batch retries and an SQS on-failure destination', () => {
      const [m, ...rest] = mappingOf('outbox-relay');
      expect(rest).toHaveLength(0);
      if (!m) throw new Error('no relay mapping');
      expect(JSON.stringify(m.EventSourceArn)).toContain('StreamArn');
      expect(m).toMatchObject({
        StartingPosition: 'TRIM_HORIZON',
        BatchSize: RELAY_SETTINGS.batchSize,
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: RELAY_SETTINGS.retryAttempts,
        MaximumRecordAgeInSeconds: RELAY_SETTINGS.maxRecordAge.toSeconds(),
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
      expect(m.MaximumRetryAttempts).toBeGreaterThan(0);
      expect(m.MaximumRetryAttempts).toBeLessThanOrEqual(10);
      expect(statefulQueueName(m.DestinationConfig.OnFailure.Destination)).toBe(
        `${prefix}-outbox-relay-failures`,
      );
      expect(m.FilterCriteria.Filters.map((f: Cfn) => JSON.parse(f.Pattern))).toEqual([
        { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: [outbox.entity] } } } },
      ]);
    });

    for (const [worker, queue] of [
      ['worker-internal', 'internal-delivery'],
      ['worker-external', 'external-delivery'],
    ] as const) {
      it(`${worker}: its queue, partial batch responses, bounded concurrency, visibility >= 6x its timeout`, () => {
        const [m, ...rest] = mappingOf(worker);
        expect(rest).toHaveLength(0);
        if (!m) throw new Error(`no ${worker} mapping`);
        expect(statefulQueueName(m.EventSourceArn)).toBe(`${prefix}-${queue}`);
        expect(m.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
        expect(m.ScalingConfig.MaximumConcurrency).toBe(QUEUE_SETTINGS.maxConcurrency);
        expect(m.ScalingConfig.MaximumConcurrency).toBeGreaterThanOrEqual(2);
        const sourceQueue = statefulTemplate.toJSON().Resources[statefulIdOf(m.EventSourceArn)].Properties;
        expect(sourceQueue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * fnByName(worker)[1].Timeout);
      });
    }

    it('runs the sweeper on a schedule, with bounded retries', () => {
      const [id] = fnByName('outbox-sweeper');
      t.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: `rate(${SWEEPER_SETTINGS.rate.toMinutes()} minutes)`,
        State: 'ENABLED',
        Targets: [
          Match.objectLike({
            Arn: { 'Fn::GetAtt': [id, 'Arn'] },
            RetryPolicy: {
              MaximumRetryAttempts: SWEEPER_SETTINGS.retryAttempts,
              MaximumEventAgeInSeconds: 240,
            },
          }),
        ],
      });
    });
  });
}
