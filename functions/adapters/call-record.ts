import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync } from 'node:fs';
import { TABLE } from '#shared/table/table';
import { awsCallLog } from '#functions/config';

/**
 * Test-only: every AWS call a function makes, written as one JSON line to the file that
 * `OPS_AWS_CALL_LOG` names, so that tests/e2e/roles-from-calls.test.ts can check each call
 * against that function's role in the synthesized template (docs/infrastructure.md, "Roles
 * checked from the calls"). Unset in every deployed function: the middleware is then never
 * added, so a call pays nothing for it.
 *
 * A call is attributed to the deployed function whose handler runs it (`asFunction`, which the
 * local runtime wraps around each handler and worker when the log is on).
 */

export interface AwsCall {
  /** The deployed function's short name (`api-tasks`, `outbox-relay`), or null outside any handler. */
  fn: string | null;
  /** `dynamodb`, `sqs`, `ssm`, `ses`, `sns`. */
  service: string;
  /** The API operation (`TransactWriteItems`, `SendMessageBatch`). */
  operation: string;
  /** What the call names, one entry per item a transaction or batch carries. */
  targets: CallTarget[];
}

export interface CallTarget {
  /** The item's own operation in a transaction or batch (`Put`, `Update`, `PutRequest`...). */
  item?: string;
  table?: string;
  index?: string;
  /** The partition key values the call reads or writes (for `dynamodb:LeadingKeys`). */
  partitions?: string[];
  /** A queue's name (the last part of its URL). */
  queue?: string;
  parameter?: string;
  /** SES: the sender's identity (address and domain) and the configuration set. */
  identities?: string[];
  configurationSet?: string;
  topic?: string;
}

const running = new AsyncLocalStorage<string>();

/** Runs `work` as the deployed function `name`: the calls it makes are that function's. */
export const asFunction = <T>(name: string, work: () => T): T =>
  awsCallLog() ? running.run(name, work) : work();

type Input = Record<string, unknown>;
type Key = Record<string, unknown> | undefined;

/** A key attribute's value, marshalled (`{ S: 'x' }`) or not. */
const valueOf = (v: unknown): string | undefined =>
  typeof v === 'string'
    ? v
    : typeof (v as { S?: unknown })?.S === 'string'
      ? (v as { S: string }).S
      : undefined;
const partitionOf = (key: Key): string[] => {
  const pk = valueOf(key?.[TABLE.partitionKey]);
  return pk === undefined ? [] : [pk];
};

function dynamoTargets(operation: string, input: Input): CallTarget[] {
  const table = input.TableName as string | undefined;
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems')
    return ((input.TransactItems ?? []) as Record<string, Input>[]).flatMap((entry) =>
      Object.entries(entry).map(([item, body]) => ({
        item,
        table: body.TableName as string,
        partitions: partitionOf((body.Key ?? body.Item) as Key),
      })),
    );
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem')
    return Object.entries((input.RequestItems ?? {}) as Record<string, unknown>).map(([name, request]) => {
      const keys = Array.isArray(request)
        ? (request as Record<string, { Key?: Key; Item?: Key }>[]).flatMap((r) =>
            Object.values(r).flatMap((x) => partitionOf(x.Key ?? x.Item)),
          )
        : ((request as { Keys?: Key[] }).Keys ?? []).flatMap(partitionOf);
      return { table: name, partitions: [...new Set(keys)] };
    });
  const key = (input.Key ?? input.Item) as Key;
  const queried = valueOf((input.ExpressionAttributeValues as Key)?.[':pk']);
  return [
    {
      ...(table ? { table } : {}),
      ...(input.IndexName ? { index: input.IndexName as string } : {}),
      // A Query on an index names that index's partition, not the table's: LeadingKeys is the table's.
      partitions: key ? partitionOf(key) : queried && !input.IndexName ? [queried] : [],
    },
  ];
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).replace(/>.*$/, '');

function targetsOf(service: string, operation: string, input: Input): CallTarget[] {
  switch (service) {
    case 'dynamodb':
      return dynamoTargets(operation, input);
    case 'sqs':
      return [
        {
          queue:
            String(input.QueueUrl ?? '')
              .split('/')
              .pop() ?? '',
        },
      ];
    case 'ssm':
      return [{ parameter: String(input.Name ?? '') }];
    case 'ses': {
      const from = String(input.FromEmailAddress ?? '')
        .replace(/^.*</, '')
        .replace(/>$/, '');
      return [
        {
          identities: from ? [from, domainOf(from)] : [],
          ...(input.ConfigurationSetName ? { configurationSet: String(input.ConfigurationSetName) } : {}),
        },
      ];
    }
    case 'sns':
      return [input.TopicArn ? { topic: String(input.TopicArn) } : {}];
    default:
      return [{}];
  }
}

const SERVICES: Record<string, string> = {
  DynamoDBClient: 'dynamodb',
  SQSClient: 'sqs',
  SSMClient: 'ssm',
  SESv2Client: 'ses',
  SNSClient: 'sns',
};

interface Stackable {
  middlewareStack: {
    add: (
      mw: (
        next: (args: unknown) => Promise<unknown>,
        context: unknown,
      ) => (args: unknown) => Promise<unknown>,
      options: { step: 'initialize'; name: string; override: boolean },
    ) => void;
  };
}

/**
 * Adds the recording middleware to an SDK client when `OPS_AWS_CALL_LOG` is set, and answers the
 * client as it was. A call is one line, however many attempts it takes (`initialize` runs once
 * per call, outside the SDK's retries).
 */
export function recordingCalls<C>(client: C): C {
  const file = awsCallLog();
  if (!file) return client;
  (client as Stackable).middlewareStack.add(
    (next, context) => async (args) => {
      const { clientName, commandName } = context as { clientName?: string; commandName?: string };
      const service = SERVICES[clientName ?? ''] ?? clientName ?? 'unknown';
      const operation = (commandName ?? '').replace(/Command$/, '');
      const input = ((args as { input?: Input }).input ?? {}) as Input;
      const call: AwsCall = {
        fn: running.getStore() ?? null,
        service,
        operation,
        targets: targetsOf(service, operation, input),
      };
      appendFileSync(file, `${JSON.stringify(call)}\n`);
      return next(args);
    },
    { step: 'initialize', name: 'recordAwsCalls', override: true },
  );
  return client;
}
