import { join } from 'node:path';
import { RemovalPolicy, SecretValue, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  Architecture,
  FilterCriteria,
  FilterRule,
  type IFunction,
  Runtime,
  StartingPosition,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type BundlingOptions, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE, SERVICE } from '#shared/kernel/names';
import { outbox } from '#shared/table/entities/outbox';
import { ESBUILD_OPTIONS } from '#infra/bundling';
import {
  type DeploymentConfig,
  FUNCTION_PROFILES,
  type FunctionProfile,
  type FunctionProfileName,
  type Invocation,
  QUEUE_SETTINGS,
  RELAY_SETTINGS,
} from '#infra/config';
import { FUNCTIONS_DIR, LOCK_FILE, REPO_ROOT } from '#infra/paths';
import type { OAuthAppConfig } from '#infra/oauth-config';
import {
  type ConnectionSecretAccess,
  grantConnectionSecrets,
  grantMessagingProviders,
  grantTable,
  type TableAccess,
} from './function-grants';
import type { DeliveryQueue } from './queues';

/** The esbuild options of infra/bundling.ts, in the shape NodejsFunction takes. */
export const CDK_BUNDLING: BundlingOptions = {
  format: OutputFormat.CJS,
  minify: ESBUILD_OPTIONS.minify,
  target: ESBUILD_OPTIONS.target,
  sourceMap: ESBUILD_OPTIONS.sourcemap,
  mainFields: ESBUILD_OPTIONS.mainFields,
  bundleAwsSDK: true,
  externalModules: ESBUILD_OPTIONS.external,
};

export type { TableAccess } from './function-grants';

/** `depth`: GetQueueAttributes on the queue and its DLQ (the metrics route). */
export type QueueAccess = 'send' | 'changeVisibility' | 'depth';

export interface ServiceFunctionProps {
  readonly config: DeploymentConfig;
  /** Short name, e.g. `api-auth`; the function is `<stage>-ops-platform-<name>`. */
  readonly name: string;
  /** Entry file relative to `functions/`; it exports `handler`. */
  readonly entry: string;
  readonly profile: FunctionProfileName;
  readonly description: string;
}

const FAILURE_PATH: Record<Invocation, string> = {
  http: 'It is invoked synchronously by API Gateway: the client receives the error response.',
  authorizer:
    'It is invoked synchronously by API Gateway as the Lambda authorizer: a failure answers 500/401.',
  stream:
    'It is invoked synchronously by the DynamoDB stream event source mapping: failed records go to the mapping on-failure SQS destination (relay-failures).',
  queue:
    'It is invoked synchronously by the SQS event source mapping: failed messages return to the queue and move to its DLQ after maxReceiveCount receives.',
  schedule:
    'It is invoked by the EventBridge schedule; the sweep is idempotent and the next scheduled run repeats a failed one, which also raises the function-errors alarm.',
};

/**
 * "A function of this service": Node.js 24 on arm64, bundled and minified with the shared
 * esbuild options, its own log group with a retention, X-Ray tracing, Powertools settings, and
 * memory/timeout from FUNCTION_PROFILES. Its role starts with nothing but writing its own log
 * group; every other permission comes from a `bind*` / `consume*` method granting only the
 * actions that use needs, and setting the environment variable the code reads.
 */
