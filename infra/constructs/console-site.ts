import { DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CloudFrontFunction,
  type Distribution,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type IOrigin,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { consoleContentSecurityPolicy } from '#shared/console/site-headers';
import { DEMO_SITE_HEADERS as H } from '#shared/demo/site-headers';
import type { DeploymentConfig } from '#infra/config';
import { CONSOLE_SOURCE_DIR } from '#infra/paths';
import { buildConsole } from '../../scripts/lib/console-build';

/**
 * The operator console on the demo site's distribution: its behaviour under /console/ (its own
 * security headers and the function that answers its routes) and its deployment into the demo
 * bucket. Its pieces are created in the demo site's scope (./demo-site.ts), not in a child
 * construct: a new path segment would give them new logical ids, and CloudFormation would create
 * the replacement headers policy, whose name is fixed, before deleting the old one, and fail.
 */

/** Where the operator console lives in the bucket and on the distribution. */
export const CONSOLE_PREFIX = 'console/';

/**
 * The console is a single-page app: a path under /console/ that names no file (no extension) is
 * one of its routes, answered by its index.html (a deep link or a reload). CloudFront Functions
 * run this JavaScript 2.0 source at the edge on each viewer request of the console behaviour.
 */
export const CONSOLE_ROUTES_FUNCTION = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/${CONSOLE_PREFIX}index.html';
  return request;
}`;

export interface ConsoleBehavior {
  /** The operator console's headers: the demo's, with the console's own CSP. */
  readonly headersPolicy: ResponseHeadersPolicy;
  /** The distribution's behaviours for the console, by path pattern. */
  readonly behaviors: Record<string, BehaviorOptions>;
}

/**
 * The console's behaviour on the distribution, from `origin` (the demo bucket's), with pages
 * allowed to connect to `apiOrigins`.
 */
export function consoleBehavior(
  scope: Construct,
  config: DeploymentConfig,
  origin: IOrigin,
  apiOrigins: string,
): ConsoleBehavior {
  // The console's own CSP (shared/console/site-headers.ts, which the local runtime sends too):
  // scripts and styles from this origin only, connections to it and to the API.
  const headersPolicy = new ResponseHeadersPolicy(scope, 'ConsoleSecurityHeaders', {
    responseHeadersPolicyName: `${config.prefix}-console-security-headers`,
    comment: 'Security headers of the ops-platform operator console',
    securityHeadersBehavior: {
      contentSecurityPolicy: {
        contentSecurityPolicy: consoleContentSecurityPolicy(apiOrigins),
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption[H.frameOptions], override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(H.strictTransportSecurity.maxAgeSeconds),
        includeSubdomains: H.strictTransportSecurity.includeSubdomains,
        override: true,
      },
    },
  });
  const consoleRoutes = new CloudFrontFunction(scope, 'ConsoleRoutes', {
    comment: 'Operator console: paths of its routes answer its index.html',
    code: FunctionCode.fromInline(CONSOLE_ROUTES_FUNCTION),
    runtime: FunctionRuntime.JS_2_0,
  });
  // It calls the API cross-origin: the API's CORS allows this distribution's origin only
  // (service-api.ts).
  const behaviors = {
    [`/${CONSOLE_PREFIX}*`]: {
      origin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: headersPolicy,
      compress: true,
      functionAssociations: [{ function: consoleRoutes, eventType: FunctionEventType.VIEWER_REQUEST }],
    },
  };
  return { headersPolicy, behaviors };
}

/**
 * The operator console, built at synth time by the project's esbuild (the same build as
 * `npm run build:console`), deployed under console/ of `bucket` with its config.json naming the
 * API, and invalidated on `distribution`.
 */
export function publishConsole(
  scope: Construct,
  config: DeploymentConfig,
  bucket: IBucket,
  distribution: Distribution,
  apiUrl: string,
): BucketDeployment {
  const built = Source.asset(CONSOLE_SOURCE_DIR, {
    exclude: ['dist'],
    bundling: {
      // Never a container: the build is local and synchronous (tryBundle).
      image: DockerImage.fromRegistry('scratch'),
      local: {
        tryBundle(outputDir: string) {
          buildConsole(outputDir);
          return true;
        },
      },
    },
  });
  return new BucketDeployment(scope, 'DeployConsole', {
    sources: [built, Source.jsonData('config.json', { apiUrl })],
    destinationBucket: bucket,
    destinationKeyPrefix: CONSOLE_PREFIX,
    distribution,
    distributionPaths: [`/${CONSOLE_PREFIX}*`],
    prune: true,
    retainOnDelete: false,
    memoryLimit: 256,
    logGroup: new LogGroup(scope, 'DeployConsoleLogs', {
      retention: config.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    }),
  });
}
