/**
 * Grants that no recorded call uses, each with why it stays (docs/infrastructure.md, "Roles
 * checked from the calls"). tests/e2e/roles-from-calls.test.ts fails on a function's allowed
 * action that its calls never use unless an entry here matches it, and on an entry that matches
 * no grant any more (a stale reason is a defect too).
 *
 * `functions` names deployed functions by their short name (`api-tasks`), or `*` for all;
 * `action` and `resource` are IAM patterns (`*`, `?`) over the action and the resolved ARN (account
 * 123456789012, region us-east-1, stage `test`).
 */
export interface RoleAcknowledgement {
  functions: '*' | readonly string[];
  action: string;
  resource: string;
  reason: string;
}

/** What the Lambda service does with a function's role, never the function's own code. */
const LAMBDA_SERVICE = 'The Lambda service makes this call with the function role';

/**
 * The table grants the API route groups and the workers share (`READ_WRITE`, `read: 'all'` in
 * infra/stacks/stateless-stack.ts; functions/adapters/... make the calls): each function's calls
 * in the drive of tests/e2e/roles-from-calls.test.ts use only part of them. Some are needed on
 * paths the drive does not reach (a ConditionCheck item of a held notification or a claimed
 * task, an index read of a filter no sample request sets); others no code of that function
 * makes. Narrowing them per function, and driving those paths, is open work; until then each is
 * listed here by name, so that a new grant still fails the test.
 */
const BROAD_TABLE_GRANT =
  'Shared table grant of the route groups and workers (stateless-stack.ts READ_WRITE, read: all), wider than the drive reaches; to be narrowed per function';