export class ServiceFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly functionName: string;
  readonly shortName: string;
  readonly profile: FunctionProfile;
  /** The bundled entry file (absolute). */
  readonly entry: string;
  private readonly config: DeploymentConfig;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.config = props.config;
    this.shortName = props.name;
    this.entry = join(FUNCTIONS_DIR, props.entry);
    this.profile = FUNCTION_PROFILES[props.profile];
    this.functionName = `${props.config.prefix}-${props.name}`;

    this.logGroup = new LogGroup(this, 'Logs', {
      logGroupName: `/aws/lambda/${this.functionName}`,
      retention: props.config.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${this.functionName}`,
    });
    // Instead of the AWSLambdaBasicExecutionRole managed policy: this log group only.
    this.logGroup.grantWrite(this.role);

    this.fn = new NodejsFunction(this, 'Function', {
      functionName: this.functionName,
      description: props.description,
      entry: this.entry,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: this.profile.memorySize,
      timeout: this.profile.timeout,
      role: this.role,
      logGroup: this.logGroup,
      tracing: Tracing.ACTIVE,
      projectRoot: REPO_ROOT,
      depsLockFilePath: LOCK_FILE,
      bundling: CDK_BUNDLING,
      environment: {
        OPS_STAGE: props.config.stage,
        POWERTOOLS_SERVICE_NAME: SERVICE,
        POWERTOOLS_METRICS_NAMESPACE: METRIC_NAMESPACE,
        POWERTOOLS_LOG_LEVEL: props.config.logLevel,
      },
    });

    const failurePath = FAILURE_PATH[this.profile.invocation];
    Validations.of(this).acknowledge(
      {
        id: 'Serverless-LambdaDLQ',
        reason: `A function-level DLQ only catches failed asynchronous invocations. ${failurePath}`,
      },
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Tracing.ACTIVE grants xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions (Resource "*" is the only valid value).',
      },
    );
  }

  /** As an IFunction, for integrations, authorizers and metrics. */
  get handle(): IFunction {
    return this.fn;
  }

  /** Grants the table actions `access` names (function-grants.ts) and sets `TABLE_NAME`. */
  bindTable(table: ITable, access: TableAccess): this {
    grantTable(this.role, table, access);
    this.fn.addEnvironment('TABLE_NAME', table.tableName);
    return this;
  }

  /**
   * `send`: SendMessage; `changeVisibility`: ChangeMessageVisibility (retry backoff); `depth`:
   * GetQueueAttributes of the queue and its DLQ. Sets the queue's URL variable (and the DLQ's).
   */
  bindQueue(queue: DeliveryQueue, access: QueueAccess): this {
    if (access === 'depth') {
      this.allow(['sqs:GetQueueAttributes'], [queue.queue.queueArn, queue.dlq.queueArn]);
      this.fn.addEnvironment(queue.urlVariable, queue.queue.queueUrl);
      this.fn.addEnvironment(queue.urlVariable.replace('_QUEUE_URL', '_DLQ_URL'), queue.dlq.queueUrl);
      return this;
    }
    const action = access === 'send' ? 'sqs:SendMessage' : 'sqs:ChangeMessageVisibility';
    this.allow([action], [queue.queue.queueArn]);
    this.fn.addEnvironment(queue.urlVariable, queue.queue.queueUrl);
    return this;
  }

  /**
   * `OPS_CURSOR_SECRET` as a CloudFormation dynamic reference: CloudFormation resolves the value
   * at deploy time, so the function needs no Secrets Manager permission and makes no call at
   * cold start. The value is stored in the function configuration (encrypted at rest); see
   * docs/infrastructure.md for the trade-off and for rotation.
   */
  bindCursorSecret(secret: ISecret): this {
    const versionId = this.config.cursorSecretVersionId;
    const value = SecretValue.secretsManager(secret.secretArn, versionId ? { versionId } : {});
    this.fn.addEnvironment('OPS_CURSOR_SECRET', value.unsafeUnwrap());
    return this;
  }

  /**
   * Integration connection secrets in SSM (function-grants.ts): `write` for the hub, `rotate` for
   * the OAuth callback and the workers. Sets OPS_CONNECTION_SECRETS (and the key for a writer).
   */
  bindConnectionSecrets(key: IKey, access: ConnectionSecretAccess): this {
    const prefix = grantConnectionSecrets(this, this.role, key, access, this.config.stage);
    this.fn.addEnvironment('OPS_CONNECTION_SECRETS', `ssm:${prefix}`);
    if (access !== 'read') this.fn.addEnvironment('OPS_CONNECTION_SECRETS_KMS_KEY', key.keyArn);
    return this;
  }

  /**
   * The service's app at the OAuth 2 providers: the client ids configured (public), and the
   * callback URL for the functions that send the browser to it or exchange its code. The client
   * secrets are connection secrets (bindConnectionSecrets), not environment.
   */
  bindOAuthApps(apps: OAuthAppConfig, redirectUrl?: string, consoleUrl?: string): this {
    if (apps.clientIds.xero) this.fn.addEnvironment('OPS_XERO_CLIENT_ID', apps.clientIds.xero);
    if (apps.clientIds.quickbooks_online)
      this.fn.addEnvironment('OPS_QUICKBOOKS_CLIENT_ID', apps.clientIds.quickbooks_online);
    if (redirectUrl) this.fn.addEnvironment('OPS_OAUTH_REDIRECT_URL', redirectUrl);
    // Where an authorize call's return_to may point: the console beside the demo site.
    if (consoleUrl) this.fn.addEnvironment('OPS_CONSOLE_URL', consoleUrl);
    return this;
  }

  /** E-mail with SES and SMS with SNS, never an SNS topic (function-grants.ts). */
  bindMessagingProviders(): this {
    grantMessagingProviders(this, this.role);
    return this;
  }

  /**
   * Consumes a delivery queue: partial batch responses (`ReportBatchItemFailures`), so one bad
   * message is retried alone, and a concurrency cap per queue.
   */
  consumeQueue(queue: DeliveryQueue): this {
    if (queue.queue.fifo) throw new Error('delivery queues are standard queues');
    this.fn.addEventSource(
      new SqsEventSource(queue.queue, {
        batchSize: QUEUE_SETTINGS.batchSize,
        maxBatchingWindow: QUEUE_SETTINGS.maxBatchingWindow,
        reportBatchItemFailures: true,
        maxConcurrency: QUEUE_SETTINGS.maxConcurrency,
      }),
    );
    Validations.of(this).acknowledge({
      id: 'Serverless-LambdaEventSourceMappingDestination',
      reason: `SQS event source mappings take no on-failure destination; the ${queue.name} queue's redrive policy moves a message to its DLQ after ${QUEUE_SETTINGS.maxReceiveCount} receives.`,
    });
    return this;
  }

  /**
   * The outbox relay's trigger: the table's stream, filtered to INSERTs of outbox items, with
   * partial batch responses, bisect-on-error, bounded retries and record age, and an SQS
   * on-failure destination for records that exhaust them.
   */
  consumeOutboxStream(table: ITable, onFailure: IQueue): this {
    this.fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: RELAY_SETTINGS.batchSize,
        maxBatchingWindow: RELAY_SETTINGS.maxBatchingWindow,
        parallelizationFactor: RELAY_SETTINGS.parallelizationFactor,
        bisectBatchOnError: true,
        retryAttempts: RELAY_SETTINGS.retryAttempts,
        maxRecordAge: RELAY_SETTINGS.maxRecordAge,
        reportBatchItemFailures: true,
        onFailure: new SqsDlq(onFailure),
        filters: [
          FilterCriteria.filter({
            eventName: FilterRule.isEqual('INSERT'),
            dynamodb: { NewImage: { entity: { S: FilterRule.isEqual(outbox.entity) } } },
          }),
        ],
      }),
    );
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Besides X-Ray, the stream event source grants dynamodb:ListStreams, which supports no resource-level permission; DescribeStream, GetRecords and GetShardIterator are scoped to the table stream ARN.',
    });
    return this;
  }

  private allow(actions: string[], resources: string[]): void {
    this.role.addToPrincipalPolicy(new PolicyStatement({ effect: Effect.ALLOW, actions, resources }));
  }
}
