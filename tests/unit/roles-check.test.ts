import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQSClient } from '@aws-sdk/client-sqs';
import { afterEach, describe, expect, it } from 'vitest';
import { made } from '#functions/adapters/client-options';
import { recordAwsCalls } from '#local/call-record';
import { allowed, callOf, requestsOf, type Statement, wildcard } from '#tests/support/roles';

/**
 * The pieces of tests/e2e/roles-from-calls.test.ts on their own: the recording middleware is on
 * a client only while the local runtime's hook records (local/call-record.ts), and the evaluation
 * of IAM statements (wildcards, LeadingKeys, Deny, a transaction's items as their own actions).
 */

afterEach(() => recordAwsCalls(undefined));
const names = (c: SQSClient) => c.middlewareStack.identify().join('\n');

describe('the call recorder', () => {
  it('is not on a client at all unless calls are recorded (as in every deployed function)', () => {
    expect(names(made(new SQSClient({ region: 'us-east-1' })))).not.toContain('recordAwsCalls');
  });

  it('records a call with its queue when set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'calls-'));
    const log = join(dir, 'calls.jsonl');
    recordAwsCalls(log);
    const client = made(
      new SQSClient({
        region: 'us-east-1',
        endpoint: 'http://127.0.0.1:9',
        credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
        maxAttempts: 1,
      }),
    );
    expect(names(client)).toContain('recordAwsCalls');
    const { GetQueueAttributesCommand } = await import('@aws-sdk/client-sqs');
    await client
      .send(new GetQueueAttributesCommand({ QueueUrl: 'http://127.0.0.1:9/000000000000/internal-delivery' }))
      .catch(() => undefined);
    expect(callOf(JSON.parse(readFileSync(log, 'utf8')))).toEqual({
      fn: null,
      service: 'sqs',
      operation: 'GetQueueAttributes',
      targets: [{ queue: 'internal-delivery' }],
    });
    rmSync(dir, { recursive: true, force: true });
  });
});

const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/t';
const allow = (actions: string[], resources: string[], extra: Partial<Statement> = {}): Statement => ({
  effect: 'Allow',
  actions,
  resources,
  otherConditions: [],
  ...extra,
});
const req = (action: string, resource: string, partitions: string[] = []) => ({
  action,
  resource,
  partitions,
});

describe('the IAM evaluation', () => {
  it('matches IAM wildcards on the whole ARN, actions case-insensitively', () => {
    expect(wildcard('arn:aws:ssm:*:*:parameter/a/*', 'arn:aws:ssm:us-east-1:1:parameter/a/b/c')).toBe(true);
    expect(wildcard('arn:aws:ssm:*:*:parameter/a/*', 'arn:aws:ssm:us-east-1:1:parameter/b')).toBe(false);
    expect(wildcard('sqs:Get?ueue*', 'SQS:GetQueueUrl', true)).toBe(true);
    expect(wildcard(TABLE, `${TABLE}/index/gsi1`)).toBe(false);
  });

  it('allows only what an Allow covers and no Deny names', () => {
    const role = [
      allow(['dynamodb:Query'], [`${TABLE}/index/gsi1`]),
      allow(['sns:Publish'], ['*']),
      { ...allow(['sns:Publish'], ['arn:aws:sns:*:*:*']), effect: 'Deny' as const },
    ];
    expect(allowed(role, req('dynamodb:Query', `${TABLE}/index/gsi1`))).toBe(true);
    expect(allowed(role, req('dynamodb:Query', `${TABLE}/index/gsi2`))).toBe(false);
    expect(allowed(role, req('dynamodb:Query', TABLE))).toBe(false);
    expect(allowed(role, req('sns:Publish', '*'))).toBe(true);
    expect(allowed(role, req('sns:Publish', 'arn:aws:sns:us-east-1:1:topic'))).toBe(false);
  });

  it('holds a LeadingKeys condition to every partition the call names', () => {
    const role = [
      allow(['dynamodb:UpdateItem'], [TABLE], { leadingKeys: { patterns: ['SESSION#*'], like: true } }),
    ];
    expect(allowed(role, req('dynamodb:UpdateItem', TABLE, ['SESSION#abc']))).toBe(true);
    expect(allowed(role, req('dynamodb:UpdateItem', TABLE, ['SESSION#abc', 'USER#1']))).toBe(false);
    expect(allowed(role, req('dynamodb:UpdateItem', TABLE, []))).toBe(false);
  });

  it('reads what a DynamoDB call names: each transaction item, an index, the partition keys', () => {
    expect(
      callOf({
        fn: 'api-tasks',
        client: 'DynamoDBClient',
        command: 'TransactWriteItemsCommand',
        input: {
          TransactItems: [
            { Put: { TableName: 'local', Item: { pk: { S: 'TENANT#a' }, sk: { S: 'x' } } } },
            { Update: { TableName: 'local', Key: { pk: 'OUTBOX#1', sk: 'y' } } },
          ],
        },
      }).targets,
    ).toEqual([
      { item: 'Put', table: 'local', partitions: ['TENANT#a'] },
      { item: 'Update', table: 'local', partitions: ['OUTBOX#1'] },
    ]);
    expect(
      callOf({
        fn: null,
        client: 'DynamoDBClient',
        command: 'QueryCommand',
        input: { TableName: 'local', IndexName: 'gsi1', ExpressionAttributeValues: { ':pk': 'USER#1' } },
      }).targets,
    ).toEqual([{ table: 'local', index: 'gsi1', partitions: [] }]);
  });

  it("turns a transaction into its items' actions and a batch send into SendMessage", () => {
    const deployed = { table: 't', queuePrefix: 'stage-' };
    expect(
      requestsOf(
        {
          fn: 'x',
          service: 'dynamodb',
          operation: 'TransactWriteItems',
          targets: [
            { item: 'Put', table: 'local', partitions: ['A'] },
            { item: 'ConditionCheck', table: 'local', partitions: ['B'] },
          ],
        },
        deployed,
      ),
    ).toEqual([req('dynamodb:PutItem', TABLE, ['A']), req('dynamodb:ConditionCheckItem', TABLE, ['B'])]);
    expect(
      requestsOf(
        { fn: 'x', service: 'sqs', operation: 'SendMessageBatch', targets: [{ queue: 'q' }] },
        deployed,
      ),
    ).toEqual([req('sqs:SendMessage', 'arn:aws:sqs:us-east-1:123456789012:stage-q')]);
  });
});
