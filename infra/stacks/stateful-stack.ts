import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { QUEUES } from '#shared/kernel/names';
import { TABLE } from '#shared/table/table';
import {
  bucketNames,
  type DeploymentConfig,
  FUNCTION_PROFILES,
  QUEUE_SETTINGS,
  type Severity,
} from '#infra/config';
import { DeliveryQueue, RELAY_FAILURES_QUEUE, secureQueue } from '#infra/constructs/queues';

/**
 * What the stateless stack receives: the stateful resources, typed. (The demo and access-log
 * buckets are not in it: the CDN refers to them by their fixed names, see bucketNames.)
 */
export interface StatefulResources {
  readonly table: Table;
  readonly internalQueue: DeliveryQueue;
  readonly externalQueue: DeliveryQueue;
  /** On-failure destination of the outbox relay's stream mapping. */
  readonly relayFailures: Queue;
  readonly alarmTopics: Record<Severity, Topic>;
  readonly cursorSecret: Secret;
  /** Encrypts the SSM SecureStrings that hold integration connection secrets. */
  readonly connectionSecretsKey: Key;
}

export interface StatefulStackProps extends StackProps {
  readonly config: DeploymentConfig;
}

/**
 * Everything that holds data or must outlive a redeploy of the code: the single table, the
 * delivery queues and their DLQs, the relay's failure queue, the alarm topics, the cursor HMAC
 * secret and the demo site's bucket (plus its access-log bucket).
 */
export class StatefulStack extends Stack implements StatefulResources {
  readonly table: Table;
  readonly internalQueue: DeliveryQueue;
  readonly externalQueue: DeliveryQueue;
  readonly relayFailures: Queue;
  readonly alarmTopics: Record<Severity, Topic>;
  readonly cursorSecret: Secret;
  readonly connectionSecretsKey: Key;
  readonly demoBucket: Bucket;
  readonly accessLogsBucket: Bucket;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { config } = props;

