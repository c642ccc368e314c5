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
    functions: ['worker-internal', 'worker-external'],
    action: 'ssm:PutParameter',
    resource: 'arn:aws:ssm:*:*:parameter/*',
    reason:
      "The workers overwrite an OAuth connection's token pair when they refresh it (the oauth_refresh timer, a provider call answering 401); the drive's connection was consented moments before, so no token needs refreshing.",
  },
  {
    functions: ['worker-external'],
    action: 'ses:SendEmail',
    resource: 'arn:aws:ses:*:*:configuration-set/*',
    reason: "A tenant's e-mail provider config may name a configuration set; the drive's does not.",
  },
  {
    functions: ['api-notifications'],
    action: 'dynamodb:DeleteItem',
    resource: 'arn:aws:dynamodb:*:*:table/*',
    reason:
      "An Idempotency-Key's claim is deleted when its request fails with a 5xx or an unknown outcome (functions/http/idempotency.ts), a failing table the local runtime does not make; the group deletes nothing else on the drive's paths.",
  },
  {
    functions: ['worker-internal'],
    action: 'dynamodb:Query',
    resource: 'arn:aws:dynamodb:*:*:table/*/index/gsi2',
    reason:
      "A reconciliation run reads the tenant's invoices and payments by type (shared/domain/integrations/reconciliation.ts, document-store.ts list); its firing does not complete in the drive (tests/e2e/integration-hub.test.ts runs it, not recorded here).",
  },
];