export const ROLE_ACKNOWLEDGEMENTS: readonly RoleAcknowledgement[] = [
  {
    functions: '*',
    action: 'logs:*',
    resource: 'arn:aws:logs:*:*:log-group:/aws/lambda/*',
    reason: `${LAMBDA_SERVICE}: it writes the function's log group (CreateLogStream, PutLogEvents).`,
  },
  {
    functions: '*',
    action: 'xray:Put*',
    resource: '*',
    reason: `${LAMBDA_SERVICE}: active tracing sends the invocation's segments (PutTraceSegments, PutTelemetryRecords).`,
  },
  {
    functions: ['worker-internal', 'worker-external'],
    action: 'sqs:*',
    resource: 'arn:aws:sqs:*:*:*-delivery',
    reason: `${LAMBDA_SERVICE}: the SQS event source mapping receives, deletes and returns the messages (ReceiveMessage, DeleteMessage, ChangeMessageVisibility, GetQueueAttributes, GetQueueUrl); locally local/queues.ts does it in-process. ChangeMessageVisibility is the workers' own retry delay too, recorded when a delivery is retried.`,
  },
  {
    functions: ['outbox-relay'],
    action: 'dynamodb:*Stream*',
    resource: '*',
    reason: `${LAMBDA_SERVICE}: the DynamoDB stream event source mapping lists and describes the table's stream (ListStreams, DescribeStream); locally local/stream-poller.ts reads the stream.`,
  },
  {
    functions: ['outbox-relay'],
    action: 'dynamodb:Get*',
    resource: 'arn:aws:dynamodb:*:*:table/*/stream/*',
    reason: `${LAMBDA_SERVICE}: the stream event source mapping reads the records (GetShardIterator, GetRecords).`,
  },
  {
    functions: ['outbox-relay'],
    action: 'sqs:*',
    resource: 'arn:aws:sqs:*:*:*-outbox-relay-failures',
    reason: `${LAMBDA_SERVICE}: the stream mapping's on-failure destination receives the records that exhaust their retries; no local engine.`,
  },
  {
    functions: '*',
    action: 'kms:*',
    resource: 'arn:aws:kms:*:*:key/*',
    reason:
      'SSM calls KMS on the function behalf for a SecureString (the grant holds only with kms:ViaService ssm); the function makes no KMS call of its own.',
  },
  {
    functions: ['outbox-sweeper'],
    action: '*',
    resource: '*',
    reason:
      'The sweeper re-publishes only outbox items the relay missed, and the local relay misses none: its UpdateItem and SendMessage run in tests/connected/relay.test.ts (not recorded here).',
  },
  {
    functions: ['api-integrations'],
    action: 'ssm:DeleteParameter',
    resource: 'arn:aws:ssm:*:*:parameter/*',
    reason:
      'Removing a connection deletes its secret; the drive (one pass of sample requests) removes no connection that has one.',
  },
  {
    functions: ['api-oauth', 'worker-internal', 'worker-external'],
    action: 'ssm:*Parameter',
    resource: 'arn:aws:ssm:*:*:parameter/*',
    reason:
      "The OAuth callback and the workers read and rotate an OAuth connection's token pair (rotate access); the drive completes no OAuth consent and refreshes no token.",
  },
  {
    functions: ['worker-external'],
    action: 'ses:SendEmail',
    resource: 'arn:aws:ses:*:*:configuration-set/*',
    reason: "A tenant's e-mail provider config may name a configuration set; the drive's does not.",
  },
  {
    functions: ['timer-sweeper'],
    action: 'dynamodb:*Item',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason:
      "The timer sweeper's claim (DeleteItem of a due timer, PutItem of its outbox firing) runs only for a due timer; the drive moves no clock. tests/connected/timers.test.ts runs it.",
  },
  {
    functions: [
      'api-accounting',
      'api-auth',
      'api-documents',
      'api-escalation',
      'api-exceptions',
      'api-inbox',
      'api-integrations',
      'api-notifications',
      'api-oauth',
      'api-review',
      'api-tasks',
      'api-tenants',
      'api-webhooks',
      'api-workflows',
      'worker-external',
      'worker-internal',
    ],
    action: 'dynamodb:ConditionCheckItem',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: [
      'api-accounting',
      'api-auth',
      'api-exceptions',
      'api-inbox',
      'api-integrations',
      'api-notifications',
      'api-oauth',
      'api-review',
      'api-tenants',
      'worker-external',
      'worker-internal',
    ],
    action: 'dynamodb:DeleteItem',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: ['api-auth', 'api-metrics'],
    action: 'dynamodb:GetItem',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: ['api-inbox', 'api-oauth', 'api-review'],
    action: 'dynamodb:PutItem',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: [
      'api-accounting',
      'api-audit',
      'api-documents',
      'api-escalation',
      'api-exceptions',
      'api-inbox',
      'api-integrations',
      'api-metrics',
      'api-notifications',
      'api-review',
      'api-tasks',
      'api-workflows',
      'worker-internal',
    ],
    action: 'dynamodb:UpdateItem',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: ['api-auth', 'api-metrics', 'api-oauth', 'authorizer'],
    action: 'dynamodb:Query',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: [
      'api-accounting',
      'api-documents',
      'api-escalation',
      'api-exceptions',
      'api-integrations',
      'api-metrics',
      'api-notifications',
      'api-oauth',
      'api-previews',
      'api-review',
      'api-tasks',
      'api-workflows',
      'worker-external',
    ],
    action: 'dynamodb:Query',
    resource: 'arn:aws:dynamodb:*:*:table/*/index/gsi1',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: [
      'api-accounting',
      'api-audit',
      'api-auth',
      'api-documents',
      'api-escalation',
      'api-exceptions',
      'api-inbox',
      'api-integrations',
      'api-metrics',
      'api-notifications',
      'api-oauth',
      'api-review',
      'api-tasks',
      'api-workflows',
      'authorizer',
      'worker-external',
      'worker-internal',
    ],
    action: 'dynamodb:Query',
    resource: 'arn:aws:dynamodb:*:*:table/*/index/gsi2',
    reason: BROAD_TABLE_GRANT,
  },
  {
    functions: [
      'api-accounting',
      'api-audit',
      'api-auth',
      'api-documents',
      'api-escalation',
      'api-exceptions',
      'api-integrations',
      'api-notifications',
      'api-oauth',
      'api-review',
      'api-tasks',
      'api-tenants',
      'api-webhooks',
      'api-workflows',
      'authorizer',
      'worker-external',
      'worker-internal',
    ],
    action: 'dynamodb:Query',
    resource: 'arn:aws:dynamodb:*:*:table/*/index/gsi3',
    reason: BROAD_TABLE_GRANT,
  },
];
