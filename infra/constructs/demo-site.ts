import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Bucket, type IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { DEMO_SITE_HEADERS as H } from '#shared/demo/site-headers';
import { bucketNames, type DeploymentConfig } from '#infra/config';
import { DEMO_STATIC_DIR } from '#infra/paths';
import { CONSOLE_PREFIX, consoleBehavior, publishConsole } from './console-site';

const REFERRER_POLICY = Object.values(HeadersReferrerPolicy).find((p) => p === H.referrerPolicy)!;

export interface DemoSiteProps {
  readonly config: DeploymentConfig;
}

/**
 * The API origins a page of this distribution may connect to: the regional API Gateway
 * endpoints. The API's own id cannot be named here: the API's CORS names this distribution's
 * origin, and the distribution naming the API back would be a dependency cycle
 * (docs/decisions.md, "The operator console").
 */
const apiOrigins = (region: string) => `https://*.execute-api.${region}.amazonaws.com`;

/**
 * The demo site: CloudFront in front of the private demo bucket through origin access control,
 * HTTPS only, security headers on every response (from shared/demo/site-headers.ts, which the
 * local runtime sends too). `publish()` deploys `demo-static/` and a `config.json` that tells the
 * page where the API is.
 */
export class DemoSite extends Construct {
  readonly distribution: Distribution;
  readonly responseHeadersPolicy: ResponseHeadersPolicy;
  /** The operator console's headers: the demo's, with the console's own CSP. */
  readonly consoleHeadersPolicy: ResponseHeadersPolicy;
  /** `https://<id>.cloudfront.net` */
  readonly url: string;
  private readonly bucket: IBucket;
  private readonly config: DeploymentConfig;

