import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/**
 * Builds the API Gateway HTTP API (payload format 2.0) event that the cloud sends, from a Node
 * request, so the local runtime runs the unchanged Lambda handlers.
 */
export function toApiGatewayEvent(req: IncomingMessage, body: Buffer): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost');
  // Names come from the request: without a prototype, `__proto__` or `constructor` is a name like
  // any other (an own property, as in API Gateway's own event), never Object.prototype's member.
  const headers: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const query: Record<string, string> = Object.create(null);
  for (const [k, v] of url.searchParams) query[k] = Object.hasOwn(query, k) ? `${query[k]},${v}` : v;
  const now = new Date();
  const method = (req.method ?? 'GET').toUpperCase();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length ? body.toString('utf8') : undefined,
    isBase64Encoded: false,
  };
}

export const lambdaContext = (functionName: string): Context => ({
  callbackWaitsForEmptyEventLoop: false,
  functionName,
  functionVersion: '$LATEST',
  invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
  memoryLimitInMB: '1024',
  awsRequestId: randomUUID(),
  logGroupName: `/aws/lambda/${functionName}`,
  logStreamName: 'local',
  getRemainingTimeInMillis: () => 30_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});
