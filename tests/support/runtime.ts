import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startRuntime as start } from '#local/runtime';
import { dynamoEndpoint, uniqueTableName } from './db';

export interface TestRuntime {
  baseUrl: string;
  admin: { email: string; password: string };
  /** The runtime's table and DynamoDB Local endpoint, for tests that look at the table itself. */
  tableName: string;
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * The local runtime on a free port, over a fresh table in the run's DynamoDB Local (or at
 * `options.endpoint`, a proxy to it: tests/support/tcp-proxy.ts), with a
 * bootstrapped platform admin, the demo site at `/` and, given `options.consoleDir`, the built
 * operator console at `/console/`. One per test file: the handlers read
 * their configuration once per process, as Lambda does.
 */
export async function startRuntime(
  env: Record<string, string> = {},
  options: { endpoint?: string; consoleDir?: string } = {},
): Promise<TestRuntime> {
  const admin = { email: 'admin@ops.test', password: randomBytes(12).toString('base64url') };
  const endpoint = options.endpoint ?? dynamoEndpoint();
  const tableName = uniqueTableName('e2e');
  const runtime = await start({
    endpoint,
    tableName,
    bootstrapAdmin: admin,
    staticDir: fileURLToPath(new URL('../../demo-static', import.meta.url)),
    ...(options.consoleDir ? { consoleDir: options.consoleDir } : {}),
    // Lenient SDK deadlines (local/config.ts localDeadlines): under a whole suite on a small
    // machine DynamoDB Local may take seconds to answer. tests/e2e/store-hung.test.ts sets the
    // cloud's own.
    env: { OPS_SDK_REQUEST_TIMEOUT_MS: '30000', OPS_SDK_CONNECTION_TIMEOUT_MS: '10000', ...env },
  });
  return { baseUrl: runtime.url, admin, tableName, endpoint, stop: runtime.stop };
}
