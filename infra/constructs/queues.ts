import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption, type QueueProps, RedrivePermission } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { dlqName, type QueueName } from '#shared/kernel/names';
import { type DeploymentConfig, QUEUE_SETTINGS } from '#infra/config';

/**
 * Every queue of the service is encrypted at rest (SQS-managed SSE: no key to manage, no KMS
 * calls) and refuses plain-HTTP requests (`aws:SecureTransport` deny in its queue policy).
 */
export const secureQueue = (scope: Construct, id: string, props: QueueProps): Queue =>
  new Queue(scope, id, { ...props, encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });

/** Name of the outbox relay's failure queue: a dead-letter destination, nothing consumes it. */
export const RELAY_FAILURES_QUEUE = 'outbox-relay-failures';

/** AWS guidance for SQS-triggered functions: visibility timeout at least 6x the function timeout. */
export const visibilityTimeoutFor = (consumerTimeout: Duration): Duration =>
  Duration.seconds(consumerTimeout.toSeconds() * QUEUE_SETTINGS.visibilityTimeoutFactor);

/** The environment variable that carries a delivery queue's URL into the functions. */
export type QueueUrlVariable = 'INTERNAL_QUEUE_URL' | 'EXTERNAL_QUEUE_URL';

export interface DeliveryQueueProps {
  readonly config: DeploymentConfig;
  /** Logical name from shared/kernel/names.ts; the physical name is `<stage>-ops-platform-<name>`. */
  readonly name: QueueName;
  /** Timeout of the function that consumes the queue: the visibility timeout is 6x this. */
  readonly consumerTimeout: Duration;
  readonly urlVariable: QueueUrlVariable;
}

/**
 * A work queue and its dead-letter queue. After `maxReceiveCount` failed receives a message
 * moves to the DLQ, which keeps it 14 days (longer than the source, because SQS keeps a moved
 * message's original enqueue time). The DLQ's redrive allow policy names its one source queue,
 * so an operator can "Start DLQ redrive" from the console back to exactly that queue.
 */
export class DeliveryQueue extends Construct {
  readonly name: QueueName;
  readonly queue: Queue;
  readonly dlq: Queue;
  readonly urlVariable: QueueUrlVariable;

  constructor(scope: Construct, id: string, props: DeliveryQueueProps) {
    super(scope, id);
    this.name = props.name;
    this.urlVariable = props.urlVariable;
    const queueName = `${props.config.prefix}-${props.name}`;

    // The source's ARN is built from its fixed name: referencing the Queue itself would make the
    // source (RedrivePolicy -> DLQ) and the DLQ (RedriveAllowPolicy -> source) depend on each other.
    const sourceArn = Stack.of(this).formatArn({ service: 'sqs', resource: queueName });
    this.dlq = secureQueue(this, 'Dlq', {
      queueName: `${props.config.prefix}-${dlqName(props.name)}`,
      retentionPeriod: QUEUE_SETTINGS.dlqRetention,
      redriveAllowPolicy: {
        redrivePermission: RedrivePermission.BY_QUEUE,
        sourceQueues: [Queue.fromQueueArn(this, 'SourceRef', sourceArn)],
      },
    });
    Validations.of(this.dlq).acknowledge({
      id: 'Serverless-SQSRedrivePolicy',
      reason: `This is the dead-letter queue of ${queueName}; its messages go back by a console redrive to that queue, never to a further DLQ.`,
    });
    this.queue = secureQueue(this, 'Queue', {
      queueName,
      retentionPeriod: QUEUE_SETTINGS.sourceRetention,
      visibilityTimeout: visibilityTimeoutFor(props.consumerTimeout),
      deadLetterQueue: { queue: this.dlq, maxReceiveCount: QUEUE_SETTINGS.maxReceiveCount },
    });
  }
}
