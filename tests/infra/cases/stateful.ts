import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { QUEUE_SETTINGS } from '#infra/config';
import { dlqName, QUEUES } from '#shared/kernel/names';
import { TABLE } from '#shared/table/table';
import { type Cfn, resourcesOf, type Synthesized, TEST_EMAIL, TEST_STAGE } from '#tests/infra/synth';

/** The stateful stack: table, queues and DLQs, alarm topics, the cursor secret, the demo bucket. */
export function statefulCases(s: Synthesized): void {
  const { statefulTemplate: t } = s;
  const prefix = `${TEST_STAGE}-ops-platform`;

  const queueByName = (name: string) => {
    const found = resourcesOf(t, 'AWS::SQS::Queue').find(([, p]) => p.QueueName === name);
    if (!found) throw new Error(`queue ${name} not found`);
    return found;
  };

  describe('table (built from shared/table/table.ts)', () => {
    const tables = resourcesOf(t, 'AWS::DynamoDB::Table');

    it('is the single table, on demand, with the key schema and every index of the key module', () => {
      expect(tables).toHaveLength(1);
      const [, table] = tables[0]!;
      expect(table.TableName).toBe(prefix);
      expect(table.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.KeySchema).toEqual([
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ]);
      const indexes = Object.fromEntries(
        (table.GlobalSecondaryIndexes as Cfn[]).map((g) => [
          g.IndexName,
          { keys: g.KeySchema, projection: g.Projection },
        ]),
      );
      expect(Object.keys(indexes).sort()).toEqual(Object.keys(TABLE.indexes).sort());
      for (const [name, index] of Object.entries(TABLE.indexes)) {
        expect(indexes[name]).toEqual({
          keys: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          projection: { ProjectionType: 'ALL' },
        });
      }
      const stringAttributes = (table.AttributeDefinitions as Cfn[]).filter((a) => a.AttributeType === 'S');
      expect(stringAttributes).toHaveLength(table.AttributeDefinitions.length);
    });

    it('has point-in-time recovery, the TTL attribute, a NEW_AND_OLD_IMAGES stream and deletion protection', () => {
      const [, table] = tables[0]!;
      expect(table.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
      expect(table.TimeToLiveSpecification).toEqual({ AttributeName: TABLE.ttlAttribute, Enabled: true });
      expect(table.StreamSpecification).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
      expect(table.DeletionProtectionEnabled).toBe(true);
    });

    it('is retained when the stack or the resource is deleted', () => {
      t.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    });
  });

  describe('queues', () => {
    const policies = resourcesOf(t, 'AWS::SQS::QueuePolicy');
    const sslDenied = (logicalId: string) =>
      policies.some(
        ([, p]) =>
          (p.Queues as Cfn[]).some((q) => q.Ref === logicalId) &&
          (p.PolicyDocument.Statement as Cfn[]).some(
            (s) =>
              s.Effect === 'Deny' &&
              s.Condition?.Bool?.['aws:SecureTransport'] === 'false' &&
              s.Action === 'sqs:*',
          ),
      );

    for (const name of Object.values(QUEUES)) {
      describe(name, () => {
        const [sourceId, source] = queueByName(`${prefix}-${name}`);
        const [dlqId, dlq] = queueByName(`${prefix}-${dlqName(name)}`);

        it(`moves a message to its DLQ after at least 5 receives`, () => {
          expect(source.RedrivePolicy.maxReceiveCount).toBeGreaterThanOrEqual(5);
          expect(source.RedrivePolicy.deadLetterTargetArn).toEqual({ 'Fn::GetAtt': [dlqId, 'Arn'] });
        });

        it('keeps DLQ messages 14 days, longer than the source keeps them', () => {
          expect(dlq.MessageRetentionPeriod).toBe(14 * 24 * 3600);
          expect(dlq.MessageRetentionPeriod).toBeGreaterThan(source.MessageRetentionPeriod);
        });

        it('encrypts both queues and refuses non-TLS requests', () => {
          expect(source.SqsManagedSseEnabled).toBe(true);
          expect(dlq.SqsManagedSseEnabled).toBe(true);
          expect(sslDenied(sourceId)).toBe(true);
          expect(sslDenied(dlqId)).toBe(true);
        });

        it('lets operators redrive the DLQ to exactly its source queue', () => {
          expect(dlq.RedriveAllowPolicy.redrivePermission).toBe('byQueue');
          expect(JSON.stringify(dlq.RedriveAllowPolicy.sourceQueueArns)).toContain(`:${prefix}-${name}"`);
          expect(dlq.RedriveAllowPolicy.sourceQueueArns).toHaveLength(1);
        });
      });
    }

    it('has an encrypted, TLS-only relay failure queue that keeps messages 14 days', () => {
      const [id, q] = queueByName(`${prefix}-outbox-relay-failures`);
      expect(q.SqsManagedSseEnabled).toBe(true);
      expect(q.MessageRetentionPeriod).toBe(QUEUE_SETTINGS.dlqRetention.toSeconds());
      expect(sslDenied(id)).toBe(true);
    });
  });

  describe('alarm topics', () => {
    const topics = resourcesOf(t, 'AWS::SNS::Topic');

    it('has one KMS-encrypted topic per severity', () => {
      expect(topics.map(([, p]) => p.TopicName).sort()).toEqual([
        `${prefix}-alarms-page`,
        `${prefix}-alarms-ticket`,
      ]);
      for (const [, p] of topics) expect(p.KmsMasterKeyId).toBeDefined();
    });

    it('lets CloudWatch use the topic key, which rotates', () => {
      t.hasResourceProperties('AWS::KMS::Key', {
        EnableKeyRotation: true,
        KeyPolicy: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Principal: { Service: 'cloudwatch.amazonaws.com' },
              Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            }),
          ]),
        },
      });
    });

    it('requires TLS from publishers', () => {
      const policies = resourcesOf(t, 'AWS::SNS::TopicPolicy');
      expect(policies).toHaveLength(2);
      for (const [, p] of policies) {
        expect(p.PolicyDocument.Statement).toContainEqual(
          expect.objectContaining({
            Effect: 'Deny',
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        );
      }
    });

    it('subscribes the alarm e-mail to both topics', () => {
      const subs = resourcesOf(t, 'AWS::SNS::Subscription');
      expect(subs).toHaveLength(2);
      for (const [, s] of subs) expect(s).toMatchObject({ Protocol: 'email', Endpoint: TEST_EMAIL });
    });
  });

  describe('cursor secret', () => {
    it('is generated by Secrets Manager, never written in the template', () => {
      t.hasResourceProperties('AWS::SecretsManager::Secret', {
        Name: `${prefix}/cursor-hmac-key`,
        GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
        SecretString: Match.absent(),
      });
    });
  });

  describe('demo bucket', () => {
    const buckets = resourcesOf(t, 'AWS::S3::Bucket');
    const demo = buckets.find(([, p]) => p.LoggingConfiguration);
    const bucketPolicy = (logicalId: string) =>
      resourcesOf(t, 'AWS::S3::BucketPolicy').find(([, p]) => p.Bucket.Ref === logicalId)?.[1];

    it('is private: public access blocked, encrypted, access-logged', () => {
      expect(demo).toBeDefined();
      const [, p] = demo!;
      expect(JSON.stringify(p.BucketName)).toContain(`${prefix}-demo-`);
      expect(p.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(
        p.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault.SSEAlgorithm,
      ).toBe('AES256');
    });

    it('denies non-TLS requests and lets only CloudFront (origin access control) of this account read', () => {
      const [id] = demo!;
      const statements = bucketPolicy(id)!.PolicyDocument.Statement as Cfn[];
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Action: 's3:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
      const oac = statements.find((s) => s.Principal?.Service === 'cloudfront.amazonaws.com');
      expect(oac).toMatchObject({ Effect: 'Allow', Action: 's3:GetObject' });
      expect(oac.Condition.StringEquals['AWS:SourceAccount']).toEqual({ Ref: 'AWS::AccountId' });
      expect(JSON.stringify(oac.Condition.ArnLike['AWS:SourceArn'])).toContain(':distribution/*');
      expect(statements.filter((s) => s.Effect === 'Allow')).toHaveLength(1);
    });
  });
}
