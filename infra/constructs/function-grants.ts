import { Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { SERVICE } from '#shared/kernel/names';
import { healthProbe } from '#shared/table/entities/health-probe';
import { session } from '#shared/table/entities/session';
import { timer } from '#shared/table/entities/timer';
import { outbox } from '#shared/table/entities/outbox';
import { prefixOf } from '#shared/table/entity';
import type { IndexName } from '#shared/table/table';

/**
 * The IAM statements a service function's `bind*` methods add to its role, each the smallest
 * set of actions on the narrowest resources its use needs, and the cdk-nag findings each one
 * acknowledges with its reason.
 */

/**
 * A read of the table: `get` GetItem and `query` Query on the table itself, an index's name
 * Query on that index.
 */
export type TableRead = 'get' | 'query' | IndexName;
/** A write of the table's items, each one DynamoDB action (a transaction's items included). */
export type TableWrite = 'put' | 'update' | 'delete' | 'conditionCheck';

/**
 * Table access as the smallest set of DynamoDB actions: each action a function's code calls is
 * named, and nothing else (tests/e2e/roles-from-calls.test.ts checks both ways). Resources are the
 * table and its named indexes (from shared/table/table.ts), never `index/*`.
 */
export interface TableAccess {
  readonly read?: readonly TableRead[];
  readonly write?: readonly TableWrite[];
  /** BatchGetItem on the table (auth: the login and its throttle counter in one round trip). */
  readonly batchGet?: boolean;
  /**
   * GetItem on the health probe's partition and nothing else (`dynamodb:LeadingKeys`): the
   * public function's one read, `GET /health` (functions/adapters/table-health.ts).
   */
  readonly healthProbe?: boolean;
  /**
   * UpdateItem on session items only (`dynamodb:LeadingKeys` `SESSION#…`): the token check's
   * refresh of `last_used_at`, for a bearer route group that writes nothing else. Every bearer
   * route group runs the token check itself when the authorizer could not (docs/decisions.md).
   */
  readonly touchSessions?: boolean;
  /**
   * The timer sweeper's claim: DeleteItem on timer partitions and PutItem on outbox partitions
   * only (`dynamodb:LeadingKeys`), the two items of its one transaction.
   */
  readonly claimTimers?: boolean;
}

const allow = (role: Role, actions: string[], resources: string[]): void => {
  role.addToPrincipalPolicy(new PolicyStatement({ effect: Effect.ALLOW, actions, resources }));
};

/** `actions` on the table's items whose partition key the condition on `dynamodb:LeadingKeys` allows. */
const allowOnPartitions = (
  role: Role,
  actions: string[],
  table: ITable,
  conditions: Record<string, unknown>,
): void => {
  role.addToPrincipalPolicy(
    new PolicyStatement({ effect: Effect.ALLOW, actions, resources: [table.tableArn], conditions }),
  );
};

const TABLE_ACTIONS: Record<'get' | 'query' | TableWrite, string> = {
  get: 'dynamodb:GetItem',
  query: 'dynamodb:Query',
  put: 'dynamodb:PutItem',
  update: 'dynamodb:UpdateItem',
  delete: 'dynamodb:DeleteItem',
  conditionCheck: 'dynamodb:ConditionCheckItem',
};

/** The table actions `access` names, on the table and its named indexes (never `index/*`). */
export function grantTable(role: Role, table: ITable, access: TableAccess): void {
  const indexArn = (name: IndexName) => `${table.tableArn}/index/${name}`;
  const read = access.read ?? [];
  const onTable = read.filter((r): r is 'get' | 'query' => r === 'get' || r === 'query');
  const indexes = read.filter((r): r is IndexName => r !== 'get' && r !== 'query');
  if (onTable.length)
    allow(
      role,
      onTable.map((r) => TABLE_ACTIONS[r]),
      [table.tableArn],
    );
  if (indexes.length) allow(role, ['dynamodb:Query'], indexes.map(indexArn));
  if (access.batchGet) allow(role, ['dynamodb:BatchGetItem'], [table.tableArn]);
  if (access.healthProbe) {
    allowOnPartitions(role, ['dynamodb:GetItem'], table, {
      'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [healthProbe.key({}).pk] },
    });
  }
  if (access.claimTimers) {
    allowOnPartitions(role, ['dynamodb:DeleteItem'], table, {
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': [timer.indexes.table.pk.replace('{tenant_id}', '*')],
      },
    });
    allowOnPartitions(role, ['dynamodb:PutItem'], table, {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${prefixOf(outbox.indexes.table.pk)}*`] },
    });
  }
  if (access.touchSessions) {
    allowOnPartitions(role, ['dynamodb:UpdateItem'], table, {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${prefixOf(session.indexes.table.pk)}*`] },
    });
  }
  if (access.write?.length)
    allow(
      role,
      access.write.map((w) => TABLE_ACTIONS[w]),
      [table.tableArn],
    );
}

