import type { Stack } from 'aws-cdk-lib';
import type { RecordedCall } from '#local/call-record';
import { TABLE } from '#shared/table/table';
import type { Cfn, Synthesized } from '#tests/infra/synth';

/**
 * The IAM check of tests/e2e/roles-from-calls.test.ts: each function's role as the synthesized
 * templates state it (the Allow and Deny statements of the policies attached to it, every ARN
 * resolved for a fixed account and region), and each recorded AWS call (call-record.ts) as the
 * IAM requests it makes (action and resource ARN, and the partitions `dynamodb:LeadingKeys` sees).
 */
export const ACCOUNT = '123456789012';
export const REGION = 'us-east-1';

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

export function targetsOf(service: string, operation: string, input: Input): CallTarget[] {
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

/** A recorded call as its service, operation and targets. */
export function callOf(raw: RecordedCall): AwsCall {
  const service = SERVICES[raw.client] ?? raw.client;
  const operation = raw.command.replace(/Command$/, '');
  return {
    fn: raw.fn,
    service,
    operation,
    targets: targetsOf(service, operation, (raw.input ?? {}) as Input),
  };
}

export interface Statement {
  effect: 'Allow' | 'Deny';
  actions: string[];
  resources: string[];
  /** `dynamodb:LeadingKeys` patterns, with `like` true for StringLike; undefined: no such condition. */
  leadingKeys?: { patterns: string[]; like: boolean };
  /** Condition keys this check does not evaluate (kms:ViaService...): the statement is taken as applying. */
  otherConditions: string[];
}

export interface IamRequest {
  action: string;
  resource: string;
  partitions: string[];
}

type Template = { Resources: Record<string, Cfn>; Outputs?: Record<string, Cfn> };

/** A value of a template, every intrinsic resolved: strings, or string lists. */
function resolver(templates: Map<string, Template>) {
  const resolve = (stackName: string, v: Cfn): Cfn => {
    const t = templates.get(stackName);
    if (!t) throw new Error(`no template of stack ${stackName}`);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (Array.isArray(v)) return v.map((x) => resolve(stackName, x));
    if (!v || typeof v !== 'object') return v;
    const [fn] = Object.keys(v);
    const arg = v[fn!];
    switch (fn) {
      case 'Ref':
        return ref(stackName, t, arg);
      case 'Fn::GetAtt':
        return getAtt(stackName, t, arg[0], arg[1]);
      case 'Fn::Join':
        return (resolve(stackName, arg[1]) as string[]).join(arg[0]);
      case 'Fn::Select':
        return (resolve(stackName, arg[1]) as string[])[Number(resolve(stackName, arg[0]))];
      case 'Fn::Split':
        return String(resolve(stackName, arg[1])).split(arg[0]);
      case 'Fn::Sub': {
        const [text, vars] = typeof arg === 'string' ? [arg, {}] : [arg[0], arg[1]];
        return String(text).replace(/\$\{([^}]+)\}/g, (_m: string, name: string) => {
          if (vars[name] !== undefined) return resolve(stackName, vars[name]);
          const [id, att] = name.split('.');
          return att ? getAtt(stackName, t, id!, att) : ref(stackName, t, id!);
        });
      }
      case 'Fn::GetStackOutput': {
        const other = resolve(stackName, arg.StackName) as string;
        const out = templates.get(other)?.Outputs?.[arg.OutputName];
        if (!out) throw new Error(`no output ${arg.OutputName} in ${other}`);
        return resolve(other, out.Value);
      }
      case 'Fn::ImportValue': {
        const name = resolve(stackName, arg);
        for (const [other, tpl] of templates)
          for (const out of Object.values(tpl.Outputs ?? {}))
            if (out.Export && resolve(other, out.Export.Name) === name) return resolve(other, out.Value);
        throw new Error(`no export ${name}`);
      }
      default:
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(stackName, x)]));
    }
  };
  const props = (t: Template, id: string) => {
    const r = t.Resources[id];
    if (!r) throw new Error(`no resource ${id}`);
    return r as { Type: string; Properties?: Record<string, Cfn> };
  };
  const ref = (stackName: string, t: Template, id: string): string => {
    const pseudo: Record<string, string> = {
      'AWS::Region': REGION,
      'AWS::AccountId': ACCOUNT,
      'AWS::Partition': 'aws',
      'AWS::URLSuffix': 'amazonaws.com',
      'AWS::StackName': stackName,
    };
    if (pseudo[id]) return pseudo[id];
    const r = props(t, id);
    const p = r.Properties ?? {};
    switch (r.Type) {
      case 'AWS::SQS::Queue':
        return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${resolve(stackName, p.QueueName)}`;
      case 'AWS::DynamoDB::Table':
        return resolve(stackName, p.TableName);
      default:
        return id;
    }
  };
  const getAtt = (stackName: string, t: Template, id: string, att: string): string => {
    const r = props(t, id);
    const p = r.Properties ?? {};
    const name = (key: string) => (p[key] === undefined ? id : (resolve(stackName, p[key]) as string));
    const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${resource}`;
    switch (`${r.Type}.${att}`) {
      case 'AWS::DynamoDB::Table.Arn':
        return arn('dynamodb', `table/${name('TableName')}`);
      case 'AWS::DynamoDB::Table.StreamArn':
        return arn('dynamodb', `table/${name('TableName')}/stream/2026-01-01T00:00:00.000`);
      case 'AWS::SQS::Queue.Arn':
        return arn('sqs', name('QueueName'));
      case 'AWS::SQS::Queue.QueueName':
        return name('QueueName');
      case 'AWS::KMS::Key.Arn':
        return arn('kms', `key/${id}`);
      case 'AWS::Logs::LogGroup.Arn':
        return arn('logs', `log-group:${name('LogGroupName')}:*`);
      case 'AWS::IAM::Role.Arn':
        return `arn:aws:iam::${ACCOUNT}:role/${id}`;
      case 'AWS::SNS::Topic.TopicArn':
        return arn('sns', id);
      default:
        return `${id}.${att}`;
    }
  };
  return resolve;
}