    // --- The single table, built from the key module the code uses (shared/table/table.ts).
    this.table = new Table(this, 'Table', {
      tableName: config.prefix,
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TABLE.ttlAttribute,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const [indexName, index] of Object.entries(TABLE.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    // --- Delivery queues (docs/api.md section 7), each with its DLQ.
    this.internalQueue = new DeliveryQueue(this, 'InternalQueue', {
      config,
      name: QUEUES.internal,
      consumerTimeout: FUNCTION_PROFILES.internalWorker.timeout,
      urlVariable: 'INTERNAL_QUEUE_URL',
    });
    this.externalQueue = new DeliveryQueue(this, 'ExternalQueue', {
      config,
      name: QUEUES.external,
      consumerTimeout: FUNCTION_PROFILES.externalWorker.timeout,
      urlVariable: 'EXTERNAL_QUEUE_URL',
    });
    this.relayFailures = secureQueue(this, 'RelayFailures', {
      queueName: `${config.prefix}-${RELAY_FAILURES_QUEUE}`,
      retentionPeriod: QUEUE_SETTINGS.dlqRetention,
    });
    Validations.of(this.relayFailures).acknowledge(
      {
        id: 'AwsSolutions-SQS3',
        reason:
          'This queue is itself a dead-letter destination: the on-failure destination of the outbox relay stream mapping (stateless stack). Nothing consumes it, so it needs no DLQ of its own.',
      },
      {
        id: 'Serverless-SQSRedrivePolicy',
        reason:
          'Terminal on-failure destination of the outbox relay stream mapping; nothing consumes it, so there is nothing to redrive from it. Its depth raises the dlq-not-empty alarm.',
      },
    );

    // --- Alarm topics by severity. CloudWatch alarms cannot publish to a topic encrypted with
    // the AWS-managed aws/sns key, so the topics share a customer-managed key that allows it.
    const topicKey = new Key(this, 'AlarmTopicKey', {
      alias: `alias/${config.prefix}-alarms`,
      description: `Encrypts the ${config.prefix} alarm topics`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    topicKey.addToResourcePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    const topic = (severity: Severity) =>
      new Topic(this, `${severity === 'page' ? 'Page' : 'Ticket'}Topic`, {
        topicName: `${config.prefix}-alarms-${severity}`,
        displayName: `${config.prefix} ${severity} alarms`,
        masterKey: topicKey,
        enforceSSL: true,
      });
    this.alarmTopics = { page: topic('page'), ticket: topic('ticket') };
    if (config.alarmEmail) {
      for (const t of Object.values(this.alarmTopics)) {
        t.addSubscription(new EmailSubscription(config.alarmEmail));
        Validations.of(t).acknowledge({
          id: 'Serverless-SNSRedrivePolicy',
          reason:
            'E-mail subscription for alarm notifications: an undelivered e-mail leaves the alarm in ALARM state in CloudWatch, which is the source of truth; a subscription DLQ would hold nobody-reads copies.',
        });
      }
    }

    // --- HMAC key of list cursors (docs/api.md section 4).
    this.cursorSecret = new Secret(this, 'CursorSecret', {
      secretName: `${config.prefix}/cursor-hmac-key`,
      description: 'HMAC key that signs list cursors (OPS_CURSOR_SECRET)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(this.cursorSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The value reaches the functions as a deploy-time dynamic reference, so automatic rotation would not reach them and would invalidate every outstanding cursor at an arbitrary time. Rotation is a documented manual step followed by a deploy (docs/infrastructure.md).',
    });

    // --- The service's key for connection secrets (docs/api.md section 9.3): the hub function
    // encrypts with it through SSM, only the delivering functions decrypt (grants in
    // ServiceFunction.bindConnectionSecrets). Retained: deleting it would strand every secret.
    this.connectionSecretsKey = new Key(this, 'ConnectionSecretsKey', {
      alias: `alias/${config.prefix}-connection-secrets`,
      description: `Encrypts the ${config.prefix} integration connection secrets (SSM SecureString)`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // --- Demo site bucket (private; served by CloudFront in the stateless stack).
    const names = bucketNames(config);
    this.accessLogsBucket = new Bucket(this, 'AccessLogs', {
      bucketName: names.accessLogs,
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // CloudFront standard logs are delivered with an ACL grant.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.demoBucket = new Bucket(this, 'DemoSite', {
      bucketName: names.demo,
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: 's3/demo-site/',
      // The deployment in the stateless stack removes its files when that stack is destroyed.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // Origin access control: CloudFront may read objects on behalf of a distribution of this
    // account. The distribution lives in the stateless stack; naming it here would make the two
    // stacks depend on each other, so the condition matches this account's distributions until
    // `-c demoDistributionId=<id>` narrows it to the one distribution (docs/infrastructure.md).
    this.demoBucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudFrontOriginAccessControl',
        effect: Effect.ALLOW,
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [this.demoBucket.arnForObjects('*')],
        conditions: config.demoDistributionId
          ? {
              StringEquals: {
                'AWS:SourceArn': `arn:${this.partition}:cloudfront::${this.account}:distribution/${config.demoDistributionId}`,
              },
            }
          : {
              StringEquals: { 'AWS:SourceAccount': this.account },
              ArnLike: {
                'AWS:SourceArn': `arn:${this.partition}:cloudfront::${this.account}:distribution/*`,
              },
            },
      }),
    );

    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'InternalQueueUrl', { value: this.internalQueue.queue.queueUrl });
    new CfnOutput(this, 'ExternalQueueUrl', { value: this.externalQueue.queue.queueUrl });
    new CfnOutput(this, 'PageTopicArn', { value: this.alarmTopics.page.topicArn });
    new CfnOutput(this, 'TicketTopicArn', { value: this.alarmTopics.ticket.topicArn });
  }
}