/**
 * Who does what with connection secrets: `write` (the hub) puts and deletes but never reads one
 * back; `read` only reads; `rotate` (the OAuth callback and the workers) reads and overwrites,
 * for a token pair the provider rotated, and never deletes.
 */
export type ConnectionSecretAccess = 'write' | 'read' | 'rotate';

/**
 * The pseudo-tenant under which the service's OAuth app client secrets are kept
 * (functions/adapters/oauth-provider.ts APP_SECRETS_TENANT): an operator puts them, no function
 * may overwrite or delete them.
 */
export const OAUTH_APPS_PATH = '_oauth_apps';

const SSM_ACTIONS: Record<ConnectionSecretAccess, string[]> = {
  write: ['ssm:PutParameter', 'ssm:DeleteParameter'],
  read: ['ssm:GetParameter'],
  rotate: ['ssm:GetParameter', 'ssm:PutParameter'],
};
const KMS_ACTIONS: Record<ConnectionSecretAccess, string[]> = {
  write: ['kms:Encrypt', 'kms:GenerateDataKey'],
  read: ['kms:Decrypt'],
  rotate: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey'],
};

/**
 * Integration connection secrets: one SSM SecureString per connection under
 * `/ops-platform/<stage>/connections/`, encrypted with the service's connection-secrets key, the
 * KMS actions allowed through SSM only. Returns the parameter path prefix.
 */
export function grantConnectionSecrets(
  scope: Construct,
  role: Role,
  key: IKey,
  access: ConnectionSecretAccess,
  stage: string,
): string {
  const prefix = `/${SERVICE}/${stage}/connections/`;
  const stack = Stack.of(scope);
  const parameters = stack.formatArn({
    service: 'ssm',
    resource: 'parameter',
    resourceName: `${prefix.slice(1)}*`,
  });
  allow(role, SSM_ACTIONS[access], [parameters]);
  if (access !== 'read') {
    role.addToPrincipalPolicy(
      new PolicyStatement({
        effect: Effect.DENY,
        actions: ['ssm:PutParameter', 'ssm:DeleteParameter'],
        resources: [
          stack.formatArn({
            service: 'ssm',
            resource: 'parameter',
            resourceName: `${prefix.slice(1)}${OAUTH_APPS_PATH}/*`,
          }),
        ],
      }),
    );
  }
  role.addToPrincipalPolicy(
    new PolicyStatement({
      effect: Effect.ALLOW,
      actions: KMS_ACTIONS[access],
      resources: [key.keyArn],
      conditions: {
        StringEquals: { 'kms:ViaService': `ssm.${stack.region}.amazonaws.com` },
        StringLike: { 'kms:EncryptionContext:PARAMETER_ARN': parameters },
      },
    }),
  );
  Validations.of(scope).acknowledge({
    id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ssm:<AWS::Region>:<AWS::AccountId>:parameter/${prefix.slice(1)}*]`,
    reason: `Connection secrets are one parameter per connection, created at run time under ${prefix}; the grant is limited to that path.`,
  });
  return prefix;
}

/**
 * The external channels that go through AWS: e-mail with SES (any verified identity and
 * configuration set of this account and region; tenants bring their own sender addresses) and
 * SMS with SNS. SNS SMS publishes to a phone number, which has no ARN, so `sns:Publish` is
 * allowed on `*` and denied on every topic: the function can text, not publish to topics.
 */
export function grantMessagingProviders(scope: Construct, role: Role): void {
  const stack = Stack.of(scope);
  allow(
    role,
    ['ses:SendEmail'],
    [
      stack.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
      stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: '*' }),
    ],
  );
  allow(role, ['sns:Publish'], ['*']);
  role.addToPrincipalPolicy(
    new PolicyStatement({
      effect: Effect.DENY,
      actions: ['sns:Publish'],
      resources: [`arn:${stack.partition}:sns:*:*:*`],
    }),
  );
  Validations.of(scope).acknowledge(
    {
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:identity/*]',
      reason:
        'Each tenant sends e-mail from its own verified SES identity (from_address in its provider config), unknown at deploy time; limited to this account and region.',
    },
    {
      id: 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:<AWS::Region>:<AWS::AccountId>:configuration-set/*]',
      reason:
        'A tenant provider config may name an SES configuration set (configuration_set); SendEmail then also authorizes against it. Limited to this account and region.',
    },
    {
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Besides X-Ray: sns:Publish for SMS, whose target is a phone number with no ARN; an explicit Deny on every SNS topic ARN keeps the grant to direct SMS.',
    },
  );
}