const list = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Each deployed function's statements by its short name (`api-tasks`), from the stateless stack. */
export function rolesOf(service: Synthesized): Map<string, Statement[]> {
  const stacks: Stack[] = [service.stateful, service.stateless, service.apiRoutes];
  const templates = new Map<string, Template>(
    stacks.map((s) => [s.stackName, service.app.synth().getStackByName(s.stackName).template as Template]),
  );
  const stackName = service.stateless.stackName;
  const t = templates.get(stackName)!;
  const resolve = resolver(templates);
  const prefix = `${service.config.prefix}-`;
  const byRole = new Map<string, string>();
  for (const [, r] of Object.entries(t.Resources))
    if (r.Type === 'AWS::Lambda::Function' && typeof r.Properties.FunctionName === 'string') {
      const name = r.Properties.FunctionName as string;
      if (name.startsWith(prefix)) byRole.set(r.Properties.Role['Fn::GetAtt'][0], name.slice(prefix.length));
    }
  const roles = new Map<string, Statement[]>([...byRole.values()].map((n) => [n, []]));
  for (const [, r] of Object.entries(t.Resources)) {
    if (r.Type !== 'AWS::IAM::Policy') continue;
    for (const role of r.Properties.Roles as { Ref: string }[]) {
      const fn = byRole.get(role.Ref);
      if (!fn) continue;
      for (const s of list<Cfn>(r.Properties.PolicyDocument.Statement)) {
        const condition = (s.Condition ?? {}) as Record<string, Record<string, Cfn>>;
        let leadingKeys: Statement['leadingKeys'];
        const otherConditions: string[] = [];
        for (const [op, keys] of Object.entries(condition))
          for (const [key, value] of Object.entries(keys)) {
            if (key === 'dynamodb:LeadingKeys')
              leadingKeys = {
                patterns: list<string>(resolve(stackName, value)),
                like: op.endsWith('StringLike'),
              };
            else otherConditions.push(`${op} ${key}`);
          }
        roles.get(fn)!.push({
          effect: s.Effect,
          actions: list<string>(s.Action),
          resources: list<string>(resolve(stackName, s.Resource ?? '*')).flat() as string[],
          ...(leadingKeys ? { leadingKeys } : {}),
          otherConditions,
        });
      }
    }
  }
  return roles;
}

/** IAM's wildcards: `*` any run of characters, `?` one. Actions match case-insensitively. */
export const wildcard = (pattern: string, value: string, ignoreCase = false): boolean => {
  const re = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
    ignoreCase ? 'i' : '',
  );
  return re.test(value);
};