  constructor(scope: Construct, id: string, props: DemoSiteProps) {
    super(scope, id);
    this.config = props.config;
    // The stateful stack's buckets, by their fixed names (config.ts bucketNames). Referenced, not
    // owned: the OAC read grant is already in the demo bucket's policy (StatefulStack), so
    // CloudFront must not edit that policy from here, which would tie the stacks in a cycle.
    const names = bucketNames(props.config);
    this.bucket = Bucket.fromBucketName(this, 'Bucket', names.demo);
    const logsBucket = Bucket.fromBucketName(this, 'LogsBucket', names.accessLogs);
    const region = Stack.of(this).region;

    this.responseHeadersPolicy = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      responseHeadersPolicyName: `${props.config.prefix}-demo-security-headers`,
      comment: 'Security headers of the ops-platform demo site',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          // The API is another origin; its id is not known here without a dependency cycle.
          contentSecurityPolicy: H.contentSecurityPolicy(apiOrigins(region)),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption[H.frameOptions], override: true },
        referrerPolicy: { referrerPolicy: REFERRER_POLICY, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(H.strictTransportSecurity.maxAgeSeconds),
          includeSubdomains: H.strictTransportSecurity.includeSubdomains,
          override: true,
        },
        xssProtection: { ...H.xssProtection, override: true },
      },
    });

    const origin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    // The operator console, from the same private bucket under console/ (./console-site.ts).
    const consoleSite = consoleBehavior(this, props.config, origin, apiOrigins(region));
    this.consoleHeadersPolicy = consoleSite.headersPolicy;

    this.distribution = new Distribution(this, 'Distribution', {
      comment: `${props.config.prefix} demo site`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logsBucket,
      logFilePrefix: 'cloudfront/demo-site/',
      defaultBehavior: {
        origin,
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeadersPolicy,
        compress: true,
      },
      additionalBehaviors: consoleSite.behaviors,
    });
    Validations.of(this.distribution).acknowledge(
      {
        id: '@aws-cdk/aws-cloudfront-origins:updateImportedBucketPolicyOac',
        reason:
          'Intended: the stateful stack writes the OAC read grant into the demo bucket policy itself (both stacks editing it would make them depend on each other).',
      },
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'The demo site is public, read-only and static; it is meant to be reachable from every country.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'Static, read-only demo files with no forms or back end behind this distribution (the API has its own throttling); a WAF web ACL would cost more than the site. Attach one when a custom domain is added.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the viewer TLS policy; a custom domain with TLSv1.2_2021 is the documented upgrade path.',
      },
    );
    this.url = `https://${this.distribution.distributionDomainName}`;
  }

  /**
   * Deploys `demo-static/` and `config.json` (`{"apiUrl": ...}`) into the bucket, removes files
   * that are no longer in the source, and invalidates the distribution. When the stateless
   * stack is destroyed the files are removed, so the bucket can be deleted with its stack.
   */
  publish(apiUrl: string): BucketDeployment {
    const deployment = new BucketDeployment(this, 'Deploy', {
      sources: [Source.asset(DEMO_STATIC_DIR), Source.jsonData('config.json', { apiUrl })],
      destinationBucket: this.bucket,
      distribution: this.distribution,
      distributionPaths: ['/*'],
      prune: true,
      // The console is the other deployment's: this one's prune leaves it alone.
      exclude: [`${CONSOLE_PREFIX}*`],
      retainOnDelete: false,
      memoryLimit: 256,
      logGroup: new LogGroup(this, 'DeployLogs', {
        retention: this.config.logRetention,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    publishConsole(this, this.config, this.bucket, this.distribution, apiUrl);
    this.acknowledgeDeploymentProvider();
    return deployment;
  }

  /**
   * BucketDeployment's provider is a singleton Lambda function of aws-cdk-lib (Python with the
   * AWS CLI layer) that runs only while CloudFormation deploys; its findings are acknowledged
   * on it alone, each for its own reason.
   */
  private acknowledgeDeploymentProvider(): void {
    const stack = Stack.of(this);
    const provider = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (!provider) throw new Error('BucketDeployment provider function not found');
    const bucket = `arn:<AWS::Partition>:s3:::${this.config.prefix}-demo-<AWS::AccountId>-<AWS::Region>`;
    const assets = 'arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*';
    const build = 'CDK deploy-time provider (BucketDeployment of aws-cdk-lib)';
    const acks: [string, string][] = [
      [
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        `${build}: its role writes its own logs through the basic execution policy that aws-cdk-lib attaches; it has no other managed policy.`,
      ],
      [
        'AwsSolutions-IAM5[Action::s3:GetBucket*]',
        `${build}: reads the demo-static zip from the CDK assets bucket.`,
      ],
      [
        'AwsSolutions-IAM5[Action::s3:GetObject*]',
        `${build}: reads the demo-static zip and the demo bucket objects it compares.`,
      ],
      [
        'AwsSolutions-IAM5[Action::s3:List*]',
        `${build}: lists the assets zip and the demo bucket (prune: true).`,
      ],
      [
        `AwsSolutions-IAM5[Resource::${assets}]`,
        `${build}: the CDK bootstrap assets bucket holds the source zip.`,
      ],
      [
        'AwsSolutions-IAM5[Action::s3:Abort*]',
        `${build}: aborts its own failed multipart uploads into the demo bucket.`,
      ],
      [
        'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
        `${build}: removes files no longer in demo-static/ (prune).`,
      ],
      [
        'AwsSolutions-IAM5[Resource::*]',
        `${build}: cloudfront:CreateInvalidation/GetInvalidation after each deploy of the demo site.`,
      ],
      [
        'AwsSolutions-L1',
        `${build}: its Python runtime is pinned by aws-cdk-lib and moves with aws-cdk-lib upgrades; it serves no requests.`,
      ],
      [
        'Serverless-LambdaLatestVersion',
        `${build}: its Python runtime is pinned by aws-cdk-lib and moves with aws-cdk-lib upgrades; it serves no requests.`,
      ],
      [
        'Serverless-LambdaDLQ',
        `${build}: invoked by CloudFormation as a custom resource; a failure fails and rolls back the deployment.`,
      ],
      [
        'Serverless-LambdaTracing',
        `${build}: runs only during deployments; there is no request path to trace.`,
      ],
    ];
    acks.push([
      `AwsSolutions-IAM5[Resource::${bucket}/*]`,
      `${build}: writes and prunes every file of the demo site, which is the whole demo bucket.`,
    ]);
    for (const [id, reason] of acks) Validations.of(provider).acknowledge({ id, reason });
  }
}
