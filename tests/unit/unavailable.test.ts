import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  DynamoDBServiceException,
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  ResourceNotFoundException,
  ThrottlingException,
  TransactionCanceledException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { documentClient, isUnavailable } from '#functions/adapters/dynamo';
import { toProblem } from '#functions/http/problem';
import { UnavailableError } from '#shared/kernel/errors';

/** docs/api.md section 2: a table that is unavailable is 503 `unavailable`, whatever the SDK raised. */

const $metadata = {};
const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata,
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
const network = (code: string) =>
  Object.assign(new Error(`connect ${code} 10.0.0.1:443`), { code, $metadata });

describe('isUnavailable: the SDK failures that mean "the table cannot answer now"', () => {
  it.each([
    ['throughput exceeded', new ProvisionedThroughputExceededException({ message: 'x', $metadata })],
    ['throttling', new ThrottlingException({ message: 'x', $metadata })],
    ['request limit', new RequestLimitExceeded({ message: 'x', $metadata })],
    ['internal server error', new InternalServerError({ message: 'x', $metadata })],
    [
      'an unmodelled 503',
      new DynamoDBServiceException({ name: 'ServiceUnavailable', $fault: 'server', $metadata, message: 'x' }),
    ],
    ['a write that met a transaction', new TransactionConflictException({ message: 'x', $metadata })],
    ['a transaction cancelled for throttling', cancelled('ThrottlingError', 'None')],
    ['a transaction cancelled for throughput', cancelled('None', 'ProvisionedThroughputExceeded')],
    ['connection refused', network('ECONNREFUSED')],
    ['connection reset', network('ECONNRESET')],
    ['DNS failure', network('ENOTFOUND')],
    ['the SDK timeout', Object.assign(new Error('timed out'), { name: 'TimeoutError' })],
  ])('%s', (_, err) => {
    expect(isUnavailable(err)).toBe(true);
  });

  it.each([
    ['a failed condition', new ConditionalCheckFailedException({ message: 'x', $metadata })],
    ['a transaction cancelled by a condition', cancelled('ConditionalCheckFailed', 'None')],
    ['a transaction cancelled by a conflict (transact retries it)', cancelled('TransactionConflict', 'None')],
    ['a missing table (a deployment fault: 500)', new ResourceNotFoundException({ message: 'x', $metadata })],
    ['a bug', new TypeError('x is undefined')],
    ['not an error', undefined],
  ])('not %s', (_, err) => {
    expect(isUnavailable(err)).toBe(false);
  });
});

describe('the document client classifies at the edge', () => {
  it('a table that does not answer (a closed port) fails with UnavailableError, the SDK error as its cause', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await new Promise<void>((r) => server.close(() => r()));
    const doc = documentClient(
      new DynamoDBClient({
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
        maxAttempts: 2,
      }),
    );
    const err = await doc.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })).catch((e) => e);
    doc.destroy();
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('503 unavailable as problem+json', () => {
  it('names the condition, asks for a retry and lets nothing be cached or leak', () => {
    const cause = new ProvisionedThroughputExceededException({
      message: 'Throughput exceeded on table ops-prod-Table',
      $metadata,
    });
    const r = toProblem(new UnavailableError(cause), 'req-1');
    expect(r.statusCode).toBe(503);
    expect(r.headers).toEqual({
      'content-type': 'application/problem+json',
      'retry-after': '2',
      'cache-control': 'no-store',
    });
    expect(JSON.parse(r.body!)).toEqual({
      type: 'about:blank',
      title: 'Service unavailable',
      status: 503,
      code: 'unavailable',
      detail: expect.stringContaining('retry'),
      request_id: 'req-1',
    });
    for (const leak of ['ops-prod-Table', 'Throughput', 'dependency of the service did not']) {
      expect(r.body).not.toContain(leak);
    }
  });
});
