import { vi } from 'vitest';
import { localClientSettings } from '#local/dynamodb-local';
import { dynamoEndpoint } from '#tests/support/db';

/**
 * Points the deployed functions at one test table before a file loads their handlers. Handlers
 * read the configuration once, when loaded; where test files share a worker, another file may
 * have loaded them, and the configuration, for its own table. So the module registry is reset
 * and the configuration given, not read from `process.env`. Returns the undo for `afterAll`, so
 * the next file in the worker reads its own environment again (a file that left its table behind
 * made the next one fail on a clean checkout, where the order differed).
 */
export async function provideTable(
  table: { tableName: string; cursorSecret: string },
  endpoint: string = dynamoEndpoint(),
): Promise<() => void> {
  vi.resetModules();
  const { loadConfig, provideConfig } = await import('#functions/config');
  const config = loadConfig({ TABLE_NAME: table.tableName, OPS_CURSOR_SECRET: table.cursorSecret });
  provideConfig({
    ...config,
    table: {
      ...config.table,
      client: localClientSettings(endpoint),
    },
  });
  return () => provideConfig(undefined);
}