/** Whether `s` covers `r`: action, resource, and the partitions its LeadingKeys condition allows. */
export function covers(s: Statement, r: IamRequest): boolean {
  if (!s.actions.some((a) => wildcard(a, r.action, true))) return false;
  if (!s.resources.some((p) => wildcard(p, r.resource))) return false;
  if (!s.leadingKeys) return true;
  const { patterns, like } = s.leadingKeys;
  // ForAllValues: every partition the request names must match (a request naming none is not
  // covered: DynamoDB then has no key to check, and such requests here always name one).
  return (
    r.partitions.length > 0 &&
    r.partitions.every((p) => patterns.some((x) => (like ? wildcard(x, p) : x === p)))
  );
}

/** An explicit Deny wins; else an Allow must cover the request. */
export const allowed = (statements: Statement[], r: IamRequest): boolean =>
  !statements.some((s) => s.effect === 'Deny' && covers({ ...s, leadingKeys: undefined }, r)) &&
  statements.some((s) => s.effect === 'Allow' && covers(s, r));

/** The deployed names of what a local run's call names (its table, queues, parameters). */
export interface Deployed {
  table: string;
  /** `<prefix>-`: a local queue `internal` is `<prefix>-internal` deployed. */
  queuePrefix: string;
}

const arn = (service: string, resource: string, region = REGION) =>
  `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;

/** The IAM action each item of a transaction or batch is authorized as. */
const ITEM_ACTIONS: Record<string, string> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
  Get: 'GetItem',
};
/** SQS batch actions are authorized as their single action. */
const SQS_ACTIONS: Record<string, string> = {
  SendMessageBatch: 'SendMessage',
  DeleteMessageBatch: 'DeleteMessage',
  ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
};

/** The IAM requests one recorded call makes. */
export function requestsOf(call: AwsCall, deployed: Deployed): IamRequest[] {
  const tableArn = arn('dynamodb', `table/${deployed.table}`);
  const one = (action: string, resource: string, t: CallTarget = {}): IamRequest => ({
    action,
    resource,
    partitions: t.partitions ?? [],
  });
  switch (call.service) {
    case 'dynamodb':
      return call.targets.map((t) => {
        if (t.table === undefined) throw new Error(`a ${call.operation} that names no table`);
        const action = t.item ? ITEM_ACTIONS[t.item] : call.operation;
        if (!action) throw new Error(`no IAM action for ${call.operation} item ${t.item}`);
        return one(`dynamodb:${action}`, t.index ? `${tableArn}/index/${t.index}` : tableArn, t);
      });
    case 'sqs':
      return call.targets.map((t) =>
        one(
          `sqs:${SQS_ACTIONS[call.operation] ?? call.operation}`,
          arn('sqs', `${deployed.queuePrefix}${t.queue}`),
        ),
      );
    case 'ssm':
      return call.targets.map((t) =>
        one(`ssm:${call.operation}`, arn('ssm', `parameter/${(t.parameter ?? '').replace(/^\//, '')}`)),
      );
    case 'ses':
      // SendEmail is authorized against the sender's identity (address or domain) and any configuration set.
      return call.targets.flatMap((t) => [
        ...(t.identities ?? [])
          .slice(-1)
          .map((id) => one(`ses:${call.operation}`, arn('ses', `identity/${id}`))),
        ...(t.configurationSet
          ? [one(`ses:${call.operation}`, arn('ses', `configuration-set/${t.configurationSet}`))]
          : []),
      ]);
    case 'sns':
      // A text to a phone number has no ARN: IAM sees `*`.
      return call.targets.map((t) => one(`sns:${call.operation}`, t.topic ?? '*'));
    default:
      throw new Error(`no IAM mapping for service ${call.service}`);
  }
}

/** The grants of a role as (action, resource) pairs: each must be used by a call or acknowledged. */
export const grantsOf = (statements: Statement[]) =>
  statements
    .filter((s) => s.effect === 'Allow')
    .flatMap((s) => s.actions.flatMap((action) => s.resources.map((resource) => ({ action, resource, s }))));

/** Whether a grant (one action on one resource pattern of a statement) covers request `r`. */
export const grantCovers = (g: { action: string; resource: string; s: Statement }, r: IamRequest) =>
  covers({ ...g.s, actions: [g.action], resources: [g.resource] }, r);
