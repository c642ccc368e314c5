import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { clientOptions, deadlinesOf, SDK_DEADLINES } from '#functions/adapters/client-options';
import { documentClient } from '#functions/adapters/dynamo';
import { UnavailableError } from '#shared/kernel/errors';

/**
 * The deadlines every AWS SDK client is built with (functions/adapters/client-options.ts); what a
 * hung table costs a route end to end is tests/e2e/store-hung.test.ts.
 */

describe('the production deadlines', () => {
  it('bound every attempt of every AWS client: connection 1 s, attempt 1.5 s, 2 attempts', () => {
    expect(SDK_DEADLINES).toEqual({ connectionTimeoutMs: 1_000, requestTimeoutMs: 1_500, maxAttempts: 2 });
    // One hung call (two attempts and a backoff) stays inside the 5 s authorizer.
    expect(SDK_DEADLINES.maxAttempts * SDK_DEADLINES.requestTimeoutMs + 500).toBeLessThan(5_000);
    expect(deadlinesOf(undefined)).toEqual(SDK_DEADLINES);
  });

  it('are the options of a client: where it points, attempts, and a request handler that throws on a timeout', () => {
    expect(clientOptions({ region: 'x' })).toEqual({
      region: 'x',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 1_500, throwOnRequestTimeout: true },
    });
    expect(clientOptions()).toEqual({
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 1_500, throwOnRequestTimeout: true },
    });
  });

  it('give way, field by field, to the settings and then to a caller of its own (the providers)', () => {
    const settings = { endpoint: 'http://e', deadlines: { requestTimeoutMs: 30_000 } };
    expect(deadlinesOf(settings)).toEqual({ ...SDK_DEADLINES, requestTimeoutMs: 30_000 });
    expect(clientOptions(settings, { maxAttempts: 1 })).toEqual({
      endpoint: 'http://e',
      maxAttempts: 1,
      requestHandler: { connectionTimeout: 1_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
    });
  });
});

describe('a client built with the deadlines, against a listener that never answers', () => {
  it('gives up after its attempts with UnavailableError, the SDK TimeoutError as its cause', async () => {
    const held = new Set<Socket>();
    const server = createServer((socket) => void held.add(socket.pause()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const doc = documentClient(
      new DynamoDBClient(
        clientOptions({
          endpoint: `http://127.0.0.1:${port}`,
          region: 'us-east-1',
          credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
          deadlines: { requestTimeoutMs: 300, maxAttempts: 2 },
        }),
      ),
    );
    const started = performance.now();
    const err = await doc.send(new GetCommand({ TableName: 't', Key: { pk: 'a', sk: 'b' } })).catch((e) => e);
    const ms = performance.now() - started;
    doc.destroy();
    for (const s of held) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).cause).toMatchObject({ name: 'TimeoutError' });
    // Two attempts of 300 ms: the second attempt was made (retried), and nothing waited longer.
    expect(ms).toBeGreaterThanOrEqual(590);
    expect(ms).toBeLessThan(2_500);
  });
});
